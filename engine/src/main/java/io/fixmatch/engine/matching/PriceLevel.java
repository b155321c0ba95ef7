package io.fixmatch.engine.matching;

/**
 * All resting orders of one side of one book at one price, in time priority (a FIFO of intrusive order nodes),
 * and itself a node of its side's list of levels ordered from best to worst price.
 */
final class PriceLevel extends OrderList {
    BookSide side;
    long price;
    /** Cached hash of (side, price) for the level index. */
    int indexHash;
    int orderCount;
    /** The leaves of its orders, hidden iceberg parts included: what an aggressor can trade here. */
    long totalQuantity;
    /** What shows in the book (market data): the orders' displayed parts (an iceberg shows its floor). */
    long displayedQuantity;

    PriceLevel better;
    PriceLevel worse;

    void init(BookSide side, long price) {
        this.side = side;
        this.price = price;
        head = null;
        tail = null;
        orderCount = 0;
        totalQuantity = 0;
        displayedQuantity = 0;
        better = null;
        worse = null;
    }

    /** Puts the order at the back of the queue: it has the lowest time priority at this price. */
    void append(Order order) {
        order.level = this;
        linkLast(order);
        orderCount++;
        totalQuantity += order.leaves;
        displayedQuantity += order.shown;
    }

    /** Takes the order out of the queue in O(1); the caller has already taken its fills out of the totals. */
    void unlink(Order order) {
        unlinkOrder(order);
        orderCount--;
        totalQuantity -= order.leaves;
        displayedQuantity -= order.shown;
        order.level = null;
    }

    boolean isEmpty() {
        return orderCount == 0;
    }

    @Override
    public String toString() {
        return "PriceLevel{" + price + " orders=" + orderCount + " qty=" + totalQuantity + " shown=" + displayedQuantity
            + "}";
    }
}
