package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;

/**
 * A book's call (opening, closing, volatility): orders join it without matching, its indicative uncross is published
 * after each command while it lasts, and it ends in the uncross, every order that takes part trading at the one
 * auction price ({@link AuctionPrice}). When a call begins and ends is {@link TradingSchedule}'s.
 */
final class CallAuction {
    private final OrderBook[] books;
    private final LiveOrders live;
    private final PreTradeRisk risk;
    private final EventPublisher publisher;
    private final EngineView view;
    private final AuctionPrice auction = new AuctionPrice();

    CallAuction(LiveOrders live, PreTradeRisk risk, EventPublisher publisher, EngineView view) {
        this.books = live.books;
        this.live = live;
        this.risk = risk;
        this.publisher = publisher;
        this.view = view;
    }

    /** An order entering while its book is in a call: IOC and FOK end (the interruption's), the rest joins the call. */
    void enterDuringCall(Order order, boolean tracked) {
        if (order.timeInForce == TimeInForce.IOC || order.timeInForce == TimeInForce.FOK) {
            live.end(order, tracked, RejectReason.VOLATILITY_INTERRUPTION);
        } else {
            joinCall(order, tracked);
        }
    }

    /**
     * An order joins a call without matching: a limit order rests at the back of its level (the book may cross), a
     * market order at the back of its side's market orders.
     */
    void joinCall(Order order, boolean tracked) {
        if (order.orderType.hasLimitPrice()) {
            if (live.noFreeLevel(order.book.side(order.side), order.price)) {
                live.end(order, tracked, RejectReason.BOOK_FULL);
                return;
            }
            live.rest(order);
        } else {
            order.book.marketOrders(order.side).add(order);
        }
        if (!tracked) {
            live.track(order);
        }
    }

    /** After a command, while some books are in a call: each one's indicative uncross, published when it moved. */
    void refreshIndicatives() {
        for (OrderBook book : books) {
            TradingSession session = book.session;
            if (!session.phase.isCall()) {
                continue;
            }
            computeAuction(book);
            if (auction.price != session.indicativePrice || auction.volume != session.indicativeVolume) {
                session.indicativePrice = auction.price;
                session.indicativeVolume = auction.volume;
                live.marketData.indicative(book.symbolId, session.phase, auction.price, auction.volume);
                view.indicative(book.symbolId, auction.price, auction.volume);
            }
        }
    }

    /** The book's auction now, nearest its reference: the last trade price, else the configured one (0: none). */
    private AuctionPrice computeAuction(OrderBook book) {
        return auction.compute(book, book.marketBuys.leaves(), book.marketSells.leaves(),
            risk.reference(book.symbolId));
    }

    /**
     * The uncross: at the auction's price, buyers (market orders first, then limit orders from the best price, each
     * in time order) trade with sellers the same way, up to the auction's volume: each trade a FILL of the buyer then
     * one of the seller at that one price. An iceberg trades its hidden part too, and shows its floor again in place.
     */
    void uncross(OrderBook book) {
        computeAuction(book);
        long price = auction.price;
        long remaining = auction.volume;
        if (remaining == 0) {
            return;
        }
        Order buy = firstInAuction(book, Side.BUY, price);
        Order sell = firstInAuction(book, Side.SELL, price);
        while (remaining > 0 && buy != null && sell != null) {
            long quantity = Math.min(remaining, Math.min(buy.leaves, sell.leaves));
            Order nextBuy = buy.leaves == quantity ? nextInAuction(buy, price) : buy;
            Order nextSell = sell.leaves == quantity ? nextInAuction(sell, price) : sell;
            fillInAuction(buy, quantity, price);
            fillInAuction(sell, quantity, price);
            risk.onTrade(book.symbolId, price);
            publisher.fill(buy, quantity, price);
            publisher.fill(sell, quantity, price);
            live.marketData.traded(book.symbolId, price, quantity);
            finishInAuction(buy);
            finishInAuction(sell);
            remaining -= quantity;
            buy = nextBuy;
            sell = nextSell;
        }
    }

    private static Order firstInAuction(OrderBook book, Side side, long price) {
        Order market = book.marketOrders(side).head;
        if (market != null) {
            return market;
        }
        PriceLevel best = book.side(side).best;
        return best != null && takesPart(side, best.price, price) ? best.head : null;
    }

    /** The order after {@code order} in the auction's priority: next in its queue or level, then the next level. */
    private static Order nextInAuction(Order order, long price) {
        if (order.next != null) {
            return order.next;
        }
        PriceLevel level = order.queue != null ? order.book.side(order.side).best : order.level.worse;
        return level != null && takesPart(order.side, level.price, price) ? level.head : null;
    }

    private static boolean takesPart(Side side, long limit, long price) {
        return side == Side.BUY ? limit >= price : limit <= price;
    }

    private void fillInAuction(Order order, long quantity, long price) {
        order.fill(quantity, price);
        PriceLevel level = order.level;
        if (level != null) {
            long shown = order.maxFloor == 0 ? order.leaves : Math.min(order.maxFloor, order.leaves);
            level.totalQuantity -= quantity;
            level.displayedQuantity += shown - order.shown;
            order.shown = shown;
        }
    }

    private void finishInAuction(Order order) {
        if (order.leaves == 0) {
            live.removeLive(order);
            live.release(order);
        } else if (order.level != null) {
            live.levelChanged(order.level);
        }
    }
}
