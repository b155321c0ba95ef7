package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;

/**
 * Orders whose time is up: every DAY order at the end of the day (and a book's at its close, {@link TradingSchedule}),
 * a GTD order at its expire time ({@link ExpiryQueue}). Each gets EXPIRED and leaves the book.
 */
final class OrderExpiry {
    private final LiveOrders live;
    private final EngineView view;

    OrderExpiry(LiveOrders live, EngineView view) {
        this.live = live;
        this.view = view;
    }

    /**
     * The end of the day: every live DAY order expires, book by book: bids then asks in priority order, then the
     * waiting buy stops and sell stops in trigger order.
     */
    void expireDayOrders() {
        for (OrderBook book : live.books) {
            expireDayOrders(book.bids);
            expireDayOrders(book.asks);
            expireDayOrders(book.stops.first(Side.BUY));
            expireDayOrders(book.stops.first(Side.SELL));
            expireDayOrders(book.marketBuys.head);
            expireDayOrders(book.marketSells.head);
        }
        view.dayEnded();
    }

    /** The DAY orders resting on one side of a book expire, in priority order. */
    void expireDayOrders(BookSide side) {
        PriceLevel level = side.best;
        while (level != null) {
            PriceLevel worse = level.worse; // the level goes back to the pool if its last order expires
            expireDayOrders(level.head);
            level = worse;
        }
    }

    /** The DAY orders of one queue (a level's orders, or one side's waiting stops) expire, in its order. */
    void expireDayOrders(Order first) {
        Order order = first;
        while (order != null) {
            Order next = order.next;
            if (order.timeInForce == TimeInForce.DAY) {
                live.expireLive(order, RejectReason.DAY_ENDED);
            }
            order = next;
        }
    }

    /** The GTD order that expires first (earliest expire time, then order id) expires. */
    void expireFirstGoodTillDate() {
        live.expireLive(live.expiries.first(), RejectReason.GTD_EXPIRED);
    }
}
