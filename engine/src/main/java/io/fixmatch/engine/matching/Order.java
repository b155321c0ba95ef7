package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;

/**
 * A pooled, reusable order. It is also a node of its price level's queue ({@code prev}/{@code next}), so removing
 * it from the middle of a level is O(1) whatever the level's depth.
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

    PriceLevel level;
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

    OrderStatus liveStatus() {
        if (leaves == 0) {
            return OrderStatus.FILLED;
        }
        return cum == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
    }

    /** Whether a resting order at {@code restingPrice} is acceptable to this order as its counterparty. */
    boolean acceptsPrice(long restingPrice) {
        if (orderType == OrderType.MARKET) {
            return true;
        }
        return side == Side.BUY ? restingPrice <= price : restingPrice >= price;
    }

    /** Drops references so a pooled order keeps nothing alive and leaks nothing into its next use. */
    void clear() {
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

    @Override
    public String toString() {
        return "Order{" + orderId + " owner=" + owner + " " + clientOrderId + " " + side + " " + leaves + "@" + price + "}";
    }
}
