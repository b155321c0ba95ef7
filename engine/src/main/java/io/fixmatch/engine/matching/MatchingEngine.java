package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.MarketDataSink;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;

import java.util.List;

/**
 * The order books of all symbols and the rules that change them: price-time priority, trades at the resting
 * order's price, limit/market/IOC/FOK, cancel and cancel/replace; each session's pre-trade risk checks and kill
 * switch ({@link PreTradeRisk}), self-trade prevention ({@link SelfTradeRule}), the end of the day's expiries.
 *
 * <p>A deterministic state machine: {@link #process} takes one command and reports what happened, synchronously,
 * to the {@link EventSink}. The same commands always give the same events. Not thread-safe: one thread owns it.
 * After construction nothing allocates: orders and price levels come from pools sized by {@link EngineConfig}.
 * Its state is written and put back (snapshots) by {@link EngineState} alone, through the package-private parts.
 */
public final class MatchingEngine implements TradingSettings {
    // The package-private fields and methods are for EngineState, which puts a written state back.
    private final OrderBook[] books;
    final ObjectPool<Order> orderPool;
    final ObjectPool<PriceLevel> levelPool;
    final OrderIndex orderIndex;
    final PriceLevelIndex levelIndex;
    final OwnerOrders ownerOrders = new OwnerOrders();
    final InboundPositions inboundPositions = new InboundPositions();
    final PreTradeRisk risk;
    private final SelfTradeRule selfTrade = new SelfTradeRule();
    final EventPublisher publisher;
    private final EngineView view;
    private final ClientOrderId previousClientOrderId = new ClientOrderId();
    /** Where the books' public changes go (levels, trades); set before the first command. */
    private MarketDataSink marketData = MarketDataSink.NONE;
    long lastOrderId;
    /** The journal timestamp (epoch ns) of the last journaled command acted on; 0 if none (or not known). */
    long lastCommandNanos;
    /** The journal timestamp (epoch ns) of the last EXPIRE_DAY_ORDERS; 0 if none (or not known). */
    long lastDayEndNanos;

    public MatchingEngine(EngineConfig config, EventSink sink) {
        List<SymbolSpec> symbols = config.symbols();
        books = new OrderBook[symbols.size()];
        for (int i = 0; i < books.length; i++) {
            books[i] = new OrderBook(i, symbols.get(i));
        }
        orderPool = new ObjectPool<>(config.maxOrders(), Order::new);
        levelPool = new ObjectPool<>(config.maxPriceLevels(), PriceLevel::new);
        orderIndex = new OrderIndex(config.maxOrders());
        levelIndex = new PriceLevelIndex(config.maxPriceLevels());
        publisher = new EventPublisher(sink);
        view = new EngineView(books.length);
        risk = new PreTradeRisk(books.length);
    }

    public void process(Command command) {
        publisher.startCommand(command);
        if (command.type() != CommandType.ORDER_STATUS) { // status requests are not journaled
            inboundPositions.record(command.owner(), command.inboundPosition());
        }
        if (command.type().changesState()) { // the journaled ones: a replay sees the same stamps
            lastCommandNanos = command.timestampNanos();
            if (command.type() == CommandType.EXPIRE_DAY_ORDERS) {
                lastDayEndNanos = command.timestampNanos();
            }
        }
        switch (command.type()) {
            case NEW_ORDER -> newOrder(command);
            case CANCEL -> cancel(command);
            case REPLACE -> replace(command);
            case ORDER_STATUS -> orderStatus(command);
            case CANCEL_ALL_FOR_OWNER -> cancelAllForOwner(command.owner());
            case HALT_SYMBOL -> halt(command.symbolId(), true);
            case RESUME_SYMBOL -> halt(command.symbolId(), false);
            case BOOK_QUERY -> view.answer(command.quantity(), command.symbolId(), books, orderPool.inUse());
            case KILL_SWITCH -> killSwitch(command.owner(), true);
            case RELEASE_KILL_SWITCH -> killSwitch(command.owner(), false);
            case EXPIRE_DAY_ORDERS -> expireDayOrders();
            case SET_SESSION_CONTROL -> setSessionControl(command.owner(), SessionControl.ofCode(command.symbolId()),
                command.quantity());
            case SET_REFERENCE_PRICE -> {
                if (bookOf(command.symbolId()) != null) {
                    risk.referencePrice(command.symbolId(), command.price());
                }
            }
        }
    }

