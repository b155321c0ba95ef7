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
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TradingPhase;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;

import java.util.List;

/**
 * The order books of all symbols and the rules that change them: price-time priority, trades at the resting
 * order's price, limit/market/IOC/FOK/GTD, stop and stop-limit orders ({@link WaitingStops}), icebergs, post-only,
 * MinQty, cancel and cancel/replace; each session's pre-trade risk checks and kill switch ({@link PreTradeRisk}),
 * self-trade prevention ({@link SelfTradeRule}), the end of the day's expiries and GTD expiries ({@link ExpiryQueue}).
 *
 * <p>It has no clock: whatever is due at a time (a GTD order's expiry) happens when a journaled command stamped at or
 * after that time arrives, before the command itself; the server sends a TIMER command when the engine's
 * {@link #nextDeadlineNanos() next deadline} passes and nothing else came.
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
    final ExpiryQueue expiries;
    /** Stops triggered and not yet entered, in the order they were triggered (linked through {@code next}). */
    private Order triggeredHead;
    private Order triggeredTail;
    /** The deadline last published in the view (so the view is written only when it changes). */
    private long publishedDeadline = ExpiryQueue.NONE;
    /** The earliest of the books' own deadlines (a scheduled point, an interruption's end); NONE if none. */
    long nextSessionDeadline = TradingSession.NONE;
    /** Books in a call phase now: after each command their indicative uncross is looked at again. */
    int callBooks;
    private final AuctionPrice auction = new AuctionPrice();
    /** The journal time of the command being processed. */
    private long nowNanos;
    /** The volatility band of the aggressor being matched (see {@link #setBand}). */
    private boolean banded;
    private long bandLow;
    private long bandHigh;
    /** Set by {@link #canFill} when it stopped at the band: what it lacks lies outside. */
    private boolean bandReached;
    private final EngineView view;
    private final ClientOrderId previousClientOrderId = new ClientOrderId();
    /** Where the books' public changes go (levels, trades); set before the first command. */
    MarketDataSink marketData = MarketDataSink.NONE;
    /**
     * The number of the last market data message (the binary feed's sequence number, docs/FEED.md): advanced by
     * whoever publishes the market data ({@link #advanceMarketDataSequence}), kept with the rest of the state so that a
     * restart, or another replica, goes on with the same numbers.
     */
    long marketDataSequence;
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
        expiries = new ExpiryQueue(config.maxOrders());
    }

    public void process(Command command) {
        publisher.startCommand(command);
        nowNanos = command.timestampNanos();
        if (command.type().changesState()) { // the journaled ones (status requests are not)
            journaled(command);
        }
        // The order flow's commands first; the rest in a method of its own, so this one stays small enough for the
        // JIT to inline into the matching loop.
        switch (command.type()) {
            case NEW_ORDER -> newOrder(command);
            case CANCEL -> cancel(command);
            case REPLACE -> replace(command);
            case ORDER_STATUS -> orderStatus(command);
            default -> processOther(command);
        }
        if (callBooks != 0) {
            refreshIndicatives();
        }
        publishDeadline();
        marketData.commandDone();
    }

    /**
     * What every journaled command does first: its owner's inbound position and the journal times are recorded (a
     * replay sees the same stamps), and whatever was due at or before its timestamp is done.
     */
    private void journaled(Command command) {
        inboundPositions.record(command.owner(), command.inboundPosition());
        lastCommandNanos = command.timestampNanos();
        if (command.type() == CommandType.EXPIRE_DAY_ORDERS) {
            lastDayEndNanos = command.timestampNanos();
        }
        if (command.timestampNanos() >= nextDeadlineNanos()) {
            runDue(command.timestampNanos());
        }
    }

    private void processOther(Command command) {
        switch (command.type()) {
            case CANCEL_ALL_FOR_OWNER -> cancelAllForOwner(command.owner());
            case HALT_SYMBOL -> halt(command.symbolId(), true);
            case RESUME_SYMBOL -> resume(command.symbolId());
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
            case TIMER -> { } // its due work was done before
            case MASS_CANCEL -> massCancel(command);
            case MASS_STATUS -> massStatus(command);
            case SET_SYMBOL_CONTROL -> setSymbolControl(command);
            case NEW_ORDER, CANCEL, REPLACE, ORDER_STATUS -> throw new IllegalStateException(command.type().name());
        }
    }

    /** Tells the view when the engine next has work of its own (written only when it changed). */
    void publishDeadline() {
        long deadline = nextDeadlineNanos();
        if (deadline != publishedDeadline) {
            publishedDeadline = deadline;
            view.nextDeadline(deadline);
        }
    }

    /**
     * The journal time (epoch ns) at which the engine next has something to do on its own (the earliest GTD expiry),
     * {@link Long#MAX_VALUE} if none: a journaled command stamped at or after it does that first. The engine's thread,
     * or while it is stopped; other threads read {@link EngineView#nextDeadlineNanos()}.
     */
    public long nextDeadlineNanos() {
        return Math.min(expiries.nextDeadline(), nextSessionDeadline);
    }

    /** The symbol's trading phase now (CONTINUOUS for an unknown symbol). */
    public TradingPhase phase(int symbolId) {
        OrderBook book = bookOf(symbolId);
        return book == null ? TradingPhase.CONTINUOUS : book.session.phase;
    }

    /** One of the symbol's schedule or volatility settings (its {@link SymbolControl#none()} if not set). */
    public long symbolControl(int symbolId, SymbolControl control) {
        OrderBook book = bookOf(symbolId);
        return book == null ? control.none() : book.session.get(control);
    }

    /** The id of the symbol's schedule's time zone. */
    public String symbolTimeZone(int symbolId) {
        OrderBook book = bookOf(symbolId);
        return book == null ? "UTC" : book.session.zoneId;
    }

    /** During a call, the price and volume the symbol's auction would uncross at now ({0, 0}: none). */
    public long[] indicative(int symbolId) {
        OrderBook book = bookOf(symbolId);
        return book == null ? new long[2] : new long[] {book.session.indicativePrice, book.session.indicativeVolume};
    }

    /**
     * Visits the orders of one side of a book that wait out of its levels in arrival order: during a call, its
     * market orders; then its At the Close orders waiting for the closing call.
     */
    public void forEachQueuedOrder(int symbolId, Side side, RestingOrderVisitor visitor) {
        OrderBook book = books[symbolId];
        for (Order order = book.marketOrders(side).head; order != null; order = order.next) {
            visitor.visit(order);
        }
        for (Order order = book.atClose.head; order != null; order = order.next) {
            if (order.side == side) {
                visitor.visit(order);
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

    /** The number of the last market data message published (0: none yet); see {@link #advanceMarketDataSequence}. */
    public long marketDataSequence() {
        return marketDataSequence;
    }

    /**
     * Numbers {@code messages} market data messages: returns the first number (one past the last given). Called by the
     * market data publisher of the matching step only, in the command stream, so every replay numbers alike.
     */
    public long advanceMarketDataSequence(int messages) {
        long first = marketDataSequence + 1;
        marketDataSequence += messages;
        return first;
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

    /**
     * Visits the stop and stop-limit orders of one side of a book waiting for their stop price, in the order they
     * trigger (buy stops lowest stop price first, sell stops highest first; arrival order within a stop price).
     */
    public void forEachWaitingStop(int symbolId, Side side, RestingOrderVisitor visitor) {
        for (Order order = books[symbolId].stops.first(side); order != null; order = order.next) {
            visitor.visit(order);
        }
    }

    private void newOrder(Command command) {
        if (answeredAsResent(command)) {
            return;
        }
        OrderBook book = bookOf(command.symbolId());
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
        Order order = orderPool.acquire();
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
            track(order);
        } else if (phase != TradingPhase.CONTINUOUS) {
            if (order.timeInForce == TimeInForce.AT_THE_CLOSE && phase != TradingPhase.CLOSING_CALL) {
                book.atClose.add(order); // waits for the closing call
                track(order);
            } else {
                joinCall(order, false);
            }
        } else if (order.timeInForce == TimeInForce.AT_THE_CLOSE) {
            book.atClose.add(order);
            track(order);
        } else {
            enter(order, false);
        }
        if (book.stops.count != 0) {
            triggerStops(book);
        }
    }

    /**
     * An accepted order (new, or a stop just triggered: then {@code tracked}, it is live already) trades and then
     * rests or ends: FOK and MinQty first check that enough can trade at once (else canceled, nothing traded); the
     * rest of a limit order that can rest rests, any other rest is canceled.
     */
    private void enter(Order order, boolean tracked) {
        if (order.book.session.phase != TradingPhase.CONTINUOUS) {
            enterDuringCall(order, tracked); // a stop triggered after an interruption began in the same command
            return;
        }
        setBand(order.book);
        if (order.timeInForce == TimeInForce.FOK && !canFill(order, order.leaves)) {
            endUnfilled(order, tracked, RejectReason.NONE);
            return;
        }
        if (order.minQuantity != 0 && !canFill(order, order.minQuantity)) {
            endUnfilled(order, tracked, RejectReason.MIN_QUANTITY_NOT_AVAILABLE);
            return;
        }
        boolean selfTradeStop = matchAggressor(order);
        if (order.leaves == 0) {
            if (tracked) {
                untrack(order);
            }
            release(order);
        } else if (selfTradeStop) {
            end(order, tracked, RejectReason.SELF_TRADE_INCOMING);
        } else if (order.book.session.phase != TradingPhase.CONTINUOUS) {
            enterDuringCall(order, tracked); // it reached the band: the interruption's call takes its rest
        } else if (order.orderType.hasLimitPrice() && order.timeInForce.rests()) {
            if (tracked && levelIndex.find(order.book.side(order.side), order.price) == null
                && levelPool.available() == 0) {
                end(order, true, RejectReason.BOOK_FULL); // a triggered stop-limit order finds no free level
                return;
            }
            rest(order);
            if (!tracked) {
                track(order);
            }
        } else {
            end(order, tracked, RejectReason.NONE);
        }
    }

    /**
     * A FOK or MinQty order that could not trade enough at once: CANCELED, nothing traded; if what it lacked lies
     * beyond the volatility band, the interruption starts and the reason says so.
     */
    private void endUnfilled(Order order, boolean tracked, RejectReason reason) {
        if (bandReached) {
            startInterruption(order.book);
            end(order, tracked, RejectReason.VOLATILITY_INTERRUPTION);
        } else {
            end(order, tracked, reason);
        }
    }

    /** An order entering while its book is in a call: IOC and FOK end (the interruption's), the rest joins the call. */
    private void enterDuringCall(Order order, boolean tracked) {
        if (order.timeInForce == TimeInForce.IOC || order.timeInForce == TimeInForce.FOK) {
            end(order, tracked, RejectReason.VOLATILITY_INTERRUPTION);
        } else {
            joinCall(order, tracked);
        }
    }

    /**
     * An order joins a call without matching: a limit order rests at the back of its level (the book may cross), a
     * market order at the back of its side's market orders.
     */
    private void joinCall(Order order, boolean tracked) {
        if (order.orderType.hasLimitPrice()) {
            if (levelIndex.find(order.book.side(order.side), order.price) == null && levelPool.available() == 0) {
                end(order, tracked, RejectReason.BOOK_FULL);
                return;
            }
            rest(order);
        } else {
            order.book.marketOrders(order.side).add(order);
        }
        if (!tracked) {
            track(order);
        }
    }

    /** An order that ends without resting (IOC/FOK/market remainder, a self-trade stop): CANCELED, recycled. */
    private void end(Order order, boolean tracked, RejectReason reason) {
        if (tracked) {
            untrack(order);
        }
        publisher.canceled(order, reason);
        release(order);
    }

    /**
     * Stops the last trade price reaches are triggered and entered, in the order they were triggered: each one's
     * trades may move the price and trigger more, which queue behind. Looks at the book's waiting stops only: O(1)
     * when none is triggered.
     */
    private void triggerStops(OrderBook book) {
        collectTriggered(book);
        while (triggeredHead != null) {
            Order order = triggeredHead;
            triggeredHead = order.next;
            if (triggeredHead == null) {
                triggeredTail = null;
            }
            order.next = null;
            order.triggered = true;
            publisher.triggered(order);
            enter(order, true);
            if (book.stops.count != 0) {
                collectTriggered(book);
            }
        }
    }

    /** Moves every waiting stop the book's last trade price triggers to the back of the triggered queue. */
    private void collectTriggered(OrderBook book) {
        long lastPrice = risk.lastTradePrice(book.symbolId);
        if (lastPrice == 0 || book.session.phase != TradingPhase.CONTINUOUS) {
            return; // no trade yet, or not trading continuously: nothing triggers
        }
        for (Order order = book.stops.firstTriggeredBy(lastPrice); order != null;
             order = book.stops.firstTriggeredBy(lastPrice)) {
            book.stops.remove(order);
            if (triggeredTail == null) {
                triggeredHead = order;
            } else {
                triggeredTail.next = order;
            }
            triggeredTail = order;
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
        if (orderIndex.find(command.owner(), command.clientOrderId(), idHash) != null) {
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
        boolean mayNeedLevel = command.orderType() == OrderType.LIMIT && command.timeInForce().rests()
            && levelIndex.find(book.side(command.side()), command.price()) == null;
        return mayNeedLevel && levelPool.available() == 0 ? RejectReason.BOOK_FULL : RejectReason.NONE;
    }

    /** Whether a limit price on {@code side} reaches the opposite side's best price (it would trade at once). */
    private static boolean crossesOpposite(OrderBook book, Side side, long price) {
        PriceLevel best = book.side(side.opposite()).best;
        return best != null && (side == Side.BUY ? best.price <= price : best.price >= price);
    }

    private void cancel(Command command) {
        Order order = orderIndex.find(command.owner(), command.origClientOrderId());
        RejectReason reason = checkRequestTarget(command, order);
        if (reason != RejectReason.NONE) {
            publisher.requestRejected(command, reason, order);
            return;
        }
        removeLive(order);
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
        OrderBook book = order.book;

        orderIndex.remove(order);
        previousClientOrderId.copyFrom(order.clientOrderId);
        order.clientOrderId.copyFrom(command.clientOrderId());
        orderIndex.add(order);

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
        boolean selfTradeStop = false;
        if (book.session.phase == TradingPhase.CONTINUOUS) { // in a call it only moves
            setBand(book);
            selfTradeStop = matchAggressor(order);
        }
        if (order.leaves == 0) {
            untrack(order);
            release(order);
        } else if (selfTradeStop) {
            end(order, true, RejectReason.SELF_TRADE_INCOMING);
        } else {
            rest(order);
        }
        if (book.stops.count != 0) {
            triggerStops(book);
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
            if (banded && (price < bandLow || price > bandHigh)) {
                startInterruption(aggressor.book); // it would trade outside the band: an auction instead
                return false;
            }
            Order resting = level.head;
            while (resting != null && aggressor.leaves > 0) {
                Order nextResting = resting.next;
                if (selfTradeMode != SelfTradePrevention.NONE && selfTrade.sameParty(aggressor.owner, resting.owner)) {
                    if (selfTradeStops(resting, selfTradeMode)) {
                        return true;
                    }
                    resting = nextResting;
                    continue;
                }
                resting = trade(aggressor, resting, nextResting, price);
            }
        }
        return false;
    }

    /**
     * The aggressor meets a resting order of its own party: cancel-resting cancels that one and matching goes on,
     * cancel-incoming stops matching, cancel-both does both. Returns whether matching stops.
     */
    private boolean selfTradeStops(Order resting, SelfTradePrevention selfTradeMode) {
        if (selfTradeMode != SelfTradePrevention.CANCEL_INCOMING) {
            removeLive(resting);
            publisher.canceled(resting, RejectReason.SELF_TRADE_RESTING);
            release(resting);
        }
        return selfTradeMode != SelfTradePrevention.CANCEL_RESTING;
    }

    /**
     * One trade of the aggressor with a resting order at its level's price: the resting order trades its displayed
     * part (all of it, but for an iceberg), then leaves the book, shows its next part at the back of the level
     * (iceberg) or stays with less. Returns the resting order to look at next.
     */
    private Order trade(Order aggressor, Order resting, Order nextResting, long price) {
        PriceLevel level = resting.level;
        long quantity = Math.min(aggressor.leaves, resting.shown);
        aggressor.fill(quantity, price);
        resting.fill(quantity, price);
        resting.shown -= quantity;
        level.totalQuantity -= quantity;
        level.displayedQuantity -= quantity;
        risk.onTrade(aggressor.book.symbolId, price);
        publisher.fill(aggressor, quantity, price);
        publisher.fill(resting, quantity, price);
        marketData.traded(aggressor.book.symbolId, price, quantity);
        if (resting.leaves == 0) {
            removeLive(resting);
            release(resting);
        } else if (resting.shown == 0) {
            refill(resting);
            if (nextResting == null) {
                return resting; // it was the last in the queue and still is
            }
        } else {
            levelChanged(level);
        }
        return nextResting;
    }

    /**
     * An iceberg whose displayed part traded away shows its next part (its floor, or what is left) and goes to the back
     * of its level: the hidden part trades only after the interest displayed at its price.
     */
    private void refill(Order order) {
        PriceLevel level = order.level;
        level.unlink(order);
        order.shown = order.displayOnRest();
        level.append(order);
        levelChanged(level);
    }

    /**
     * Whether the opposite side holds at least {@code needed} at acceptable prices now (hidden iceberg parts included:
     * they trade in the same sweep). With self-trade prevention, what it can trade: orders of its own party are passed
     * over (cancel-resting: they would be canceled) or end the count (cancel-incoming, cancel-both: matching would
     * stop there).
     */
    private boolean canFill(Order order, long needed) {
        bandReached = false;
        SelfTradePrevention selfTradeMode = selfTrade.modeOf(order.owner);
        if (selfTradeMode != SelfTradePrevention.NONE) {
            return canFillWithoutSelfTrade(order, selfTradeMode, needed);
        }
        long available = 0;
        for (PriceLevel level = order.book.side(order.side.opposite()).best;
             level != null && order.acceptsPrice(level.price); level = level.worse) {
            if (outsideBand(level.price)) {
                return false;
            }
            available += level.totalQuantity;
            if (available >= needed) {
                return true;
            }
        }
        return false;
    }

    private boolean canFillWithoutSelfTrade(Order order, SelfTradePrevention selfTradeMode, long needed) {
        long available = 0;
        for (PriceLevel level = order.book.side(order.side.opposite()).best;
             level != null && order.acceptsPrice(level.price); level = level.worse) {
            if (outsideBand(level.price)) {
                return false;
            }
            for (Order resting = level.head; resting != null; resting = resting.next) {
                if (selfTrade.sameParty(order.owner, resting.owner)) {
                    if (selfTradeMode == SelfTradePrevention.CANCEL_RESTING) {
                        continue;
                    }
                    return false;
                }
                available += resting.leaves;
                if (available >= needed) {
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
        order.shown = order.displayOnRest();
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

    /** Market data: the level's displayed quantity now (0 once its last order left; icebergs show their floor). */
    private void levelChanged(PriceLevel level) {
        marketData.levelChanged(level.side.symbolId(), level.side.side, level.price,
            level.isEmpty() ? 0 : level.displayedQuantity);
    }

    /**
     * Takes a live order out entirely: its level (or its book's waiting stops), the index, its owner's list, the
     * expiry queue.
     */
    private void removeLive(Order order) {
        if (order.level != null) {
            removeFromLevel(order);
        } else if (order.queue != null) {
            order.queue.remove(order);
        } else {
            order.book.stops.remove(order);
        }
        untrack(order);
    }

    /** A live order becomes findable: by (owner, client order id), in its owner's list, and (GTD) by expiry. */
    private void track(Order order) {
        orderIndex.addHashed(order); // (every order tracked here is a new order of this command: newOrder hashed it)
        ownerOrders.add(order);
        risk.orderRested(order.owner);
        if (order.timeInForce == TimeInForce.GTD) {
            expiries.add(order);
        }
    }

    private void untrack(Order order) {
        orderIndex.remove(order);
        ownerOrders.remove(order);
        gone(order); // (apart: small methods inline into the matching loop)
    }

    private void gone(Order order) {
        risk.orderGone(order.owner);
        if (order.expiryIndex >= 0) {
            expiries.remove(order);
        }
    }

    /** The operator's halt or resume; a symbol the engine does not have is ignored (the operator checks first). */
    void halt(int symbolId, boolean halted) {
        OrderBook book = bookOf(symbolId);
        if (book != null) {
            book.halted = halted;
            view.halted(symbolId, halted);
            marketData.halted(symbolId, halted);
        }
    }

    private void cancelAllForOwner(int owner) {
        cancelAllForOwner(owner, RejectReason.NONE);
    }

    /** Every live order of the owner, highest order id first, each with an unsolicited CANCELED. */
    private void cancelAllForOwner(int owner, RejectReason reason) {
        for (Order order = ownerOrders.first(owner); order != null; order = ownerOrders.first(owner)) {
            removeLive(order);
            publisher.canceled(order, reason);
            release(order);
        }
    }

    /**
     * An order mass cancel: first its report with the number of orders it cancels, then each of them CANCELED (own
     * client order id, reason MASS_CANCELED), highest order id first, as cancel-all. An owner outside the range or a
     * symbol the engine does not have: the report refused (status REJECTED, the reason), nothing canceled.
     */
    private void massCancel(Command command) {
        int owner = command.owner();
        RejectReason reason = !OwnerOrders.isValidOwner(owner) ? RejectReason.INVALID_OWNER
            : command.symbolId() != Command.ALL_SYMBOLS && bookOf(command.symbolId()) == null
            ? RejectReason.UNKNOWN_SYMBOL : RejectReason.NONE;
        if (reason != RejectReason.NONE) {
            publisher.refused(command, reason);
            return;
        }
        int count = 0;
        for (Order order = ownerOrders.first(owner); order != null; order = order.ownerNext) {
            if (matchesMassRequest(order, command.symbolId(), command.massCancelSide())) {
                count++;
            }
        }
        publisher.massCancelReport(command, count);
        Order order = ownerOrders.first(owner);
        while (order != null) {
            Order next = order.ownerNext;
            if (matchesMassRequest(order, command.symbolId(), command.massCancelSide())) {
                removeLive(order);
                publisher.canceled(order, RejectReason.MASS_CANCELED);
                release(order);
            }
            order = next;
        }
    }

    /**
     * A mass status request: one MASS_STATUS per live order of the owner (of the symbol, if it names one), most
     * recently accepted first, each with the number of reports; none live: one saying so. Changes nothing.
     */
    private void massStatus(Command command) {
        int owner = command.owner();
        int symbolId = command.symbolId();
        if (!OwnerOrders.isValidOwner(owner)) {
            publisher.refused(command, RejectReason.INVALID_OWNER);
            return;
        }
        int count = 0;
        for (Order order = ownerOrders.first(owner); order != null; order = order.ownerNext) {
            if (matchesMassRequest(order, symbolId, null)) {
                count++;
            }
        }
        if (count == 0) {
            publisher.noLiveOrders(command);
            return;
        }
        for (Order order = ownerOrders.first(owner); order != null; order = order.ownerNext) {
            if (matchesMassRequest(order, symbolId, null)) {
                publisher.massStatus(order, command.clientOrderId(), count);
            }
        }
    }

    private static boolean matchesMassRequest(Order order, int symbolId, Side side) {
        return (symbolId == Command.ALL_SYMBOLS || order.book.symbolId == symbolId)
            && (side == null || order.side == side);
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

    /**
     * The end of the day: every live DAY order expires, book by book: bids then asks in priority order, then the
     * waiting buy stops and sell stops in trigger order.
     */
    private void expireDayOrders() {
        for (OrderBook book : books) {
            expireDayOrders(book.bids);
            expireDayOrders(book.asks);
            expireDayOrders(book.stops.first(Side.BUY));
            expireDayOrders(book.stops.first(Side.SELL));
            expireDayOrders(book.marketBuys.head);
            expireDayOrders(book.marketSells.head);
        }
        view.dayEnded();
    }

    /**
     * Everything due at or before {@code nowNanos}, in the order of the times it was due: GTD expiries (earliest first,
     * then order id) and the books' transitions (scheduled points, interruptions' ends; a GTD expiry first at the same
     * time, books in symbol id order).
     */
    private void runDue(long nowNanos) {
        while (true) {
            long expiry = expiries.nextDeadline();
            long transition = nextSessionDeadline;
            if (Math.min(expiry, transition) > nowNanos) {
                return;
            }
            if (expiry <= transition) {
                Order order = expiries.first();
                removeLive(order);
                publisher.expired(order, RejectReason.GTD_EXPIRED);
                release(order);
            } else {
                for (OrderBook book : books) {
                    if (book.session.deadline() == transition) {
                        transition(book);
                        break;
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------ phases, auctions

    /** The book's next transition: an interruption's end (first at the same time), or a scheduled point. */
    private void transition(OrderBook book) {
        TradingSession session = book.session;
        if (session.interruptionEnd <= session.nextPoint) {
            session.interruptionEnd = TradingSession.NONE;
            endCall(book, TradingPhase.CONTINUOUS);
        } else {
            int kind = session.nextPointKind;
            session.scheduleAfter(session.nextPoint);
            switch (kind) {
                case TradingSession.OPENING_CALL -> enterPhase(book, TradingPhase.OPENING_CALL);
                case TradingSession.OPENING_UNCROSS -> endCall(book, TradingPhase.CONTINUOUS);
                case TradingSession.CLOSING_CALL -> enterPhase(book, TradingPhase.CLOSING_CALL);
                default -> endCall(book, TradingPhase.CLOSED);
            }
        }
        refreshSessionDeadline();
    }

    /**
     * A call begins (or the book closes, without an uncross): a running interruption gives way to it; the closing
     * call takes in the At the Close orders waiting for it.
     */
    private void enterPhase(OrderBook book, TradingPhase phase) {
        book.session.interruptionEnd = TradingSession.NONE;
        setPhase(book, phase);
        if (phase == TradingPhase.CLOSING_CALL) {
            for (Order order = book.atClose.head; order != null; order = book.atClose.head) {
                book.atClose.remove(order);
                joinCall(order, true);
            }
        }
    }

    /**
     * A call ends: the uncross (not while the symbol is halted: its reopening auction comes with the resume), then the
     * next phase, and what was for this auction only goes: market orders left, At the Opening orders after the
     * opening, At the Close orders after the closing (CANCELED, AUCTION_ENDED); at the close the DAY orders expire as
     * at the end of the day. Continuing continuously, waiting stops the uncross price reaches trigger.
     */
    private void endCall(OrderBook book, TradingPhase next) {
        TradingSession session = book.session;
        TradingPhase was = session.phase;
        if (was.isCall() && !book.halted) {
            uncross(book);
        }
        session.interruptionEnd = TradingSession.NONE;
        setPhase(book, next);
        cancelAuctionOnly(book.marketBuys.head, null);
        cancelAuctionOnly(book.marketSells.head, null);
        if (next == TradingPhase.CLOSED) {
            cancelAuctionOnly(book.atClose.head, null);
            cancelAuctionOnly(book.bids, TimeInForce.AT_THE_CLOSE);
            cancelAuctionOnly(book.asks, TimeInForce.AT_THE_CLOSE);
            expireDayOrders(book.bids);
            expireDayOrders(book.asks);
            expireDayOrders(book.stops.first(Side.BUY));
            expireDayOrders(book.stops.first(Side.SELL));
        } else if (was == TradingPhase.OPENING_CALL) {
            cancelAuctionOnly(book.bids, TimeInForce.AT_THE_OPENING);
            cancelAuctionOnly(book.asks, TimeInForce.AT_THE_OPENING);
        }
        if (next == TradingPhase.CONTINUOUS && book.stops.count != 0) {
            triggerStops(book);
        }
    }

    /** Cancels every order of a queue (a {@code tif} of null: all of them, else those with that time in force). */
    private void cancelAuctionOnly(Order first, TimeInForce tif) {
        Order order = first;
        while (order != null) {
            Order next = order.next;
            if (tif == null || order.timeInForce == tif) {
                removeLive(order);
                publisher.canceled(order, RejectReason.AUCTION_ENDED);
                release(order);
            }
            order = next;
        }
    }

    /** The side's resting orders with this time in force, in priority order, are canceled (AUCTION_ENDED). */
    private void cancelAuctionOnly(BookSide side, TimeInForce tif) {
        PriceLevel level = side.best;
        while (level != null) {
            PriceLevel worse = level.worse; // the level goes back to the pool if its last order goes
            cancelAuctionOnly(level.head, tif);
            level = worse;
        }
    }

    private void setPhase(OrderBook book, TradingPhase phase) {
        TradingSession session = book.session;
        if (session.phase.isCall()) {
            callBooks--;
        }
        if (phase.isCall()) {
            callBooks++;
        }
        if (session.phase.isCall() && session.indicativeVolume != 0 && !phase.isCall()) {
            session.indicativePrice = 0;
            session.indicativeVolume = 0;
            marketData.indicative(book.symbolId, session.phase, 0, 0);
            view.indicative(book.symbolId, 0, 0);
        }
        session.phase = phase;
        view.phase(book.symbolId, phase);
        marketData.phase(book.symbolId, phase);
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
                marketData.indicative(book.symbolId, session.phase, auction.price, auction.volume);
                view.indicative(book.symbolId, auction.price, auction.volume);
            }
        }
    }

    private AuctionPrice computeAuction(OrderBook book) {
        return auction.compute(book, book.marketBuys.leaves(), book.marketSells.leaves(), referenceOf(book.symbolId));
    }

    /** The auction's reference price: the last trade price, else the configured reference price (0: none). */
    private long referenceOf(int symbolId) {
        long last = risk.lastTradePrice(symbolId);
        return last != 0 ? last : risk.referencePrice(symbolId);
    }

    /**
     * The uncross: at the auction's price, buyers (market orders first, then limit orders from the best price, each
     * in time order) trade with sellers the same way, up to the auction's volume: each trade a FILL of the buyer then
     * one of the seller at that one price. An iceberg trades its hidden part too, and shows its floor again in place.
     */
    private void uncross(OrderBook book) {
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
            marketData.traded(book.symbolId, price, quantity);
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
            removeLive(order);
            release(order);
        } else if (order.level != null) {
            levelChanged(order.level);
        }
    }

    /** The aggressor's volatility band: around the last trade price (else the reference price), if the symbol has one. */
    private void setBand(OrderBook book) {
        long basisPoints = book.session.bandBasisPoints;
        long reference = basisPoints == 0 ? 0 : referenceOf(book.symbolId);
        banded = reference != 0;
        if (banded) {
            long offset = reference * basisPoints / 10_000;
            bandLow = reference - offset;
            bandHigh = reference + offset;
        }
    }

    /** Whether a trade at {@code price} would leave the band (then {@link #bandReached}). */
    private boolean outsideBand(long price) {
        if (banded && (price < bandLow || price > bandHigh)) {
            bandReached = true;
            return true;
        }
        return false;
    }

    /** A volatility interruption (or a halt's reopening auction) begins: a call until its end. */
    private void startInterruption(OrderBook book) {
        TradingSession session = book.session;
        session.interruptionEnd = nowNanos + session.interruptionMillis * 1_000_000L;
        setPhase(book, TradingPhase.VOLATILITY_CALL);
        refreshSessionDeadline();
    }

    void refreshSessionDeadline() {
        long deadline = TradingSession.NONE;
        for (OrderBook book : books) {
            deadline = Math.min(deadline, book.session.deadline());
        }
        nextSessionDeadline = deadline;
    }

    /**
     * The operator's resume: the halt ends with a reopening auction when the symbol was trading continuously (or in
     * an interruption): a volatility call for the interruption length, or, with none, the uncross at once. In a
     * scheduled call or after the close the phase goes on.
     */
    private void resume(int symbolId) {
        OrderBook book = bookOf(symbolId);
        if (book == null || !book.halted) {
            return;
        }
        halt(symbolId, false);
        TradingSession session = book.session;
        if (session.phase == TradingPhase.CONTINUOUS || session.phase == TradingPhase.VOLATILITY_CALL) {
            if (session.interruptionMillis > 0) {
                startInterruption(book);
            } else {
                setPhase(book, TradingPhase.VOLATILITY_CALL);
                endCall(book, TradingPhase.CONTINUOUS);
                refreshSessionDeadline();
            }
        }
    }

    /**
     * The server's schedule and volatility settings of a symbol. A change of the schedule puts the symbol in the
     * phase the schedule gives for the command's time (leaving a call for continuous trading or the close ends the
     * call as at its uncross; without a schedule, continuous trading).
     */
    private void setSymbolControl(Command command) {
        OrderBook book = bookOf(command.symbolId());
        SymbolControl control = SymbolControl.ofCode((int) command.price());
        if (book == null || control == null || command.price() != control.code()) {
            return;
        }
        TradingSession session = book.session;
        boolean changed = control == SymbolControl.TIME_ZONE ? session.zone(command.clientOrderId().toString())
            : session.set(control, command.quantity());
        if (!changed || control == SymbolControl.VOLATILITY_BAND_BASIS_POINTS
            || control == SymbolControl.INTERRUPTION_MILLIS) {
            return;
        }
        TradingPhase target = TradingPhase.CONTINUOUS;
        if (session.scheduled()) {
            session.scheduleAfter(nowNanos);
            target = session.scheduledPhaseAt(nowNanos);
        } else {
            session.nextPoint = TradingSession.NONE;
        }
        TradingPhase phase = session.phase;
        if (phase != target && !(phase == TradingPhase.VOLATILITY_CALL && target == TradingPhase.CONTINUOUS)) {
            if (phase.isCall() && !target.isCall()) {
                endCall(book, target);
            } else {
                enterPhase(book, target);
            }
        }
        refreshSessionDeadline();
    }

    private void expireDayOrders(BookSide side) {
        PriceLevel level = side.best;
        while (level != null) {
            PriceLevel worse = level.worse; // the level goes back to the pool if its last order expires
            expireDayOrders(level.head);
            level = worse;
        }
    }

    /** The DAY orders of one queue (a level's orders, or one side's waiting stops) expire, in its order. */
    private void expireDayOrders(Order first) {
        Order order = first;
        while (order != null) {
            Order next = order.next;
            if (order.timeInForce == TimeInForce.DAY) {
                removeLive(order);
                publisher.expired(order, RejectReason.DAY_ENDED);
                release(order);
            }
            order = next;
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

    private void release(Order order) {
        order.clear();
        orderPool.release(order);
    }

    OrderBook bookOf(int symbolId) {
        return symbolId >= 0 && symbolId < books.length ? books[symbolId] : null;
    }
}
