package io.fixmatch.engine.matching;

/**
 * The live GTD orders by expire time (then order id): a binary heap over a preallocated array, each order knowing its
 * place ({@code expiryIndex}) so that one leaving early (filled, canceled) is taken out in O(log n). The engine looks
 * at the earliest deadline before each journaled command: one comparison while nothing is due.
 */
final class ExpiryQueue {
    static final long NONE = Long.MAX_VALUE;

    private final Order[] heap;
    private int size;

    ExpiryQueue(int capacity) {
        heap = new Order[capacity];
    }

    /** The earliest expire time of a live GTD order, {@link #NONE} when there is none. */
    long nextDeadline() {
        return size == 0 ? NONE : heap[0].expireTimeNanos;
    }

    /** The order that expires first, or null. */
    Order first() {
        return size == 0 ? null : heap[0];
    }

    int size() {
        return size;
    }

    void add(Order order) {
        heap[size] = order;
        order.expiryIndex = size;
        size++;
        up(order.expiryIndex);
    }

    void remove(Order order) {
        int at = order.expiryIndex;
        order.expiryIndex = -1;
        size--;
        if (at == size) {
            heap[size] = null;
            return;
        }
        Order last = heap[size];
        heap[size] = null;
        place(last, at);
        if (at > 0 && earlier(last, heap[(at - 1) >>> 1])) {
            up(at);
        } else {
            down(at);
        }
    }

    private void up(int at) {
        Order order = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!earlier(order, heap[parent])) {
                break;
            }
            place(heap[parent], at);
            at = parent;
        }
        place(order, at);
    }

    private void down(int at) {
        Order order = heap[at];
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && earlier(heap[child + 1], heap[child])) {
                child++;
            }
            if (!earlier(heap[child], order)) {
                break;
            }
            place(heap[child], at);
            at = child;
        }
        place(order, at);
    }

    private void place(Order order, int at) {
        heap[at] = order;
        order.expiryIndex = at;
    }

    private static boolean earlier(Order a, Order b) {
        return a.expireTimeNanos < b.expireTimeNanos
            || (a.expireTimeNanos == b.expireTimeNanos && a.orderId < b.orderId);
    }
}