    /**
     * Answers a command with a reject without looking at it: for a command the engine must not act on (it could
     * not be journaled, say). Changes nothing, consumes no id: the event's exec id is 0.
     */
    public void refuse(Command command, RejectReason reason) {
        if (!command.type().isOperators()) { // the operator has no session to tell: it sees nothing changed
            publisher.startCommand(command);
            publisher.refused(command, reason);
        }
    }

    /**
     * Before the first command: who is told of every change of a price level's total quantity and of every trade
     * (market data). {@link MarketDataSink#NONE} by default.
     */
    public void marketData(MarketDataSink sink) {
        marketData = sink;
    }

    /** What the engine publishes for other threads: halted symbols, book query answers. Any thread. */
    public EngineView view() {
        return view;
    }

    /** Whether trading in the symbol is halted. The engine's thread, or while it is stopped (snapshots). */
    public boolean isHalted(int symbolId) {
        OrderBook book = bookOf(symbolId);
        return book != null && book.halted;
    }

    /**
     * The inbound position (session epoch and MsgSeqNum) of the last command of {@code owner} the engine acted on,
     * 0 if none: what the journal holds of that owner's requests.
     */
    public long lastInboundPosition(int owner) {
        return inboundPositions.of(owner);
    }

    /**
     * One of the session's risk or self-trade prevention settings, or {@link SessionControl#KILL_SWITCH} (1:
     * engaged); 0 for none or an invalid owner. The engine's thread, or while it is stopped (start-up, snapshots).
     */
    @Override
    public long sessionControl(int owner, SessionControl control) {
        if (!OwnerOrders.isValidOwner(owner)) {
            return 0;
        }
        long value = risk.control(owner, control);
        return value != 0 ? value : selfTrade.control(owner, control);
    }

    /** The price of the symbol's last trade (0: none yet): the price collar's reference. */
    public long lastTradePrice(int symbolId) {
        return bookOf(symbolId) == null ? 0 : risk.lastTradePrice(symbolId);
    }

    /** The symbol's configured reference price (0: none), set by SET_REFERENCE_PRICE. */
    @Override
    public long referencePrice(int symbolId) {
        return bookOf(symbolId) == null ? 0 : risk.referencePrice(symbolId);
    }

    /** The session's live (resting) orders; 0 for an invalid owner. */
    public int openOrders(int owner) {
        return OwnerOrders.isValidOwner(owner) ? risk.openOrders(owner) : 0;
    }

    /** The id of the last order accepted (ids start at 1 and never repeat). */
    public long lastOrderId() {
        return lastOrderId;
    }

    /** The id of the last execution reported (ids start at 1 and never repeat). */
    public long lastExecId() {
        return publisher.lastExecId();
    }

    /**
     * The journal timestamp (epoch ns, stamped by the matching loop) of the last journaled command, 0 if none or not
     * known (restored from a snapshot older than state format 3, with no command after it): when the venue last
     * traded, so a start can tell whether an end of day passed while the server was down.
     */
    public long lastCommandNanos() {
        return lastCommandNanos;
    }

    /** The journal timestamp (epoch ns) of the last EXPIRE_DAY_ORDERS, 0 if none or not known. */
    public long lastDayEndNanos() {
        return lastDayEndNanos;
    }

    public int symbolCount() {
        return books.length;
    }

    /** Live orders: resting in the books (outside {@link #process}, every live order rests). */
    public int liveOrderCount() {
        return orderPool.inUse();
    }

    /** Books with at least one resting order. */
    public int nonEmptyBookCount() {
        int count = 0;
        for (OrderBook book : books) {
            if (book.side(Side.BUY).best != null || book.side(Side.SELL).best != null) {
                count++;
            }
        }
        return count;
    }

    /** Visits the resting orders of one side of a book, best price first, in time priority within a price. */
    public void forEachRestingOrder(int symbolId, Side side, RestingOrderVisitor visitor) {
        for (PriceLevel level = books[symbolId].side(side).best; level != null; level = level.worse) {
            for (Order order = level.head; order != null; order = order.next) {
                visitor.visit(order);
            }
        }
    }

