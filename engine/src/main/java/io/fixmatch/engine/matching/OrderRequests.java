package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.api.TradingPhase;

/**
 * A session's requests about one order: a new order, a cancel, a cancel/replace, a status request. Each is checked in
 * the documented order (docs/MATCHING.md; {@link OrderRules}, {@link PreTradeRisk}), refused with its reason or
 * carried out: a new order is accepted and entered ({@link ContinuousMatching}, or a call: {@link CallAuction}) or
 * waits (a stop, an At the Close order); afterwards the waiting stops it triggers enter ({@link StopTrigger}).
 */
final class OrderRequests {
    private final LiveOrders live;
    private final ContinuousMatching matching;
    private final CallAuction auction;
    private final StopTrigger stops;
    private final PreTradeRisk risk;
    private final EventPublisher publisher;
    private final ClientOrderId previousClientOrderId = new ClientOrderId();
    /** The id of the last order accepted (ids start at 1 and never repeat). */
    long lastOrderId;

    OrderRequests(LiveOrders live, ContinuousMatching matching, CallAuction auction, StopTrigger stops,
                  PreTradeRisk risk, EventPublisher publisher) {
        this.live = live;
        this.matching = matching;
        this.auction = auction;
        this.stops = stops;
        this.risk = risk;
        this.publisher = publisher;
    }

    void newOrder(Command command) {
        if (answeredAsResent(command)) {
            return;
        }
        OrderBook book = live.bookOf(command.symbolId());
        int idHash = OrderIndex.hash(command.owner(), command.clientOrderId());
        RejectReason reason = checkNewOrder(command, book, idHash);
        if (reason.isPreTradeRisk()) {
            publisher.rejected(command, reason, risk);
            return;
        }
        if (reason != RejectReason.NONE) {
            publisher.rejected(command, reason);
            return;
        }
        Order order = live.orderPool.acquire();
        if (order == null) {
            publisher.rejected(command, RejectReason.BOOK_FULL);
            return;
        }
        OrderType type = command.orderType();
        order.orderId = ++lastOrderId;
        order.indexHash = idHash; // its index slot's hash: track() adds it without hashing the id again
        order.owner = command.owner();
        order.clientOrderId.copyFrom(command.clientOrderId());
        order.book = book;
        order.side = command.side();
        order.orderType = command.orderType();
        order.timeInForce = command.timeInForce();
        order.price = type.hasLimitPrice() ? command.price() : 0;
        order.quantity = command.quantity();
        order.leaves = command.quantity();
        order.cum = 0;
        order.cumNotional = 0;
        order.stopPrice = command.stopPrice();
        order.maxFloor = command.maxFloor();
        order.minQuantity = command.minQuantity();
        order.expireTimeNanos = command.expireTimeNanos();
        order.postOnly = command.postOnly();
        order.triggered = false;
        order.shown = 0; // set when it rests
        publisher.accepted(order);
        TradingPhase phase = book.session.phase;
        if (type.isStop()) {
            order.book.stops.add(order); // waits for its stop price, out of the book (and may be triggered at once)
            live.track(order);
        } else if (phase != TradingPhase.CONTINUOUS) {
            if (order.timeInForce == TimeInForce.AT_THE_CLOSE && phase != TradingPhase.CLOSING_CALL) {
                book.atClose.add(order); // waits for the closing call
                live.track(order);
            } else {
                auction.joinCall(order, false);
            }
        } else if (order.timeInForce == TimeInForce.AT_THE_CLOSE) {
            book.atClose.add(order);
            live.track(order);
        } else {
            matching.enter(order, false);
        }
        if (book.stops.count != 0) {
            stops.triggerStops(book);
        }
    }

    /**
     * A new order or replace the client marked as possibly sent before, whose ClOrdID is already live: it was entered
     * the first time, so it is answered with the order's status instead of being entered twice (or rejected as a
     * duplicate, which would tell the client its order was refused).
     */
    private boolean answeredAsResent(Command command) {
        if (!command.possibleResend()) {
            return false;
        }
        Order order = live.orderIndex.find(command.owner(), command.clientOrderId());
        if (order == null) {
            return false;
        }
        publisher.status(order);
        return true;
    }

