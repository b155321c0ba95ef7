package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Side;

/**
 * One book's stop and stop-limit orders waiting for their stop price, out of the book: buy stops by stop price
 * ascending (the lowest triggers first as the price rises), sell stops descending, each price in arrival order. The
 * orders are linked through their queue links ({@code prev}/{@code next}: a waiting stop is in no level), so adding
 * costs a walk to its place and removing, or taking the triggered ones from the front, is O(1) each.
 */
final class WaitingStops {
    private Order buyHead;
    private Order buyTail;
    private Order sellHead;
    private Order sellTail;
    int count;

    /**
     * Puts the order behind every waiting stop of its side that triggers no later (same stop price: arrival). Walks from
     * whichever end of the list is nearer in stop price: new stops are mostly near the price (the front) or beyond the
     * others (the back).
     */
    void add(Order order) {
        count++;
        boolean buy = order.side == Side.BUY;
        Order head = buy ? buyHead : sellHead;
        Order tail = buy ? buyTail : sellTail;
        long stopPrice = order.stopPrice;
        Order after;
        if (head != null && Math.abs(stopPrice - head.stopPrice) < Math.abs(tail.stopPrice - stopPrice)) {
            // From the front: past every order that triggers at the same price or earlier.
            Order before = head;
            while (before != null && !triggersLater(before, stopPrice)) {
                before = before.next;
            }
            after = before == null ? tail : before.prev;
        } else {
            // From the back: the new order goes behind every order that triggers at the same price or earlier.
            after = tail;
            while (after != null && triggersLater(after, stopPrice)) {
                after = after.prev;
            }
        }
        order.prev = after;
        order.next = after == null ? (buy ? buyHead : sellHead) : after.next;
        if (order.next == null) {
            setTail(order.side, order);
        } else {
            order.next.prev = order;
        }
        if (after == null) {
            setHead(order.side, order);
        } else {
            after.next = order;
        }
    }

    void remove(Order order) {
        count--;
        if (order.prev == null) {
            setHead(order.side, order.next);
        } else {
            order.prev.next = order.next;
        }
        if (order.next == null) {
            setTail(order.side, order.prev);
        } else {
            order.next.prev = order.prev;
        }
        order.prev = null;
        order.next = null;
    }

    /**
     * The first waiting stop that {@code lastPrice} triggers (buy stops first), or null: a buy stop at or below it, a
     * sell stop at or above it.
     */
    Order firstTriggeredBy(long lastPrice) {
        if (buyHead != null && buyHead.stopPrice <= lastPrice) {
            return buyHead;
        }
        if (sellHead != null && sellHead.stopPrice >= lastPrice) {
            return sellHead;
        }
        return null;
    }

    /** The waiting stops of one side in trigger order (the links of {@code next}). */
    Order first(Side side) {
        return side == Side.BUY ? buyHead : sellHead;
    }

    /** Whether {@code waiting} triggers strictly later than an order at {@code stopPrice} would. */
    private static boolean triggersLater(Order waiting, long stopPrice) {
        return waiting.side == Side.BUY ? waiting.stopPrice > stopPrice : waiting.stopPrice < stopPrice;
    }

    private void setHead(Side side, Order order) {
        if (side == Side.BUY) {
            buyHead = order;
        } else {
            sellHead = order;
        }
    }

    private void setTail(Side side, Order order) {
        if (side == Side.BUY) {
            buyTail = order;
        } else {
            sellTail = order;
        }
    }
}