    private void newOrder(Command command) {
        if (answeredAsResent(command)) {
            return;
        }
        OrderBook book = bookOf(command.symbolId());
        RejectReason reason = checkNewOrder(command, book);
        if (reason.isPreTradeRisk()) {
            publisher.rejected(command, reason, risk);
            return;
        }
        if (reason != RejectReason.NONE) {
            publisher.rejected(command, reason);
            return;
        }
        Order order = orderPool.acquire();
        if (order == null) {
            publisher.rejected(command, RejectReason.BOOK_FULL);
            return;
        }
        boolean market = command.orderType() == OrderType.MARKET;
        order.orderId = ++lastOrderId;
        order.owner = command.owner();
        order.clientOrderId.copyFrom(command.clientOrderId());
        order.book = book;
        order.side = command.side();
        order.orderType = command.orderType();
        order.timeInForce = command.timeInForce();
        order.price = market ? 0 : command.price();
        order.quantity = command.quantity();
        order.leaves = command.quantity();
        order.cum = 0;
        order.cumNotional = 0;
        publisher.accepted(order);

        if (order.timeInForce == TimeInForce.FOK && !canFillCompletely(order)) {
            finishUnrested(order);
            return;
        }
        boolean selfTradeStop = matchAggressor(order);
        if (order.leaves == 0) {
            release(order);
        } else if (selfTradeStop) {
            publisher.canceled(order, RejectReason.SELF_TRADE_INCOMING);
            release(order);
        } else if (!market && order.timeInForce.rests()) {
            rest(order);
            track(order);
        } else {
            finishUnrested(order);
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
        Order live = orderIndex.find(command.owner(), command.clientOrderId());
        if (live == null) {
            return false;
        }
        publisher.status(live);
        return true;
    }

    private RejectReason checkNewOrder(Command command, OrderBook book) {
        if (!OwnerOrders.isValidOwner(command.owner())) {
            return RejectReason.INVALID_OWNER;
        }
        if (book == null) {
            return RejectReason.UNKNOWN_SYMBOL;
        }
        if (book.halted) {
            return RejectReason.SYMBOL_HALTED;
        }
        if (command.clientOrderId().isEmpty()) {
            return RejectReason.MISSING_CLIENT_ORDER_ID;
        }
        if (orderIndex.find(command.owner(), command.clientOrderId()) != null) {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        RejectReason reason = OrderRules.check(book.spec, command.orderType(), command.price(), command.quantity());
        if (reason != RejectReason.NONE) {
            return reason;
        }
        reason = risk.checkNewOrder(command.owner(), book.symbolId, book.spec, command.orderType(),
            command.timeInForce(), command.price(), command.quantity());
        if (reason != RejectReason.NONE) {
            return reason;
        }
        if (command.orderType() == OrderType.MARKET) {
            return book.side(command.side().opposite()).best == null ? RejectReason.NO_LIQUIDITY : RejectReason.NONE;
        }
        // A limit order that may rest at a price with no level yet needs a free level. Checked before anything
        // trades, so a reject never follows a partial execution.
        boolean mayNeedLevel = command.timeInForce().rests()
            && levelIndex.find(book.side(command.side()), command.price()) == null;
        return mayNeedLevel && levelPool.available() == 0 ? RejectReason.BOOK_FULL : RejectReason.NONE;
    }

    private void cancel(Command command) {
        Order order = orderIndex.find(command.owner(), command.origClientOrderId());
        RejectReason reason = checkRequestTarget(command, order);
        if (reason != RejectReason.NONE) {
            publisher.requestRejected(command, reason, order);
            return;
        }
        removeResting(order);
        publisher.canceled(order, command);
        release(order);
    }

    private void replace(Command command) {
        if (answeredAsResent(command)) {
            return;
        }
        Order order = orderIndex.find(command.owner(), command.origClientOrderId());
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

        orderIndex.remove(order);
        previousClientOrderId.copyFrom(order.clientOrderId);
        order.clientOrderId.copyFrom(command.clientOrderId());
        orderIndex.add(order);

        long newLeaves = newQuantity - order.cum;
        if (keepsPriority) {
            long reduction = order.leaves - newLeaves;
            order.level.totalQuantity -= reduction;
            order.quantity = newQuantity;
            order.leaves = newLeaves;
            publisher.replaced(order, previousClientOrderId);
            if (reduction != 0) {
                levelChanged(order.level);
            }
            return;
        }
        // A new price or a larger quantity goes to the back of its (new) level, and may trade at once.
        removeFromLevel(order);
        order.price = newPrice;
        order.quantity = newQuantity;
        order.leaves = newLeaves;
        publisher.replaced(order, previousClientOrderId);
        boolean selfTradeStop = matchAggressor(order);
        if (order.leaves == 0) {
            untrack(order);
            release(order);
        } else if (selfTradeStop) {
            untrack(order);
            publisher.canceled(order, RejectReason.SELF_TRADE_INCOMING);
            release(order);
        } else {
            rest(order);
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
        if (order.book.halted) {
            return RejectReason.SYMBOL_HALTED;
        }
        if (command.clientOrderId().isEmpty()) {
            return RejectReason.MISSING_CLIENT_ORDER_ID;
        }
        if (orderIndex.find(command.owner(), command.clientOrderId()) != null) {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        reason = OrderRules.check(order.book.spec, OrderType.LIMIT, command.price(), command.quantity());
        if (reason != RejectReason.NONE) {
            return reason;
        }
        if (command.quantity() <= order.cum) {
            return RejectReason.QUANTITY_NOT_ABOVE_FILLED;
        }
        if (!keepsPriority(order, command.price(), command.quantity())) {
            reason = risk.checkReplace(command.owner(), order.book.symbolId, order.book.spec, command.price(),
                command.quantity());
            if (reason != RejectReason.NONE) {
                return reason;
            }
        }
        // Moving to a price with no level needs a free level, unless leaving the old one frees one.
        boolean needsLevel = command.price() != order.price
            && levelIndex.find(order.book.side(order.side), command.price()) == null
            && order.level.orderCount > 1;
        return needsLevel && levelPool.available() == 0 ? RejectReason.BOOK_FULL : RejectReason.NONE;
    }

    private void orderStatus(Command command) {
        Order order = orderIndex.find(command.owner(), command.clientOrderId());
        RejectReason reason = checkRequestTarget(command, order);
        if (reason != RejectReason.NONE) {
            publisher.requestRejected(command, reason, order);
            return;
        }
        publisher.status(order);
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

    /**
     * Trades the order against the opposite side, best price first, oldest order first, at the resting price. A
     * resting order of the same party (session or firm) is handled by the aggressor's self-trade prevention mode:
     * returns true when that stops the aggressor (its rest is then to be canceled), false when it ran out of
     * quantity or of acceptable prices.
     */
    private boolean matchAggressor(Order aggressor) {
        BookSide opposite = aggressor.book.side(aggressor.side.opposite());
        SelfTradePrevention selfTradeMode = selfTrade.modeOf(aggressor.owner);
        while (aggressor.leaves > 0) {
            PriceLevel level = opposite.best;
            if (level == null || !aggressor.acceptsPrice(level.price)) {
                return false;
            }
            long price = level.price;
            Order resting = level.head;
            while (resting != null && aggressor.leaves > 0) {
                Order nextResting = resting.next;
                if (selfTradeMode != SelfTradePrevention.NONE && selfTrade.sameParty(aggressor.owner, resting.owner)) {
                    if (selfTradeMode != SelfTradePrevention.CANCEL_INCOMING) {
                        removeResting(resting);
                        publisher.canceled(resting, RejectReason.SELF_TRADE_RESTING);
                        release(resting);
                    }
                    if (selfTradeMode != SelfTradePrevention.CANCEL_RESTING) {
                        return true;
                    }
                    resting = nextResting;
                    continue;
                }
                long quantity = Math.min(aggressor.leaves, resting.leaves);
                aggressor.fill(quantity, price);
                resting.fill(quantity, price);
                level.totalQuantity -= quantity;
                risk.onTrade(aggressor.book.symbolId, price);
                publisher.fill(aggressor, quantity, price);
                publisher.fill(resting, quantity, price);
                marketData.traded(aggressor.book.symbolId, price, quantity);
                if (resting.leaves == 0) {
                    removeResting(resting);
                    release(resting);
                } else {
                    levelChanged(level);
                }
                resting = nextResting;
            }
        }
        return false;
    }

    /**
     * Whether the opposite side holds enough at acceptable prices to fill the whole order now. With self-trade
     * prevention, what it can trade: orders of its own party are passed over (cancel-resting: they would be
     * canceled) or end the count (cancel-incoming, cancel-both: matching would stop there).
     */
    private boolean canFillCompletely(Order order) {
        SelfTradePrevention selfTradeMode = selfTrade.modeOf(order.owner);
        if (selfTradeMode != SelfTradePrevention.NONE) {
            return canFillCompletelyWithoutSelfTrade(order, selfTradeMode);
        }
        long available = 0;
        for (PriceLevel level = order.book.side(order.side.opposite()).best;
             level != null && order.acceptsPrice(level.price); level = level.worse) {
            available += level.totalQuantity;
            if (available >= order.leaves) {
                return true;
            }
        }
        return false;
    }

    private boolean canFillCompletelyWithoutSelfTrade(Order order, SelfTradePrevention selfTradeMode) {
        long available = 0;
        for (PriceLevel level = order.book.side(order.side.opposite()).best;
             level != null && order.acceptsPrice(level.price); level = level.worse) {
            for (Order resting = level.head; resting != null; resting = resting.next) {
                if (selfTrade.sameParty(order.owner, resting.owner)) {
                    if (selfTradeMode == SelfTradePrevention.CANCEL_RESTING) {
                        continue;
                    }
                    return false;
                }
                available += resting.leaves;
                if (available >= order.leaves) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Puts the order at the back of the level at its price, creating the level if needed. */
    void rest(Order order) {
        BookSide side = order.book.side(order.side);
        PriceLevel level = levelIndex.find(side, order.price);
        if (level == null) {
            level = levelPool.acquire();
            if (level == null) {
                // The checks before trading guarantee a free level; reaching here is a bug, not a full book.
                throw new IllegalStateException("no free price level for " + order);
            }
            level.init(side, order.price);
            side.insert(level);
            levelIndex.add(level);
        }
        level.append(order);
        levelChanged(level);
    }

    /** Takes a resting order out of its level (dropping the level if it empties); it stays indexed. */
    private void removeFromLevel(Order order) {
        PriceLevel level = order.level;
        level.unlink(order);
        levelChanged(level);
        if (level.isEmpty()) {
            level.side.remove(level);
            levelIndex.remove(level);
            levelPool.release(level);
        }
    }

    /** Market data: the level's total quantity now (0 once its last order left). */
    private void levelChanged(PriceLevel level) {
        marketData.levelChanged(level.side.symbolId(), level.side.side, level.price,
            level.isEmpty() ? 0 : level.totalQuantity);
    }

    /** Takes a resting order out of the book entirely: its level, the index, its owner's list. */
    private void removeResting(Order order) {
        removeFromLevel(order);
        untrack(order);
    }

    /** A live order becomes findable: by (owner, client order id), and in its owner's list. */
    private void track(Order order) {
        orderIndex.add(order);
        ownerOrders.add(order);
        risk.orderRested(order.owner);
    }

    private void untrack(Order order) {
        orderIndex.remove(order);
        ownerOrders.remove(order);
        risk.orderGone(order.owner);
    }

    /** The operator's halt or resume; a symbol the engine does not have is ignored (the operator checks first). */
    void halt(int symbolId, boolean halted) {
        OrderBook book = bookOf(symbolId);
        if (book != null) {
            book.halted = halted;
            view.halted(symbolId, halted);
        }
    }

    private void cancelAllForOwner(int owner) {
        cancelAllForOwner(owner, RejectReason.NONE);
    }

    /** Every live order of the owner, highest order id first, each with an unsolicited CANCELED. */
    private void cancelAllForOwner(int owner, RejectReason reason) {
        for (Order order = ownerOrders.first(owner); order != null; order = ownerOrders.first(owner)) {
            removeResting(order);
            publisher.canceled(order, reason);
            release(order);
        }
    }

    /** Engaging cancels the session's live orders; from then its new orders and replaces are refused. */
    void killSwitch(int owner, boolean engaged) {
        if (!OwnerOrders.isValidOwner(owner)) {
            return;
        }
        risk.killSwitch(owner, engaged);
        view.killSwitch(owner, engaged);
        if (engaged) {
            cancelAllForOwner(owner, RejectReason.KILL_SWITCH_ENGAGED);
        }
    }

    /** The end of the day: every resting DAY order expires, book by book, bids then asks, in priority order. */
    private void expireDayOrders() {
        for (OrderBook book : books) {
            expireDayOrders(book.bids);
            expireDayOrders(book.asks);
        }
        view.dayEnded();
    }

    private void expireDayOrders(BookSide side) {
        PriceLevel level = side.best;
        while (level != null) {
            PriceLevel worse = level.worse; // the level goes back to the pool if its last order expires
            Order order = level.head;
            while (order != null) {
                Order next = order.next;
                if (order.timeInForce == TimeInForce.DAY) {
                    removeResting(order);
                    publisher.expired(order);
                    release(order);
                }
                order = next;
            }
            level = worse;
        }
    }

    void setSessionControl(int owner, SessionControl control, long value) {
        if (!OwnerOrders.isValidOwner(owner) || control == null || control == SessionControl.KILL_SWITCH) {
            return;
        }
        if (!risk.setControl(owner, control, value)) {
            selfTrade.setControl(owner, control, value);
        }
    }

    /** An order that ends without resting (IOC/FOK/market remainder): report it canceled and recycle it. */
    private void finishUnrested(Order order) {
        publisher.canceled(order, RejectReason.NONE);
        release(order);
    }

    private void release(Order order) {
        order.clear();
        orderPool.release(order);
    }

    OrderBook bookOf(int symbolId) {
        return symbolId >= 0 && symbolId < books.length ? books[symbolId] : null;
    }
}