    private RejectReason checkNewOrder(Command command, OrderBook book, int idHash) {
        if (!OwnerOrders.isValidOwner(command.owner())) {
            return RejectReason.INVALID_OWNER;
        }
        if (book == null) {
            return RejectReason.UNKNOWN_SYMBOL;
        }
        if (book.halted) {
            return RejectReason.SYMBOL_HALTED;
        }
        TradingPhase phase = book.session.phase;
        if (phase == TradingPhase.CLOSED) {
            return RejectReason.MARKET_CLOSED;
        }
        if (command.clientOrderId().isEmpty()) {
            return RejectReason.MISSING_CLIENT_ORDER_ID;
        }
        if (live.orderIndex.find(command.owner(), command.clientOrderId(), idHash) != null) {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        RejectReason reason = OrderRules.check(book.spec, command.orderType(), command.price(), command.quantity());
        if (reason != RejectReason.NONE) {
            return reason;
        }
        reason = OrderRules.checkAttributes(book.spec, command, command.timestampNanos());
        if (reason != RejectReason.NONE) {
            return reason;
        }
        reason = OrderRules.checkPhase(book.session, command);
        if (reason != RejectReason.NONE) {
            return reason;
        }
        // A stop order is checked as the market or limit order it becomes once triggered.
        OrderType type = command.orderType();
        reason = risk.checkNewOrder(command.owner(), book.symbolId, book.spec,
            type.hasLimitPrice() ? OrderType.LIMIT : OrderType.MARKET, command.timeInForce(), command.price(),
            command.quantity());
        if (reason != RejectReason.NONE) {
            return reason;
        }
        if (phase.isCall()) {
            return enoughCapacity(book, command);
        }
        if (command.postOnly() && crossesOpposite(book, command.side(), command.price())) {
            return RejectReason.POST_ONLY_WOULD_TAKE;
        }
        if (type == OrderType.MARKET && command.timeInForce() != TimeInForce.AT_THE_CLOSE) { // (that one waits)
            return book.side(command.side().opposite()).best == null ? RejectReason.NO_LIQUIDITY : RejectReason.NONE;
        }
        // A limit order that may rest at a price with no level yet needs a free level. Checked before anything
        // trades, so a reject never follows a partial execution. (A stop-limit order's is checked when triggered.)
        return enoughCapacity(book, command);
    }

    /** A limit order that may rest at a price with no level yet needs a free level. */
    private RejectReason enoughCapacity(OrderBook book, Command command) {
        boolean noFreeLevel = command.orderType() == OrderType.LIMIT && command.timeInForce().rests()
            && live.noFreeLevel(book.side(command.side()), command.price());
        return noFreeLevel ? RejectReason.BOOK_FULL : RejectReason.NONE;
    }

    /** Whether a limit price on {@code side} reaches the opposite side's best price (it would trade at once). */
    private static boolean crossesOpposite(OrderBook book, Side side, long price) {
        PriceLevel best = book.side(side.opposite()).best;
        return best != null && (side == Side.BUY ? best.price <= price : best.price >= price);
    }

    void cancel(Command command) {
        Order order = target(command, command.origClientOrderId());
        if (order == null) {
            return;
        }
        live.removeLive(order);
        publisher.canceled(order, command);
        live.release(order);
    }

    void replace(Command command) {
        if (answeredAsResent(command)) {
            return;
        }
        Order order = live.orderIndex.find(command.owner(), command.origClientOrderId());
        RejectReason reason = checkReplace(command, order);
        if (reason.isPreTradeRisk()) {
            publisher.requestRejected(command, reason, order, risk);
            return;
        }
        if (reason != RejectReason.NONE) {
            publisher.requestRejected(command, reason, order);
            return;
        }
        long newPrice = command.price();
        long newQuantity = command.quantity();
        boolean keepsPriority = keepsPriority(order, newPrice, newQuantity);
        OrderBook book = order.book;

        live.orderIndex.remove(order);
        previousClientOrderId.copyFrom(order.clientOrderId);
        order.clientOrderId.copyFrom(command.clientOrderId());
        live.orderIndex.add(order);

        long newLeaves = newQuantity - order.cum;
        if (keepsPriority) {
            long reduction = order.leaves - newLeaves;
            long newShown = order.maxFloor == 0 ? newLeaves : Math.min(order.shown, newLeaves);
            long shownReduction = order.shown - newShown;
            order.level.totalQuantity -= reduction;
            order.level.displayedQuantity -= shownReduction;
            order.quantity = newQuantity;
            order.leaves = newLeaves;
            order.shown = newShown;
            publisher.replaced(order, previousClientOrderId);
            if (shownReduction != 0) {
                live.levelChanged(order.level);
            }
            return;
        }
        // A new price or a larger quantity goes to the back of its (new) level, and may trade at once.
        live.removeFromLevel(order);
        order.price = newPrice;
        order.quantity = newQuantity;
        order.leaves = newLeaves;
        publisher.replaced(order, previousClientOrderId);
        boolean selfTradeStop = false;
        if (book.session.phase == TradingPhase.CONTINUOUS) { // in a call it only moves
            selfTradeStop = matching.aggress(order);
        }
        if (order.leaves == 0) {
            live.untrack(order);
            live.release(order);
        } else if (selfTradeStop) {
            live.end(order, true, RejectReason.SELF_TRADE_INCOMING);
        } else {
            live.rest(order);
        }
        if (book.stops.count != 0) {
            stops.triggerStops(book);
        }
    }

    /** Same price and no larger quantity: the order keeps its place in the queue (and only lowers its risk). */
    private static boolean keepsPriority(Order order, long newPrice, long newQuantity) {
        return newPrice == order.price && newQuantity <= order.quantity;
    }

    private RejectReason checkReplace(Command command, Order order) {
        RejectReason reason = checkRequestTarget(command, order);
        if (reason != RejectReason.NONE) {
            return reason;
        }
        if (order.isWaitingStop()) {
            return RejectReason.STOP_NOT_TRIGGERED;
        }
        if (order.queue != null) {
            return RejectReason.NOT_REPLACEABLE_NOW;
        }
        if (order.book.halted) {
            return RejectReason.SYMBOL_HALTED;
        }
        if (order.book.session.phase == TradingPhase.CLOSED) {
            return RejectReason.MARKET_CLOSED;
        }
        if (command.clientOrderId().isEmpty()) {
            return RejectReason.MISSING_CLIENT_ORDER_ID;
        }
        if (live.orderIndex.find(command.owner(), command.clientOrderId()) != null) {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        reason = OrderRules.check(order.book.spec, OrderType.LIMIT, command.price(), command.quantity());
        if (reason != RejectReason.NONE) {
            return reason;
        }
        if (command.quantity() <= order.cum) {
            return RejectReason.QUANTITY_NOT_ABOVE_FILLED;
        }
        if (order.postOnly && order.book.session.phase == TradingPhase.CONTINUOUS
            && crossesOpposite(order.book, order.side, command.price())) {
            return RejectReason.POST_ONLY_WOULD_TAKE;
        }
        if (!keepsPriority(order, command.price(), command.quantity())) {
            reason = risk.checkReplace(command.owner(), order.book.symbolId, order.book.spec, command.price(),
                command.quantity());
            if (reason != RejectReason.NONE) {
                return reason;
            }
        }
        // Moving to a price with no level needs a free level, unless leaving the old one frees one.
        boolean needsLevel = command.price() != order.price && order.level.orderCount > 1
            && live.noFreeLevel(order.book.side(order.side), command.price());
        return needsLevel ? RejectReason.BOOK_FULL : RejectReason.NONE;
    }

    void orderStatus(Command command) {
        Order order = target(command, command.clientOrderId());
        if (order != null) {
            publisher.status(order);
        }
    }

    /** The live order a cancel or status request names ({@code id}), or null once the request is rejected. */
    private Order target(Command command, ClientOrderId id) {
        Order order = live.orderIndex.find(command.owner(), id);
        RejectReason reason = checkRequestTarget(command, order);
        if (reason != RejectReason.NONE) {
            publisher.requestRejected(command, reason, order);
            return null;
        }
        return order;
    }

    /** A cancel, replace or status request must name a live order of its sender, with its symbol and side. */
    private static RejectReason checkRequestTarget(Command command, Order order) {
        if (order == null) {
            return RejectReason.UNKNOWN_ORDER;
        }
        if (order.book.symbolId != command.symbolId() || order.side != command.side()) {
            return RejectReason.SIDE_OR_SYMBOL_MISMATCH;
        }
        return RejectReason.NONE;
    }
}
