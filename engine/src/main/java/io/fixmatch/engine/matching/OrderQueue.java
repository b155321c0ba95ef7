package io.fixmatch.engine.matching;

/**
 * Orders of one book waiting in arrival order out of its price levels: a call's market orders of one side (they come
 * before every limit order in an auction), or the At the Close orders waiting for the closing call. Linked through the
 * orders' queue links ({@code prev}/{@code next}, unused while an order is in no level); each order knows its queue.
 */
final class OrderQueue extends OrderList {
    int count;

    void add(Order order) {
        order.queue = this;
        linkLast(order);
        count++;
    }

    void remove(Order order) {
        unlinkOrder(order);
        order.queue = null;
        count--;
    }

    /** The leaves of every order in the queue. */
    long leaves() {
        long leaves = 0;
        for (Order order = head; order != null; order = order.next) {
            leaves += order.leaves;
        }
        return leaves;
    }
}
