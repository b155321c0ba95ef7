package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.MarketDataSink;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TradingPhase;
import io.fixmatch.engine.config.EngineConfig;

/**
 * The order books of all symbols and the rules that change them, behind one door: {@link #process} takes a command
 * and hands it to the part whose job it is, each a class of its own sharing the books through {@link LiveOrders}:
 * <ul>
 *   <li>{@link OrderRequests}: new orders, cancels, cancel/replaces and status requests, their checks
 *       ({@link OrderRules}, each session's pre-trade risk and kill switch in {@link PreTradeRisk});</li>
 *   <li>{@link ContinuousMatching}: an aggressor trading against the book (price-time priority at the resting
 *       order's price, limit/market/IOC/FOK, icebergs, MinQty, self-trade prevention ({@link SelfTradeRule}), the
 *       volatility band);</li>
 *   <li>{@link StopTrigger}: waiting stop and stop-limit orders ({@link WaitingStops}) triggered and entered;</li>
 *   <li>{@link CallAuction}: orders joining a call, the indicative uncross, the uncross ({@link AuctionPrice});</li>
 *   <li>{@link TradingPhases} and {@link TradingSchedule}: each book's phase, its schedule's transitions, volatility
 *       interruptions;</li>
 *   <li>{@link OrderExpiry}: the end of the day's DAY orders and GTD expiries ({@link ExpiryQueue});</li>
 *   <li>{@link TradingHalts}: the operator's halt and resume; {@link MassActions}: cancel-all, the kill switch, mass
 *       cancel and mass status.</li>
 * </ul>
 *
 * <p>It has no clock: whatever is due at a time (a GTD order's expiry, a scheduled point) happens when a journaled
 * command stamped at or after that time arrives, before the command itself; the server sends a TIMER command when the
 * engine's {@link #nextDeadlineNanos() next deadline} passes and nothing else came.
 *
 * <p>A deterministic state machine: {@link #process} takes one command and reports what happened, synchronously,
 * to the {@link EventSink}. The same commands always give the same events. Not thread-safe: one thread owns it.
 * After construction nothing allocates: orders and price levels come from pools sized by {@link EngineConfig}.
 * Its state is written and put back (snapshots) by {@link EngineState} alone, through the package-private parts.
 */
public final class MatchingEngine implements TradingSettings {
    // The package-private fields and methods are for EngineState, which puts a written state back.
    final LiveOrders live;
    final InboundPositions inboundPositions = new InboundPositions();
    final PreTradeRisk risk;
    private final SelfTradeRule selfTrade = new SelfTradeRule();
    final EventPublisher publisher;
    final TradingPhases phases;
    final CallAuction auction;
    private final TradingSchedule schedule;
    private final OrderExpiry expiry;
    final TradingHalts halts;
    final MassActions massActions;
    final OrderRequests requests;
    private final EngineView view;
    /** The deadline last published in the view (so the view is written only when it changes). */
    private long publishedDeadline = ExpiryQueue.NONE;
    /**
     * The number of the last market data message (the binary feed's sequence number, docs/FEED.md): advanced by
     * whoever publishes the market data ({@link #advanceMarketDataSequence}), kept with the rest of the state so that a
     * restart, or another replica, goes on with the same numbers.
     */
    long marketDataSequence;
    /** The journal timestamp (epoch ns) of the last journaled command acted on; 0 if none (or not known). */
    long lastCommandNanos;
    /** The journal timestamp (epoch ns) of the last EXPIRE_DAY_ORDERS; 0 if none (or not known). */
    long lastDayEndNanos;

    public MatchingEngine(EngineConfig config, EventSink sink) {
        int symbols = config.symbols().size();
        // Each part gets the parts it calls, built before it: the calls go one way (no cycle, nothing set later).
        publisher = new EventPublisher(sink);
        view = new EngineView(symbols);
        risk = new PreTradeRisk(symbols);
        live = new LiveOrders(config, risk, publisher);
        phases = new TradingPhases(live, view);
        auction = new CallAuction(live, risk, publisher, view);
        ContinuousMatching matching = new ContinuousMatching(live, auction, phases, risk, selfTrade, publisher);
        StopTrigger stops = new StopTrigger(matching, risk, publisher);
        expiry = new OrderExpiry(live, view);
        schedule = new TradingSchedule(live, phases, auction, stops, expiry);
        halts = new TradingHalts(live, phases, schedule, view);
        massActions = new MassActions(live, risk, publisher, view);
        requests = new OrderRequests(live, matching, auction, stops, risk, publisher);
    }

