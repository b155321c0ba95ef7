package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;

/**
 * A pooled, reusable order. It is also a node of its price level's queue ({@code prev}/{@code next}), so removing
 * it from the middle of a level is O(1) whatever the level's depth; a stop order waiting for its trigger is a node of
 * its book's list of waiting stops through the same links (it is in no level then).
 */
final class Order implements RestingOrderView {
    long orderId;
    int owner;
    final ClientOrderId clientOrderId = new ClientOrderId();
    /** Cached hash of (owner, clientOrderId) for the order index. */
    int indexHash;
    OrderBook book;
    Side side;
    OrderType orderType;
    TimeInForce timeInForce;
    /** Limit price; 0 for a market order. */
    long price;
    long quantity;
    long leaves;
    long cum;
    long cumNotional;
    /** Stop and stop-limit orders: the last trade price that triggers them; 0 for other orders. */
    long stopPrice;
    /** A stop order that has been triggered: it now trades as the market or limit order it became. */
    boolean triggered;
    /** An iceberg's displayed quantity when it refills (FIX MaxFloor); 0: not an iceberg, all of it shows. */
    long maxFloor;
    /** While resting: the part of the leaves that shows in the book and trades first (the leaves if no iceberg). */
    long shown;
    /** IOC only: the least it must be able to trade at once (FIX MinQty); 0: none. */
    long minQuantity;
    /** GTD orders: when the engine expires them (epoch ns, a journal time); 0 for other orders. */
    long expireTimeNanos;
    /** Refused rather than traded on entry (FIX ExecInst 6, participate don't initiate); kept for its replaces. */
    boolean postOnly;
    /** Its place in the engine's {@link ExpiryQueue} (GTD orders while live), -1 when not in it. */
    int expiryIndex = -1;

    PriceLevel level;
    /** The queue it waits in out of the levels (a call's market orders, At the Close orders), or null. */
    OrderQueue queue;
    Order prev;
    Order next;
    /** Neighbours in the owner's list of live orders (for cancel-on-disconnect). */
    Order ownerPrev;
    Order ownerNext;

    void fill(long quantity, long atPrice) {
        leaves -= quantity;
        cum += quantity;
        cumNotional += quantity * atPrice;
    }

    /** What a resting order shows in the book when it joins the back of a level: its leaves, or an iceberg's floor. */
    long displayOnRest() {
        return maxFloor == 0 ? leaves : Math.min(maxFloor, leaves);
    }

    /** Whether the order waits out of the book for its stop price. */
    boolean isWaitingStop() {
        return orderType.isStop() && !triggered;
    }

    OrderStatus liveStatus() {
        if (leaves == 0) {
            return OrderStatus.FILLED;
        }
        return cum == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
    }

    /** Whether a resting order at {@code restingPrice} is acceptable to this order as its counterparty. */
    boolean acceptsPrice(long restingPrice) {
        if (!orderType.hasLimitPrice()) { // market, and a triggered stop (market) order
            return true;
        }
        return side == Side.BUY ? restingPrice <= price : restingPrice >= price;
    }

    /**
     * Drops references so a pooled order keeps nothing alive and leaks nothing into its next use (its values are all
     * set anew when it is taken: a new order's, a restored order's; {@code expiryIndex} is -1 once it left the expiry
     * queue).
     */
    void clear() {
        // (queue: every order leaves its queue through OrderQueue.remove, which clears it)
        book = null;
        level = null;
        prev = null;
        next = null;
        ownerPrev = null;
        ownerNext = null;
    }

    @Override public long orderId() { return orderId; }
    @Override public int owner() { return owner; }
    @Override public ClientOrderId clientOrderId() { return clientOrderId; }
    @Override public int symbolId() { return book.symbolId; }
    @Override public Side side() { return side; }
    @Override public TimeInForce timeInForce() { return timeInForce; }
    @Override public long price() { return price; }
    @Override public long orderQuantity() { return quantity; }
    @Override public long leavesQuantity() { return leaves; }
    @Override public long cumQuantity() { return cum; }
    @Override public long cumNotional() { return cumNotional; }
    @Override public OrderType orderType() { return orderType; }
    @Override public long stopPrice() { return stopPrice; }
    @Override public long maxFloor() { return maxFloor; }
    @Override public long displayedQuantity() { return shown; }
    @Override public long expireTimeNanos() { return expireTimeNanos; }
    @Override public boolean postOnly() { return postOnly; }

    @Override
    public String toString() {
        return "Order{" + orderId + " owner=" + owner + " " + clientOrderId + " " + side + " " + leaves + "@" + price + "}";
    }
}
