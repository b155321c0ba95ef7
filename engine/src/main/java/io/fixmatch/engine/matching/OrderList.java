package io.fixmatch.engine.matching;

/**
 * A FIFO of orders linked through their own {@code prev}/{@code next} fields (no node objects): the queue of a price
 * level, or of orders waiting out of the levels ({@link OrderQueue}). Only the links: each subclass keeps its own
 * totals and tells the order where it is.
 */
abstract class OrderList {
    Order head;
    Order tail;

    /** Links the order at the back. */
    final void linkLast(Order order) {
        order.prev = tail;
        order.next = null;
        if (tail == null) {
            head = order;
        } else {
            tail.next = order;
        }
        tail = order;
    }

    /** Unlinks the order in O(1) and clears its links. */
    final void unlinkOrder(Order order) {
        if (order.prev == null) {
            head = order.next;
        } else {
            order.prev.next = order.next;
        }
        if (order.next == null) {
            tail = order.prev;
        } else {
            order.next.prev = order.prev;
        }
        order.prev = null;
        order.next = null;
    }
}