    public void process(Command command) {
        publisher.startCommand(command);
        phases.nowNanos = command.timestampNanos();
        if (command.type().changesState()) { // the journaled ones (status requests are not)
            journaled(command);
        }
        // The order flow's commands first; the rest in a method of its own, so this one stays small enough for the
        // JIT to inline into the matching loop.
        switch (command.type()) {
            case NEW_ORDER -> requests.newOrder(command);
            case CANCEL -> requests.cancel(command);
            case REPLACE -> requests.replace(command);
            case ORDER_STATUS -> requests.orderStatus(command);
            default -> processOther(command);
        }
        if (phases.callBooks != 0) {
            auction.refreshIndicatives();
        }
        publishDeadline();
        live.marketData.commandDone();
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
            case CANCEL_ALL_FOR_OWNER -> massActions.cancelAllForOwner(command.owner());
            case HALT_SYMBOL -> halts.halt(command.symbolId(), true);
            case RESUME_SYMBOL -> halts.resume(command.symbolId());
            case BOOK_QUERY -> view.answer(command.quantity(), command.symbolId(), live.books,
                live.orderPool.inUse());
            case KILL_SWITCH -> massActions.killSwitch(command.owner(), true);
            case RELEASE_KILL_SWITCH -> massActions.killSwitch(command.owner(), false);
            case EXPIRE_DAY_ORDERS -> expiry.expireDayOrders();
            case SET_SESSION_CONTROL -> setSessionControl(command.owner(), SessionControl.ofCode(command.symbolId()),
                command.quantity());
            case SET_REFERENCE_PRICE -> {
                if (bookOf(command.symbolId()) != null) {
                    risk.referencePrice(command.symbolId(), command.price());
                }
            }
            case TIMER -> { } // its due work was done before
            case MASS_CANCEL -> massActions.massCancel(command);
            case MASS_STATUS -> massActions.massStatus(command);
            case SET_SYMBOL_CONTROL -> schedule.setSymbolControl(command);
            case NEW_ORDER, CANCEL, REPLACE, ORDER_STATUS -> throw new IllegalStateException(command.type().name());
        }
    }

    /**
     * Everything due at or before {@code nowNanos}, in the order of the times it was due: GTD expiries (earliest first,
     * then order id) and the books' transitions (scheduled points, interruptions' ends; a GTD expiry first at the same
     * time, books in symbol id order).
     */
    private void runDue(long nowNanos) {
        while (true) {
            long gtdExpiry = live.expiries.nextDeadline();
            long transition = phases.nextSessionDeadline;
            if (Math.min(gtdExpiry, transition) > nowNanos) {
                return;
            }
            if (gtdExpiry <= transition) {
                expiry.expireFirstGoodTillDate();
            } else {
                schedule.transitionDue(transition);
            }
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
        return Math.min(live.expiries.nextDeadline(), phases.nextSessionDeadline);
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
        OrderBook book = live.books[symbolId];
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
        live.marketData = sink;
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
        return requests.lastOrderId;
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
        return live.books.length;
    }

    /** Live orders: resting in the books (outside {@link #process}, every live order rests). */
    public int liveOrderCount() {
        return live.orderPool.inUse();
    }

    /** Books with at least one resting order. */
    public int nonEmptyBookCount() {
        int count = 0;
        for (OrderBook book : live.books) {
            if (book.side(Side.BUY).best != null || book.side(Side.SELL).best != null) {
                count++;
            }
        }
        return count;
    }

    /** Visits the resting orders of one side of a book, best price first, in time priority within a price. */
    public void forEachRestingOrder(int symbolId, Side side, RestingOrderVisitor visitor) {
        for (PriceLevel level = live.books[symbolId].side(side).best; level != null; level = level.worse) {
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
        for (Order order = live.books[symbolId].stops.first(side); order != null; order = order.next) {
            visitor.visit(order);
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

    OrderBook bookOf(int symbolId) {
        return live.bookOf(symbolId);
    }
}
