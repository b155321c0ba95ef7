package io.fixmatch.engine.reference;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.api.TradingPhase;
import io.fixmatch.engine.config.SymbolSpec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;

/**
 * A slow, deliberately simple model of the rules in docs/MATCHING.md, written from the document only.
 *
 * <p>State: for every symbol and side a plain {@link ArrayList} of resting orders, kept in priority order (best
 * price first, then arrival sequence) by inserting each order with a linear scan; a {@link LinkedHashMap} of live
 * orders keyed by (owner, client order id). Each command returns a fresh list of fresh {@link ExecutionEvent}s, so they
 * can be compared field by field (via {@code toString()}) with what the real engine reports.
 *
 * <p>Not modelled: capacity (BOOK_FULL). Run the real engine with room enough never to reach it.
 */
public final class ReferenceEngine {

    /** One order as the document describes it; public fields, no behaviour beyond the obvious. */
    public static final class RefOrder {
        public long orderId;
        public int owner;
        public String clientOrderId;
        public int symbolId;
        public Side side;
        public OrderType orderType;
        public TimeInForce timeInForce;
        public long price;
        public long quantity;
        public long leaves;
        public long cum;
        public long cumNotional;
        /** "Order attributes": stop price, triggered, MaxFloor and what shows, MinQty, GTD expire time, post-only. */
        public long stopPrice;
        public boolean triggered;
        public long maxFloor;
        public long shown;
        public long minQuantity;
        public long expireTime;
        public boolean postOnly;
        /** Arrival at its current place in the queue: larger means later, i.e. lower time priority. */
        long sequence;

        OrderStatus currentStatus() {
            if (leaves == 0) {
                return OrderStatus.FILLED;
            }
            return cum == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
        }
    }

    private record Key(int owner, String clientOrderId) {
    }

    private final List<SymbolSpec> symbols;
    private final Set<Integer> halted = new java.util.TreeSet<>();
    /** books.get(symbolId)[side.ordinal()] = resting orders, in priority order. */
    private final List<List<RefOrder>[]> books = new ArrayList<>();
    /** Live orders by (owner, client order id); insertion-ordered only so that the generator's picks are seeded. */
    private final Map<Key, RefOrder> live = new LinkedHashMap<>();
    private long lastOrderId;
    private long lastExecId;
    private long lastSequence;
    /** Iceberg refills so far: for the generator's coverage check. */
    private long refills;
    /** Each owner's settings ("Pre-trade risk", "Self-trade prevention"): absent means 0, none. */
    private final Map<Integer, Map<SessionControl, Long>> settings = new HashMap<>();
    private final Set<Integer> killSwitched = new java.util.TreeSet<>();
    private final Map<Integer, Long> lastTrade = new HashMap<>();
    private final Map<Integer, Long> referencePrice = new HashMap<>();
    /** waiting.get(symbolId) = its stop orders waiting for their stop price, in arrival order. */
    private final List<List<RefOrder>> waiting = new ArrayList<>();
    /** Per symbol: its trading day; its call's market orders per side; its At the Close orders waiting. */
    private final List<RefSession> sessions = new ArrayList<>();
    private final List<List<RefOrder>[]> marketQueues = new ArrayList<>();
    private final List<List<RefOrder>> atClose = new ArrayList<>();
    private long now;

    public ReferenceEngine(List<SymbolSpec> symbols) {
        this.symbols = List.copyOf(symbols);
        for (int i = 0; i < symbols.size(); i++) {
            @SuppressWarnings("unchecked")
            List<RefOrder>[] sides = new List[] {new ArrayList<RefOrder>(), new ArrayList<RefOrder>()};
            books.add(sides);
            waiting.add(new ArrayList<>());
            sessions.add(new RefSession(i));
            @SuppressWarnings("unchecked")
            List<RefOrder>[] markets = new List[] {new ArrayList<RefOrder>(), new ArrayList<RefOrder>()};
            marketQueues.add(markets);
            atClose.add(new ArrayList<>());
        }
    }

    // ------------------------------------------------------------------------------------------------ queries

    public long lastOrderId() {
        return lastOrderId;
    }

    public long lastExecId() {
        return lastExecId;
    }

    /** The resting orders of one side of a book, best first, in time priority within a price (a copy). */
    public List<RefOrder> restingOrders(int symbolId, Side side) {
        return new ArrayList<>(books.get(symbolId)[side.ordinal()]);
    }

    /** The same, read-only and without a copy: valid until the next command. */
    public List<RefOrder> restingView(int symbolId, Side side) {
        return Collections.unmodifiableList(books.get(symbolId)[side.ordinal()]);
    }

    /** Every live (resting) order, in a deterministic order, for the command generator (a copy). */
    public List<RefOrder> liveOrders() {
        return new ArrayList<>(live.values());
    }

    /** The stop orders of a symbol waiting for their stop price, in arrival order (a copy). */
    public List<RefOrder> waitingStops(int symbolId) {
        return new ArrayList<>(waiting.get(symbolId));
    }

    /** The earliest expire time of a live GTD order, Long.MAX_VALUE if none. */
    public long nextExpiry() {
        return live.values().stream().filter(o -> o.timeInForce == TimeInForce.GTD).mapToLong(o -> o.expireTime)
            .min().orElse(Long.MAX_VALUE);
    }

    public long refills() {
        return refills;
    }

    public TradingPhase phase(int symbolId) {
        return sessions.get(symbolId).phase;
    }

    /** The earliest of the GTD expiries and the symbols' own deadlines, Long.MAX_VALUE if none. */
    public long nextDeadline() {
        long deadline = nextExpiry();
        for (RefSession session : sessions) {
            deadline = Math.min(deadline, session.deadline());
        }
        return deadline;
    }

    /** The market orders of a symbol's call and its At the Close orders waiting, as one list (a copy). */
    public List<RefOrder> queued(int symbolId) {
        List<RefOrder> all = new ArrayList<>(marketQueues.get(symbolId)[0]);
        all.addAll(marketQueues.get(symbolId)[1]);
        all.addAll(atClose.get(symbolId));
        return all;
    }

    /** During a call: {price, volume} of the uncross now, by brute force ({0, 0}: none). */
    public long[] indicative(int symbolId) {
        if (!sessions.get(symbolId).phase.isCall()) {
            return new long[2];
        }
        long[] auction = auctionPrice(symbolId);
        return new long[] {auction[0], auction[1]};
    }

    public int liveCount() {
        return live.size();
    }

    /** The symbols the operator has halted (docs/MATCHING.md, "Trading halts"). */
    public Set<Integer> haltedSymbols() {
        return Set.copyOf(halted);
    }

    public boolean isKillSwitched(int owner) {
        return killSwitched.contains(owner);
    }

    public boolean isLive(int owner, String clientOrderId) {
        return live.containsKey(new Key(owner, clientOrderId));
    }

    // ----------------------------------------------------------------------------------------------- commands

    /**
     * {@code MatchingEngine.refuse}: the command is answered without being looked at, by the reject event its type
     * calls for, echoing it (price 0 for a market order), status REJECTED, exec id 0, order id 0. Nothing changes.
     */
    public List<ExecutionEvent> refuse(Command c, RejectReason reason) {
        if (c.type().isOperators()) {
            return List.of(); // "the operator's commands are answered with no event"
        }
        if (c.type() == CommandType.MASS_CANCEL || c.type() == CommandType.MASS_STATUS) {
            return List.of(massRefusal(c, reason));
        }
        EventType type = switch (c.type()) {
            case NEW_ORDER -> EventType.REJECTED;
            case CANCEL -> EventType.CANCEL_REJECTED;
            case REPLACE -> EventType.REPLACE_REJECTED;
            case ORDER_STATUS -> EventType.STATUS;
            case CANCEL_ALL_FOR_OWNER -> throw new IllegalArgumentException("the doc names no event for this");
            case MASS_CANCEL, MASS_STATUS -> throw new IllegalStateException("handled above");
            case HALT_SYMBOL, RESUME_SYMBOL, BOOK_QUERY, KILL_SWITCH, RELEASE_KILL_SWITCH, EXPIRE_DAY_ORDERS,
                 SET_SESSION_CONTROL, SET_REFERENCE_PRICE, TIMER, SET_SYMBOL_CONTROL ->
                throw new IllegalStateException("handled above");
        };
        ExecutionEvent e = new ExecutionEvent().begin(type, c.timestampNanos(), c.owner());
        e.clientOrderId().copyFrom(c.clientOrderId());
        e.origClientOrderId().copyFrom(c.origClientOrderId());
        e.order(c.symbolId(), c.side(), c.orderType(), c.timeInForce(),
                limitPriced(c.orderType()) ? c.price() : 0, c.quantity())
            .attributes(c.stopPrice(), c.expireTimeNanos())
            .ids(0, 0)
            .quantities(0, 0, 0)
            .status(OrderStatus.REJECTED)
            .rejectReason(reason);
        return List.of(e);
    }

    public List<ExecutionEvent> process(Command command) {
        List<ExecutionEvent> out = new ArrayList<>();
        now = command.timestampNanos();
        if (command.type() != CommandType.ORDER_STATUS && command.type() != CommandType.BOOK_QUERY
            && command.type() != CommandType.MASS_STATUS) {
            runDue(command, out); // "Every journaled command first does what was due at or before its timestamp"
        }
        switch (command.type()) {
            case NEW_ORDER -> newOrder(command, out);
            case CANCEL -> cancel(command, out);
            case REPLACE -> replace(command, out);
            case ORDER_STATUS -> status(command, out);
            case CANCEL_ALL_FOR_OWNER -> cancelAll(command, out, RejectReason.NONE);
            case HALT_SYMBOL -> {
                if (command.symbolId() >= 0 && command.symbolId() < symbols.size()) {
                    halted.add(command.symbolId());
                }
            }
            case RESUME_SYMBOL -> resume(command, out);
            case BOOK_QUERY -> { } // read-only: no event, nothing changes
            case KILL_SWITCH -> {
                if (command.owner() >= 0 && command.owner() <= 65_535) {
                    killSwitched.add(command.owner());
                    cancelAll(command, out, RejectReason.KILL_SWITCH_ENGAGED);
                }
            }
            case RELEASE_KILL_SWITCH -> killSwitched.remove(command.owner());
            case EXPIRE_DAY_ORDERS -> expireDayOrders(command, out);
            case SET_SESSION_CONTROL -> {
                SessionControl control = SessionControl.ofCode(command.symbolId());
                if (control != null && control != SessionControl.KILL_SWITCH && command.owner() >= 0
                    && command.owner() <= 65_535) {
                    settings.computeIfAbsent(command.owner(), o -> new HashMap<>())
                        .put(control, Math.max(0, command.quantity()));
                }
            }
            case SET_REFERENCE_PRICE -> {
                if (command.symbolId() >= 0 && command.symbolId() < symbols.size()) {
                    referencePrice.put(command.symbolId(), Math.max(0, command.price()));
                }
            }
            case TIMER -> { } // only its GTD expiries, above
            case MASS_CANCEL -> massCancel(command, out);
            case MASS_STATUS -> massStatus(command, out);
            case SET_SYMBOL_CONTROL -> setSymbolControl(command, out);
        }
        return out;
    }

    // ---------------------------------------------------------------------------------------- phases, auctions

    /**
     * "Everything due at or before the command's time, in the order it was due: GTD expiries (earliest, then order
     * id) and the symbols' transitions (a GTD expiry first at the same time, symbols in id order)."
     */
    private void runDue(Command c, List<ExecutionEvent> out) {
        while (true) {
            RefOrder gtd = null;
            for (RefOrder o : live.values()) {
                if (o.timeInForce == TimeInForce.GTD && (gtd == null || o.expireTime < gtd.expireTime
                    || (o.expireTime == gtd.expireTime && o.orderId < gtd.orderId))) {
                    gtd = o;
                }
            }
            long gtdAt = gtd == null ? Long.MAX_VALUE : gtd.expireTime;
            int symbol = -1;
            long transitionAt = Long.MAX_VALUE;
            for (RefSession session : sessions) {
                if (session.deadline() < transitionAt) {
                    transitionAt = session.deadline();
                    symbol = session.symbolId;
                }
            }
            if (Math.min(gtdAt, transitionAt) > c.timestampNanos()) {
                return;
            }
            if (gtdAt <= transitionAt) {
                removeLive(gtd);
                out.add(orderEvent(EventType.EXPIRED, c, gtd, gtd.clientOrderId, "", OrderStatus.EXPIRED, 0)
                    .rejectReason(RejectReason.GTD_EXPIRED));
            } else {
                transition(symbol, c, out);
            }
        }
    }

    private void transition(int symbol, Command c, List<ExecutionEvent> out) {
        RefSession s = sessions.get(symbol);
        if (s.interruptionEnd <= s.nextPoint) { // "an interruption's end first at the same time"
            s.interruptionEnd = RefSession.NONE;
            endCall(symbol, TradingPhase.CONTINUOUS, c, out);
            return;
        }
        int kind = s.nextKind;
        s.scheduleAfter(s.nextPoint);
        switch (kind) {
            case RefSession.OPENING_CALL -> beginPhase(symbol, TradingPhase.OPENING_CALL);
            case RefSession.OPENING_UNCROSS -> endCall(symbol, TradingPhase.CONTINUOUS, c, out);
            case RefSession.CLOSING_CALL -> beginPhase(symbol, TradingPhase.CLOSING_CALL);
            default -> endCall(symbol, TradingPhase.CLOSED, c, out);
        }
    }

    private void beginPhase(int symbol, TradingPhase phase) {
        RefSession s = sessions.get(symbol);
        s.interruptionEnd = RefSession.NONE;
        s.phase = phase;
        if (phase == TradingPhase.CLOSING_CALL) { // "the closing call takes in the At the Close orders"
            for (RefOrder o : new ArrayList<>(atClose.get(symbol))) {
                atClose.get(symbol).remove(o);
                joinCall(o);
            }
        }
    }

    /**
     * "A call ends: the uncross (not while halted), then the next phase; market orders left, At the Opening orders
     * after the opening, At the Close orders after the closing are CANCELED (AUCTION_ENDED); at the close the DAY
     * orders expire as at the end of the day; continuing continuously, waiting stops trigger."
     */
    private void endCall(int symbol, TradingPhase next, Command c, List<ExecutionEvent> out) {
        RefSession s = sessions.get(symbol);
        TradingPhase was = s.phase;
        if (was.isCall() && !halted.contains(symbol)) {
            uncross(symbol, c, out);
        }
        s.interruptionEnd = RefSession.NONE;
        s.phase = next;
        List<RefOrder> ended = new ArrayList<>(marketQueues.get(symbol)[0]);
        ended.addAll(marketQueues.get(symbol)[1]);
        if (next == TradingPhase.CLOSED) {
            ended.addAll(atClose.get(symbol));
            ended.addAll(withTif(side(symbol, Side.BUY), TimeInForce.AT_THE_CLOSE));
            ended.addAll(withTif(side(symbol, Side.SELL), TimeInForce.AT_THE_CLOSE));
        } else if (was == TradingPhase.OPENING_CALL) {
            ended.addAll(withTif(side(symbol, Side.BUY), TimeInForce.AT_THE_OPENING));
            ended.addAll(withTif(side(symbol, Side.SELL), TimeInForce.AT_THE_OPENING));
        }
        for (RefOrder o : ended) {
            removeLive(o);
            out.add(orderEvent(EventType.CANCELED, c, o, o.clientOrderId, "", OrderStatus.CANCELED, 0)
                .rejectReason(RejectReason.AUCTION_ENDED));
        }
        if (next == TradingPhase.CLOSED) {
            expireDayOrdersOf(symbol, c, out);
        }
        if (next == TradingPhase.CONTINUOUS) {
            runTriggers(symbol, c, out);
        }
    }

    private static List<RefOrder> withTif(List<RefOrder> orders, TimeInForce tif) {
        List<RefOrder> chosen = new ArrayList<>();
        for (RefOrder o : orders) {
            if (o.timeInForce == tif) {
                chosen.add(o);
            }
        }
        return chosen;
    }

    /**
     * "The uncross": every price on the tick from the lowest to the highest limit price (with none, the reference
     * price): most executed, least imbalance, nearest the reference, lowest. Searched price by price. {price, volume}.
     */
    private long[] auctionPrice(int symbol) {
        long marketBuys = 0;
        long marketSells = 0;
        for (RefOrder o : marketQueues.get(symbol)[0]) {
            marketBuys += o.leaves;
        }
        for (RefOrder o : marketQueues.get(symbol)[1]) {
            marketSells += o.leaves;
        }
        List<RefOrder> limits = new ArrayList<>(side(symbol, Side.BUY));
        limits.addAll(side(symbol, Side.SELL));
        long ref = reference(symbol);
        long tick = symbols.get(symbol).tickSize();
        long low = Long.MAX_VALUE;
        long high = Long.MIN_VALUE;
        for (RefOrder o : limits) {
            low = Math.min(low, o.price);
            high = Math.max(high, o.price);
        }
        if (limits.isEmpty()) {
            if (ref <= 0) {
                return new long[2];
            }
            low = ref;
            high = ref;
        }
        long bestPrice = 0;
        long bestVolume = 0;
        long bestImbalance = 0;
        for (long p = low; p <= high; p += limits.isEmpty() ? 1 : tick) {
            long buys = marketBuys;
            long sells = marketSells;
            for (RefOrder o : limits) {
                if (o.side == Side.BUY && o.price >= p) {
                    buys += o.leaves;
                } else if (o.side == Side.SELL && o.price <= p) {
                    sells += o.leaves;
                }
            }
            long volume = Math.min(buys, sells);
            long imbalance = Math.abs(buys - sells);
            boolean better = bestPrice == 0 || volume > bestVolume || (volume == bestVolume
                && (imbalance < bestImbalance || (imbalance == bestImbalance && ref > 0
                && Math.abs(p - ref) < Math.abs(bestPrice - ref))));
            if (better) { // equal on everything: the lower price, met first
                bestPrice = p;
                bestVolume = volume;
                bestImbalance = imbalance;
            }
        }
        return bestVolume == 0 ? new long[2] : new long[] {bestPrice, bestVolume};
    }

    /** "Buyers (market orders first, then limit orders by price, each in time order) trade with sellers". */
    private void uncross(int symbol, Command c, List<ExecutionEvent> out) {
        long[] auction = auctionPrice(symbol);
        long price = auction[0];
        long remaining = auction[1];
        if (remaining == 0) {
            return;
        }
        List<RefOrder> buys = new ArrayList<>(marketQueues.get(symbol)[0]);
        buys.addAll(side(symbol, Side.BUY).stream().filter(o -> o.price >= price).toList());
        List<RefOrder> sells = new ArrayList<>(marketQueues.get(symbol)[1]);
        sells.addAll(side(symbol, Side.SELL).stream().filter(o -> o.price <= price).toList());
        int b = 0;
        int s = 0;
        while (remaining > 0 && b < buys.size() && s < sells.size()) {
            RefOrder buy = buys.get(b);
            RefOrder sell = sells.get(s);
            long qty = Math.min(remaining, Math.min(buy.leaves, sell.leaves));
            for (RefOrder o : new RefOrder[] {buy, sell}) {
                o.leaves -= qty;
                o.cum += qty;
                o.cumNotional += qty * price;
                if (side(symbol, o.side).contains(o)) {
                    // "an iceberg trades its hidden part too, and shows its floor again in place"
                    o.shown = o.maxFloor == 0 ? o.leaves : Math.min(o.maxFloor, o.leaves);
                }
            }
            lastTrade.put(symbol, price);
            out.add(fillEvent(c, buy, qty, price));
            out.add(fillEvent(c, sell, qty, price));
            remaining -= qty;
            if (buy.leaves == 0) {
                removeLive(buy);
                b++;
            }
            if (sell.leaves == 0) {
                removeLive(sell);
                s++;
            }
        }
    }

    /** "An order joins a call without matching": limit orders rest, market orders queue. */
    private void joinCall(RefOrder o) {
        if (o.orderType == OrderType.MARKET || o.orderType == OrderType.STOP) {
            marketQueues.get(o.symbolId)[o.side.ordinal()].add(o);
        } else {
            rest(o);
        }
        live.put(new Key(o.owner, o.clientOrderId), o);
    }

    private void enterDuringCall(RefOrder o, Command c, List<ExecutionEvent> out) {
        if (o.timeInForce == TimeInForce.IOC || o.timeInForce == TimeInForce.FOK) {
            finish(o, c, out, RejectReason.VOLATILITY_INTERRUPTION);
        } else {
            joinCall(o);
        }
    }

    private void startInterruption(int symbol) {
        RefSession s = sessions.get(symbol);
        s.interruptionEnd = now + s.interruption * 1_000_000L;
        s.phase = TradingPhase.VOLATILITY_CALL;
    }

    /** The band of the aggressor about to trade: {low, high}, or null when the symbol has none. */
    private long[] band(int symbol) {
        long bp = sessions.get(symbol).band;
        long ref = bp == 0 ? 0 : reference(symbol);
        if (ref == 0) {
            return null;
        }
        long offset = ref * bp / 10_000;
        return new long[] {ref - offset, ref + offset};
    }

    private void resume(Command c, List<ExecutionEvent> out) {
        int symbol = c.symbolId();
        if (!halted.remove(symbol)) {
            return;
        }
        RefSession s = sessions.get(symbol);
        if (s.phase == TradingPhase.CONTINUOUS || s.phase == TradingPhase.VOLATILITY_CALL) {
            if (s.interruption > 0) {
                startInterruption(symbol);
            } else {
                s.phase = TradingPhase.VOLATILITY_CALL;
                endCall(symbol, TradingPhase.CONTINUOUS, c, out);
            }
        }
    }

    private void setSymbolControl(Command c, List<ExecutionEvent> out) {
        int symbol = c.symbolId();
        SymbolControl control = SymbolControl.ofCode((int) c.price());
        if (symbol < 0 || symbol >= symbols.size() || control == null || c.price() != control.code()) {
            return;
        }
        RefSession s = sessions.get(symbol);
        long value = c.quantity();
        boolean changed;
        switch (control) {
            case OPENING_CALL, OPENING_UNCROSS, CLOSING_CALL, CLOSING_UNCROSS -> {
                int kind = control.code() - 1;
                long time = value >= 0 && value < 86_400_000L ? value : -1;
                changed = s.times[kind] != time;
                s.times[kind] = time;
            }
            case RANDOM_END_MILLIS -> {
                changed = s.randomEnd != Math.max(0, value);
                s.randomEnd = Math.max(0, value);
            }
            case VOLATILITY_BAND_BASIS_POINTS -> {
                s.band = Math.max(0, value);
                changed = false;
            }
            case INTERRUPTION_MILLIS -> {
                s.interruption = Math.max(0, value);
                changed = false;
            }
            default -> {
                String zone = c.clientOrderId().toString();
                boolean valid;
                try {
                    java.time.ZoneId.of(zone);
                    valid = true;
                } catch (RuntimeException e) {
                    valid = false;
                }
                changed = valid && !zone.equals(s.zone);
                if (changed) {
                    s.zone = zone;
                }
            }
        }
        if (!changed) {
            return;
        }
        TradingPhase target = TradingPhase.CONTINUOUS;
        if (s.scheduled()) {
            s.scheduleAfter(now);
            target = s.scheduledPhase(now);
        } else {
            s.nextPoint = RefSession.NONE;
        }
        if (s.phase != target && !(s.phase == TradingPhase.VOLATILITY_CALL && target == TradingPhase.CONTINUOUS)) {
            if (s.phase.isCall() && !target.isCall()) {
                endCall(symbol, target, c, out);
            } else {
                beginPhase(symbol, target);
            }
        }
    }

    /**
     * "Mass cancel": a report (exec id, the count in the order quantity, the side asked or none, status NEW), then a
     * CANCELED (own id, MASS_CANCELED) for each live order of the owner on the symbol and side asked, highest order id
     * first. An invalid owner or unknown symbol: the report refused, nothing else.
     */
    private void massCancel(Command c, List<ExecutionEvent> out) {
        if (c.owner() < 0 || c.owner() > 65_535) {
            out.add(massRefusal(c, RejectReason.INVALID_OWNER));
            return;
        }
        if (c.symbolId() != Command.ALL_SYMBOLS && (c.symbolId() < 0 || c.symbolId() >= symbols.size())) {
            out.add(massRefusal(c, RejectReason.UNKNOWN_SYMBOL));
            return;
        }
        List<RefOrder> chosen = chosenForMass(c.owner(), c.symbolId(), c.quantity() == 0 ? null : c.side());
        ExecutionEvent report = new ExecutionEvent().begin(EventType.MASS_CANCEL_REPORT, c.timestampNanos(), c.owner());
        report.clientOrderId().copyFrom(c.clientOrderId());
        out.add(report.ids(0, ++lastExecId).order(c.symbolId(), c.quantity() == 0 ? null : c.side(), null, null, 0,
            chosen.size()).status(OrderStatus.NEW));
        for (RefOrder o : chosen) {
            removeLive(o);
            out.add(orderEvent(EventType.CANCELED, c, o, o.clientOrderId, "", OrderStatus.CANCELED, 0)
                .rejectReason(RejectReason.MASS_CANCELED));
        }
    }

    /**
     * "Mass status": per live order of the owner (of the symbol asked), highest order id first, its state as a status
     * answer (exec id 0) with the request id as orig id and the number of reports; none: one report, status REJECTED,
     * NO_LIVE_ORDERS, the request id as orig id.
     */
    private void massStatus(Command c, List<ExecutionEvent> out) {
        if (c.owner() < 0 || c.owner() > 65_535) {
            out.add(massRefusal(c, RejectReason.INVALID_OWNER));
            return;
        }
        List<RefOrder> chosen = chosenForMass(c.owner(), c.symbolId(), null);
        if (chosen.isEmpty()) {
            ExecutionEvent e = new ExecutionEvent().begin(EventType.MASS_STATUS, c.timestampNanos(), c.owner());
            e.origClientOrderId().copyFrom(c.clientOrderId());
            out.add(e.order(c.symbolId(), null, null, null, 0, 0).status(OrderStatus.REJECTED)
                .rejectReason(RejectReason.NO_LIVE_ORDERS));
            return;
        }
        for (RefOrder o : chosen) {
            out.add(orderEvent(EventType.MASS_STATUS, c, o, o.clientOrderId, c.clientOrderId().toString(),
                o.currentStatus(), o.leaves, 0).reportCount(chosen.size()));
        }
    }

    private List<RefOrder> chosenForMass(int owner, int symbolId, Side side) {
        List<RefOrder> chosen = new ArrayList<>();
        for (RefOrder o : live.values()) {
            if (o.owner == owner && (symbolId == Command.ALL_SYMBOLS || o.symbolId == symbolId)
                && (side == null || o.side == side)) {
                chosen.add(o);
            }
        }
        chosen.sort((a, b) -> Long.compare(b.orderId, a.orderId));
        return chosen;
    }

    /** A refused mass request: its report, status REJECTED, the reason, exec id 0; the side(s) asked, nothing more. */
    private static ExecutionEvent massRefusal(Command c, RejectReason reason) {
        boolean cancel = c.type() == CommandType.MASS_CANCEL;
        ExecutionEvent e = new ExecutionEvent().begin(cancel ? EventType.MASS_CANCEL_REPORT : EventType.MASS_STATUS,
            c.timestampNanos(), c.owner());
        // A mass cancel's report names its ClOrdID; every mass status answer carries the request id as orig id.
        (cancel ? e.clientOrderId() : e.origClientOrderId()).copyFrom(c.clientOrderId());
        if (cancel) {
            return e.order(c.symbolId(), c.quantity() == 0 ? null : c.side(), null, null, 0, 0)
                .status(OrderStatus.REJECTED).rejectReason(reason);
        }
        return e.order(c.symbolId(), c.side(), OrderType.LIMIT, TimeInForce.DAY, 0, 0)
            .status(OrderStatus.REJECTED).rejectReason(reason);
    }

    /** Takes a live order out of its book side or its symbol's waiting stops, and out of the live orders. */
    private void removeLive(RefOrder o) {
        if (!side(o.symbolId, o.side).remove(o) && !marketQueues.get(o.symbolId)[o.side.ordinal()].remove(o)
            && !atClose.get(o.symbolId).remove(o)) {
            waiting.get(o.symbolId).remove(o);
        }
        live.remove(new Key(o.owner, o.clientOrderId));
    }

    private void newOrder(Command c, List<ExecutionEvent> out) {
        String id = c.clientOrderId().toString();
        boolean market = c.orderType() == OrderType.MARKET;
        boolean stop = c.orderType() == OrderType.STOP || c.orderType() == OrderType.STOP_LIMIT;
        boolean limitPriced = c.orderType() == OrderType.LIMIT || c.orderType() == OrderType.STOP_LIMIT;
        boolean canRest = c.timeInForce() == TimeInForce.DAY || c.timeInForce() == TimeInForce.GTC
            || c.timeInForce() == TimeInForce.GTD || c.timeInForce() == TimeInForce.AT_THE_OPENING
            || c.timeInForce() == TimeInForce.AT_THE_CLOSE;
        RejectReason reason = RejectReason.NONE;
        TradingPhase phase = c.symbolId() >= 0 && c.symbolId() < symbols.size() ? sessions.get(c.symbolId()).phase
            : TradingPhase.CONTINUOUS;
        TimeInForce tif = c.timeInForce();
        if (c.owner() < 0 || c.owner() > 65_535) {
            reason = RejectReason.INVALID_OWNER;
        } else if (c.symbolId() < 0 || c.symbolId() >= symbols.size()) {
            reason = RejectReason.UNKNOWN_SYMBOL;
        } else if (halted.contains(c.symbolId())) {
            reason = RejectReason.SYMBOL_HALTED;
        } else if (phase == TradingPhase.CLOSED) {
            reason = RejectReason.MARKET_CLOSED;
        } else if (id.isEmpty()) {
            reason = RejectReason.MISSING_CLIENT_ORDER_ID;
        } else if (isLive(c.owner(), id)) {
            reason = RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        } else {
            SymbolSpec spec = symbols.get(c.symbolId());
            reason = quantityCheck(spec, c.quantity());
            if (reason == RejectReason.NONE && limitPriced) {
                reason = priceCheck(spec, c.price());
            }
            if (reason == RejectReason.NONE) {
                reason = attributesCheck(spec, c, stop, limitPriced, canRest);
            }
            if (reason == RejectReason.NONE && phase.isCall() && (tif == TimeInForce.IOC || tif == TimeInForce.FOK)) {
                reason = RejectReason.NOT_DURING_CALL;
            }
            if (reason == RejectReason.NONE && (tif == TimeInForce.AT_THE_OPENING
                && (stop || phase != TradingPhase.OPENING_CALL)
                || tif == TimeInForce.AT_THE_CLOSE && (stop || !sessions.get(c.symbolId()).scheduled()))) {
                reason = RejectReason.AUCTION_TIF_NOT_NOW;
            }
            if (reason == RejectReason.NONE) {
                // "a STOP order is checked as a market order, a STOP_LIMIT order as a limit order"
                reason = riskCheck(c.owner(), c.symbolId(), !limitPriced, c.timeInForce(), c.price(), c.quantity(),
                    true);
            }
            if (reason == RejectReason.NONE && !phase.isCall() && c.postOnly()
                && reachesOpposite(c.symbolId(), c.side(), c.price())) {
                reason = RejectReason.POST_ONLY_WOULD_TAKE;
            }
            if (reason == RejectReason.NONE && !phase.isCall() && market && tif != TimeInForce.AT_THE_CLOSE
                && side(c.symbolId(), c.side().opposite()).isEmpty()) {
                reason = RejectReason.NO_LIQUIDITY;
            }
        }
        if (reason != RejectReason.NONE) {
            ExecutionEvent e = new ExecutionEvent().begin(EventType.REJECTED, c.timestampNanos(), c.owner());
            // "A REJECTED event echoes the command: client order id, symbol, side, type, time in force, price (0 for
            // a market order), quantity; order id 0, leaves 0, cum 0, status REJECTED, the reason."
            e.clientOrderId().copyFrom(c.clientOrderId());
            e.ids(0, ++lastExecId)
                .order(c.symbolId(), c.side(), c.orderType(), c.timeInForce(), limitPriced ? c.price() : 0,
                    c.quantity())
                .attributes(c.stopPrice(), c.expireTimeNanos())
                .quantities(0, 0, 0)
                .status(OrderStatus.REJECTED)
                .rejectReason(reason);
            if (reason.isPreTradeRisk()) {
                e.risk(riskValue, riskLow, riskHigh);
            }
            out.add(e);
            return;
        }

        RefOrder o = new RefOrder();
        o.orderId = ++lastOrderId;
        o.owner = c.owner();
        o.clientOrderId = id;
        o.symbolId = c.symbolId();
        o.side = c.side();
        o.orderType = c.orderType();
        o.timeInForce = c.timeInForce();
        o.price = limitPriced ? c.price() : 0;
        o.quantity = c.quantity();
        o.leaves = c.quantity();
        o.stopPrice = c.stopPrice();
        o.maxFloor = c.maxFloor();
        o.minQuantity = c.minQuantity();
        o.expireTime = c.expireTimeNanos();
        o.postOnly = c.postOnly();
        out.add(orderEvent(EventType.ACCEPTED, c, o, o.clientOrderId, "", OrderStatus.NEW, o.leaves));
        if (stop) {
            // "waits out of the book ... live"
            waiting.get(o.symbolId).add(o);
            live.put(new Key(o.owner, o.clientOrderId), o);
        } else if (tif == TimeInForce.AT_THE_CLOSE && phase != TradingPhase.CLOSING_CALL) {
            atClose.get(o.symbolId).add(o); // "waits for the closing call"
            live.put(new Key(o.owner, o.clientOrderId), o);
        } else if (phase.isCall()) {
            joinCall(o);
        } else {
            enter(o, c, out);
        }
        runTriggers(o.symbolId, c, out);
    }

    /** "Entering an order": FOK, MinQty, trading, then resting or canceling its rest. Removes it from live if it ends. */
    private void enter(RefOrder o, Command c, List<ExecutionEvent> out) {
        if (sessions.get(o.symbolId).phase != TradingPhase.CONTINUOUS) {
            enterDuringCall(o, c, out);
            return;
        }
        long[] band = band(o.symbolId);
        if (o.timeInForce == TimeInForce.FOK && tradable(o, band) < o.leaves
            || o.minQuantity > 0 && tradable(o, band) < o.minQuantity) {
            // "if what it lacked lies beyond the band, the interruption starts and the reason says so"
            tradable(o, band);
            boolean beyond = bandStopped; // "the count stopped at a price outside the band"
            if (beyond) {
                startInterruption(o.symbolId);
            }
            finish(o, c, out, beyond ? RejectReason.VOLATILITY_INTERRUPTION : o.timeInForce == TimeInForce.FOK
                ? RejectReason.NONE : RejectReason.MIN_QUANTITY_NOT_AVAILABLE);
            return;
        }
        boolean stopped = trade(o, c, out, band);
        if (o.leaves == 0) {
            live.remove(new Key(o.owner, o.clientOrderId));
            return;
        }
        if (stopped) {
            finish(o, c, out, RejectReason.SELF_TRADE_INCOMING);
            return;
        }
        if (sessions.get(o.symbolId).phase != TradingPhase.CONTINUOUS) { // it reached the band
            enterDuringCall(o, c, out);
            return;
        }
        boolean limitPriced = o.orderType == OrderType.LIMIT || o.orderType == OrderType.STOP_LIMIT;
        if (limitPriced && (o.timeInForce == TimeInForce.DAY || o.timeInForce == TimeInForce.GTC
            || o.timeInForce == TimeInForce.GTD || o.timeInForce == TimeInForce.AT_THE_OPENING
            || o.timeInForce == TimeInForce.AT_THE_CLOSE)) {
            rest(o);
            live.put(new Key(o.owner, o.clientOrderId), o);
        } else {
            finish(o, c, out, RejectReason.NONE);
        }
    }

    private void finish(RefOrder o, Command c, List<ExecutionEvent> out, RejectReason reason) {
        live.remove(new Key(o.owner, o.clientOrderId));
        out.add(orderEvent(EventType.CANCELED, c, o, o.clientOrderId, "", OrderStatus.CANCELED, 0)
            .rejectReason(reason));
    }

    /**
     * What the order could trade now at acceptable prices (hidden parts included): with self-trade prevention, its
     * own party's orders are passed over (cancel-resting) or end the count (cancel-incoming, cancel-both).
     */
    private boolean bandStopped;

    private long tradable(RefOrder o, long[] band) {
        SelfTradePrevention mode = stpMode(o.owner);
        long available = 0;
        bandStopped = false;
        for (RefOrder r : side(o.symbolId, o.side.opposite())) {
            if (!acceptable(o, r.price)) {
                continue;
            }
            if (band != null && (r.price < band[0] || r.price > band[1])) {
                bandStopped = true;
                break;
            }
            if (mode != SelfTradePrevention.NONE && sameParty(o.owner, r.owner)) {
                if (mode == SelfTradePrevention.CANCEL_RESTING) {
                    continue;
                }
                break;
            }
            available += r.leaves;
        }
        return available;
    }

    /**
     * "Stops": the waiting stops the last trade price reaches join the triggered queue (buy stops lowest stop price
     * first, then sell stops highest first, arrival order within a price); the queue's first is triggered and
     * entered; then again, until the queue is empty.
     */
    private void runTriggers(int symbolId, Command c, List<ExecutionEvent> out) {
        java.util.ArrayDeque<RefOrder> queue = new java.util.ArrayDeque<>();
        collect(symbolId, queue);
        while (!queue.isEmpty()) {
            RefOrder o = queue.removeFirst();
            o.triggered = true;
            out.add(orderEvent(EventType.TRIGGERED, c, o, o.clientOrderId, "", o.currentStatus(), o.leaves)
                .rejectReason(RejectReason.STOP_TRIGGERED));
            enter(o, c, out);
            collect(symbolId, queue);
        }
    }

    private void collect(int symbolId, java.util.ArrayDeque<RefOrder> queue) {
        long last = lastTrade.getOrDefault(symbolId, 0L);
        if (last == 0 || sessions.get(symbolId).phase != TradingPhase.CONTINUOUS) {
            return;
        }
        List<RefOrder> buys = new ArrayList<>();
        List<RefOrder> sells = new ArrayList<>();
        for (RefOrder o : waiting.get(symbolId)) {
            if (o.side == Side.BUY && o.stopPrice <= last) {
                buys.add(o);
            } else if (o.side == Side.SELL && o.stopPrice >= last) {
                sells.add(o);
            }
        }
        // Stable sorts: arrival order within a stop price.
        buys.sort((a, b) -> Long.compare(a.stopPrice, b.stopPrice));
        sells.sort((a, b) -> Long.compare(b.stopPrice, a.stopPrice));
        for (RefOrder o : buys) {
            waiting.get(symbolId).remove(o);
            queue.addLast(o);
        }
        for (RefOrder o : sells) {
            waiting.get(symbolId).remove(o);
            queue.addLast(o);
        }
    }

    /** MATCHING.md "Order attributes" checks, in their order. */
    private static RejectReason attributesCheck(SymbolSpec spec, Command c, boolean stop, boolean limitPriced,
                                                boolean canRest) {
        if (stop && (c.stopPrice() <= 0 || c.stopPrice() > spec.maxPrice() || c.stopPrice() % spec.tickSize() != 0)
            || !stop && c.stopPrice() != 0) {
            return RejectReason.INVALID_STOP_PRICE;
        }
        if (c.maxFloor() != 0 && (!limitPriced || !canRest || c.maxFloor() < 0 || c.maxFloor() > c.quantity()
            || c.maxFloor() % spec.lotSize() != 0)) {
            return RejectReason.INVALID_MAX_FLOOR;
        }
        if (c.minQuantity() != 0 && (c.timeInForce() != TimeInForce.IOC || c.minQuantity() < 0
            || c.minQuantity() > c.quantity() || c.minQuantity() % spec.lotSize() != 0)) {
            return RejectReason.INVALID_MIN_QUANTITY;
        }
        if (c.postOnly() && (c.orderType() != OrderType.LIMIT || !canRest)) {
            return RejectReason.INVALID_POST_ONLY;
        }
        if (c.timeInForce() == TimeInForce.GTD && c.expireTimeNanos() <= c.timestampNanos()) {
            return RejectReason.INVALID_EXPIRE_TIME;
        }
        if (c.timeInForce() != TimeInForce.GTD && c.expireTimeNanos() != 0) {
            return RejectReason.EXPIRE_TIME_NOT_GTD;
        }
        return RejectReason.NONE;
    }

    /** Whether a limit price reaches the opposite side's best (a buy at or above the best ask, a sell at or below). */
    private boolean reachesOpposite(int symbolId, Side s, long price) {
        List<RefOrder> opposite = side(symbolId, s.opposite());
        if (opposite.isEmpty()) {
            return false;
        }
        long best = opposite.get(0).price;
        return s == Side.BUY ? best <= price : best >= price;
    }

    private void cancel(Command c, List<ExecutionEvent> out) {
        RefOrder o = live.get(new Key(c.owner(), c.origClientOrderId().toString()));
        RejectReason reason = targetCheck(c, o);
        if (reason != RejectReason.NONE) {
            out.add(requestReject(EventType.CANCEL_REJECTED, c, o, reason));
            return;
        }
        removeLive(o);
        out.add(orderEvent(EventType.CANCELED, c, o, c.clientOrderId().toString(), o.clientOrderId,
            OrderStatus.CANCELED, 0));
    }

    private void replace(Command c, List<ExecutionEvent> out) {
        RefOrder o = live.get(new Key(c.owner(), c.origClientOrderId().toString()));
        String newId = c.clientOrderId().toString();
        RejectReason reason = targetCheck(c, o);
        if (reason == RejectReason.NONE && waiting.get(o.symbolId).contains(o)) {
            reason = RejectReason.STOP_NOT_TRIGGERED;
        }
        if (reason == RejectReason.NONE && (marketQueues.get(o.symbolId)[o.side.ordinal()].contains(o)
            || atClose.get(o.symbolId).contains(o))) {
            reason = RejectReason.NOT_REPLACEABLE_NOW;
        }
        if (reason == RejectReason.NONE && halted.contains(o.symbolId)) {
            reason = RejectReason.SYMBOL_HALTED;
        }
        if (reason == RejectReason.NONE && sessions.get(o.symbolId).phase == TradingPhase.CLOSED) {
            reason = RejectReason.MARKET_CLOSED;
        }
        if (reason == RejectReason.NONE && newId.isEmpty()) {
            reason = RejectReason.MISSING_CLIENT_ORDER_ID;
        }
        if (reason == RejectReason.NONE && isLive(c.owner(), newId)) {
            reason = RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        if (reason == RejectReason.NONE) {
            SymbolSpec spec = symbols.get(o.symbolId);
            reason = quantityCheck(spec, c.quantity());
            if (reason == RejectReason.NONE) {
                reason = priceCheck(spec, c.price());
            }
        }
        if (reason == RejectReason.NONE && c.quantity() <= o.cum) {
            reason = RejectReason.QUANTITY_NOT_ABOVE_FILLED;
        }
        if (reason == RejectReason.NONE && o.postOnly && sessions.get(o.symbolId).phase == TradingPhase.CONTINUOUS
            && reachesOpposite(o.symbolId, o.side, c.price())) {
            reason = RejectReason.POST_ONLY_WOULD_TAKE;
        }
        boolean losesPriority = o != null && !(c.price() == o.price && c.quantity() <= o.quantity);
        if (reason == RejectReason.NONE && losesPriority) {
            // "A replace that keeps priority only lowers risk and is not checked"; else as a new limit order
            // without the open orders limit.
            reason = riskCheck(c.owner(), o.symbolId, false, o.timeInForce, c.price(), c.quantity(), false);
        }
        if (reason != RejectReason.NONE) {
            ExecutionEvent e = requestReject(EventType.REPLACE_REJECTED, c, o, reason);
            if (reason.isPreTradeRisk()) {
                e.risk(riskValue, riskLow, riskHigh);
            }
            out.add(e);
            return;
        }

        String oldId = o.clientOrderId;
        boolean keepsPlace = c.price() == o.price && c.quantity() <= o.quantity;
        live.remove(new Key(o.owner, oldId));
        o.clientOrderId = newId;
        live.put(new Key(o.owner, newId), o);
        List<RefOrder> mySide = side(o.symbolId, o.side);
        if (!keepsPlace) {
            mySide.remove(o);
        }
        o.price = c.price();
        o.quantity = c.quantity();
        o.leaves = c.quantity() - o.cum;
        out.add(orderEvent(EventType.REPLACED, c, o, newId, oldId, o.currentStatus(), o.leaves));
        if (keepsPlace) {
            // "leaves the displayed part at min(displayed, new leaves)"
            o.shown = o.maxFloor == 0 ? o.leaves : Math.min(o.shown, o.leaves);
            return;
        }
        // "in a call it only moves"
        boolean stopped = sessions.get(o.symbolId).phase == TradingPhase.CONTINUOUS
            && trade(o, c, out, band(o.symbolId));
        if (o.leaves == 0) {
            live.remove(new Key(o.owner, o.clientOrderId));
        } else if (stopped) {
            live.remove(new Key(o.owner, o.clientOrderId));
            out.add(orderEvent(EventType.CANCELED, c, o, o.clientOrderId, "", OrderStatus.CANCELED, 0)
                .rejectReason(RejectReason.SELF_TRADE_INCOMING));
        } else {
            rest(o);
        }
        runTriggers(o.symbolId, c, out);
    }

    private void status(Command c, List<ExecutionEvent> out) {
        RefOrder o = live.get(new Key(c.owner(), c.clientOrderId().toString()));
        RejectReason reason = targetCheck(c, o);
        if (reason != RejectReason.NONE) {
            // Unknown: status REJECTED. Wrong side or symbol: the live order's state (as for the other rejects).
            out.add(requestReject(EventType.STATUS, c, o, reason));
            return;
        }
        // STATUS events carry exec id 0 and consume none.
        out.add(orderEvent(EventType.STATUS, c, o, o.clientOrderId, "", o.currentStatus(), o.leaves, 0));
    }

    /**
     * Every live order of the owner leaves the book with a CANCELED (own client order id, no orig id, leaves 0),
     * "most recently rested first". Read here as: in reverse order of first resting, i.e. of acceptance (order id);
     * a replace that sent the order to the back of a level does not make it "more recently rested".
     */
    private void cancelAll(Command c, List<ExecutionEvent> out, RejectReason reason) {
        List<RefOrder> mine = new ArrayList<>();
        for (RefOrder o : live.values()) {
            if (o.owner == c.owner()) {
                mine.add(o);
            }
        }
        mine.sort((a, b) -> Long.compare(b.orderId, a.orderId));
        for (RefOrder o : mine) {
            removeLive(o);
            out.add(orderEvent(EventType.CANCELED, c, o, o.clientOrderId, "", OrderStatus.CANCELED, 0)
                .rejectReason(reason));
        }
    }

    /**
     * "Every live DAY order expires, book by book (symbol id order): bids then asks in priority order, then the waiting
     * buy stops and sell stops in trigger order."
     */
    private void expireDayOrders(Command c, List<ExecutionEvent> out) {
        for (int symbol = 0; symbol < symbols.size(); symbol++) {
            expireDayOrdersOf(symbol, c, out);
        }
    }

    /** One book's DAY orders: bids, asks, waiting buy stops, sell stops (trigger order), a call's market orders. */
    private void expireDayOrdersOf(int symbol, Command c, List<ExecutionEvent> out) {
        List<RefOrder> due = new ArrayList<>();
        for (Side s : new Side[] {Side.BUY, Side.SELL}) {
            due.addAll(side(symbol, s));
        }
        List<RefOrder> buyStops = new ArrayList<>();
        List<RefOrder> sellStops = new ArrayList<>();
        for (RefOrder o : waiting.get(symbol)) {
            (o.side == Side.BUY ? buyStops : sellStops).add(o);
        }
        buyStops.sort((a, b) -> Long.compare(a.stopPrice, b.stopPrice));
        sellStops.sort((a, b) -> Long.compare(b.stopPrice, a.stopPrice));
        due.addAll(buyStops);
        due.addAll(sellStops);
        due.addAll(marketQueues.get(symbol)[0]);
        due.addAll(marketQueues.get(symbol)[1]);
        for (RefOrder o : due) {
            if (o.timeInForce == TimeInForce.DAY) {
                removeLive(o);
                out.add(orderEvent(EventType.EXPIRED, c, o, o.clientOrderId, "", OrderStatus.EXPIRED, 0)
                    .rejectReason(RejectReason.DAY_ENDED));
            }
        }
    }

    // ------------------------------------------------------------------------------------ risk, self-trade

    private long riskValue;
    private long riskLow;
    private long riskHigh;

    private long setting(int owner, SessionControl control) {
        Map<SessionControl, Long> mine = settings.get(owner);
        return mine == null ? 0 : mine.getOrDefault(control, 0L);
    }

    private SelfTradePrevention stpMode(int owner) {
        return SelfTradePrevention.ofCode(setting(owner, SessionControl.SELF_TRADE_PREVENTION));
    }

    private boolean sameParty(int incoming, int resting) {
        long firm = setting(incoming, SessionControl.FIRM);
        return incoming == resting || (firm != 0 && firm == setting(resting, SessionControl.FIRM));
    }

    private long reference(int symbolId) {
        long last = lastTrade.getOrDefault(symbolId, 0L);
        return last != 0 ? last : referencePrice.getOrDefault(symbolId, 0L);
    }

    /**
     * docs/MATCHING.md, "Pre-trade risk", in its order: kill switch, order quantity, notional (a market order at the
     * reference price; none: refused), price collar (limit prices, when there is a reference), open orders (new
     * DAY/GTC limit orders only). Written with BigInteger so that no overflow can hide a difference.
     */
    private RejectReason riskCheck(int owner, int symbolId, boolean market, TimeInForce tif, long price,
                                   long quantity, boolean newOrder) {
        riskValue = 0;
        riskLow = 0;
        riskHigh = 0;
        SymbolSpec spec = symbols.get(symbolId);
        if (killSwitched.contains(owner)) {
            return RejectReason.KILL_SWITCH_ENGAGED;
        }
        long maxQty = setting(owner, SessionControl.MAX_ORDER_QUANTITY);
        if (maxQty > 0 && quantity > maxQty) {
            riskValue = quantity;
            riskHigh = maxQty;
            return RejectReason.RISK_ORDER_QUANTITY;
        }
        long maxNotional = setting(owner, SessionControl.MAX_NOTIONAL);
        if (maxNotional > 0) {
            long valuedAt = market ? reference(symbolId) : price;
            if (valuedAt == 0) {
                return RejectReason.RISK_NO_REFERENCE_PRICE;
            }
            java.math.BigInteger notional = java.math.BigInteger.valueOf(valuedAt)
                .multiply(java.math.BigInteger.valueOf(quantity));
            java.math.BigInteger limit = java.math.BigInteger.valueOf(maxNotional)
                .multiply(java.math.BigInteger.TEN.pow(spec.priceScale()));
            if (notional.compareTo(limit) > 0) {
                riskValue = notional.longValueExact();
                riskHigh = limit.min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValue();
                return RejectReason.RISK_NOTIONAL;
            }
        }
        long basisPoints = setting(owner, SessionControl.PRICE_COLLAR_BASIS_POINTS);
        long ticks = setting(owner, SessionControl.PRICE_COLLAR_TICKS);
        long ref = reference(symbolId);
        if (!market && (basisPoints != 0 || ticks != 0) && ref != 0) {
            java.math.BigInteger offset = basisPoints != 0
                ? java.math.BigInteger.valueOf(ref).multiply(java.math.BigInteger.valueOf(basisPoints))
                    .divide(java.math.BigInteger.valueOf(10_000))
                : java.math.BigInteger.valueOf(ticks).multiply(java.math.BigInteger.valueOf(spec.tickSize()));
            java.math.BigInteger max = java.math.BigInteger.valueOf(Long.MAX_VALUE);
            long low = java.math.BigInteger.valueOf(ref).subtract(offset).max(java.math.BigInteger.valueOf(
                Long.MIN_VALUE)).longValue();
            long high = java.math.BigInteger.valueOf(ref).add(offset).min(max).longValue();
            if (price < low || price > high) {
                riskValue = price;
                riskLow = low;
                riskHigh = high;
                return RejectReason.RISK_PRICE_COLLAR;
            }
        }
        long maxOpen = setting(owner, SessionControl.MAX_OPEN_ORDERS);
        if (newOrder && maxOpen > 0 && !market && (tif == TimeInForce.DAY || tif == TimeInForce.GTC
            || tif == TimeInForce.GTD || tif == TimeInForce.AT_THE_OPENING || tif == TimeInForce.AT_THE_CLOSE)) {
            long open = live.values().stream().filter(o -> o.owner == owner).count();
            if (open >= maxOpen) {
                riskValue = open;
                riskHigh = maxOpen;
                return RejectReason.RISK_OPEN_ORDERS;
            }
        }
        return RejectReason.NONE;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /**
     * The aggressor trades against the opposite side, best price first, oldest first, at the resting price. An
     * order of its own party met on the way: cancel-resting cancels it and goes on, cancel-incoming stops (true),
     * cancel-both cancels it and stops (true).
     */
    private boolean trade(RefOrder aggressor, Command c, List<ExecutionEvent> out, long[] band) {
        List<RefOrder> opposite = side(aggressor.symbolId, aggressor.side.opposite());
        SelfTradePrevention mode = stpMode(aggressor.owner);
        int at = 0;
        while (aggressor.leaves > 0 && at < opposite.size()) {
            RefOrder resting = opposite.get(at);
            if (!acceptable(aggressor, resting.price)) {
                break;
            }
            if (band != null && (resting.price < band[0] || resting.price > band[1])) {
                startInterruption(aggressor.symbolId); // "it would trade outside the band: an auction instead"
                return false;
            }
            if (mode != SelfTradePrevention.NONE && sameParty(aggressor.owner, resting.owner)) {
                if (mode == SelfTradePrevention.CANCEL_INCOMING) {
                    return true;
                }
                opposite.remove(at);
                live.remove(new Key(resting.owner, resting.clientOrderId));
                out.add(orderEvent(EventType.CANCELED, c, resting, resting.clientOrderId, "", OrderStatus.CANCELED, 0)
                    .rejectReason(RejectReason.SELF_TRADE_RESTING));
                if (mode == SelfTradePrevention.CANCEL_BOTH) {
                    return true;
                }
                continue;
            }
            // "trades against it take at most its displayed part"
            long qty = Math.min(aggressor.leaves, resting.shown);
            long px = resting.price;
            aggressor.leaves -= qty;
            aggressor.cum += qty;
            aggressor.cumNotional += qty * px;
            resting.leaves -= qty;
            resting.shown -= qty;
            resting.cum += qty;
            resting.cumNotional += qty * px;
            lastTrade.put(aggressor.symbolId, px);
            out.add(fillEvent(c, aggressor, qty, px));
            out.add(fillEvent(c, resting, qty, px));
            if (resting.leaves == 0) {
                opposite.remove(at);
                live.remove(new Key(resting.owner, resting.clientOrderId));
            } else if (resting.shown == 0) {
                // "it shows min(max floor, leaves) again and goes to the back of its level"
                opposite.remove(at);
                rest(resting);
                refills++;
            }
        }
        return false;
    }

    private static boolean limitPriced(OrderType type) {
        return type == OrderType.LIMIT || type == OrderType.STOP_LIMIT;
    }

    private static boolean acceptable(RefOrder aggressor, long restingPrice) {
        if (aggressor.orderType == OrderType.MARKET || aggressor.orderType == OrderType.STOP) {
            return true;
        }
        return aggressor.side == Side.BUY ? restingPrice <= aggressor.price : restingPrice >= aggressor.price;
    }

    /** Puts the order behind every order of its side with the same or a better price, showing its displayed part. */
    private void rest(RefOrder o) {
        o.sequence = ++lastSequence;
        o.shown = o.maxFloor == 0 ? o.leaves : Math.min(o.maxFloor, o.leaves);
        List<RefOrder> list = side(o.symbolId, o.side);
        int i = 0;
        while (i < list.size() && !strictlyBetter(o.side, o.price, list.get(i).price)) {
            i++;
        }
        list.add(i, o);
    }

    private static boolean strictlyBetter(Side side, long a, long b) {
        return side == Side.BUY ? a > b : a < b;
    }

    private List<RefOrder> side(int symbolId, Side side) {
        return books.get(symbolId)[side.ordinal()];
    }

    private static RejectReason quantityCheck(SymbolSpec spec, long quantity) {
        if (quantity <= 0) {
            return RejectReason.QUANTITY_NOT_POSITIVE;
        }
        if (quantity > spec.maxQuantity()) {
            return RejectReason.QUANTITY_TOO_LARGE;
        }
        if (quantity % spec.lotSize() != 0) {
            return RejectReason.QUANTITY_NOT_LOT_MULTIPLE;
        }
        return RejectReason.NONE;
    }

    private static RejectReason priceCheck(SymbolSpec spec, long price) {
        if (price <= 0) {
            return RejectReason.PRICE_NOT_POSITIVE;
        }
        if (price > spec.maxPrice()) {
            return RejectReason.PRICE_TOO_LARGE;
        }
        if (price % spec.tickSize() != 0) {
            return RejectReason.PRICE_NOT_ON_TICK;
        }
        return RejectReason.NONE;
    }

    private static RejectReason targetCheck(Command c, RefOrder o) {
        if (o == null) {
            return RejectReason.UNKNOWN_ORDER;
        }
        if (o.symbolId != c.symbolId() || o.side != c.side()) {
            return RejectReason.SIDE_OR_SYMBOL_MISMATCH;
        }
        return RejectReason.NONE;
    }

    /**
     * Reject of a cancel, replace or status request: the request's client order id, orig id, symbol, side, type,
     * time in force, price and quantity (cancel and status requests: LIMIT, DAY, 0, 0); the named live order's id,
     * leaves, cum, notional and status, if there is one.
     */
    private static ExecutionEvent requestReject(EventType type, Command c, RefOrder o, RejectReason reason) {
        ExecutionEvent e = new ExecutionEvent().begin(type, c.timestampNanos(), c.owner());
        e.clientOrderId().copyFrom(c.clientOrderId());
        e.origClientOrderId().copyFrom(c.origClientOrderId());
        if (c.type() == CommandType.REPLACE) {
            e.order(c.symbolId(), c.side(), c.orderType(), c.timeInForce(), c.price(), c.quantity());
        } else {
            e.order(c.symbolId(), c.side(), OrderType.LIMIT, TimeInForce.DAY, 0, 0);
        }
        if (o == null) {
            e.ids(0, 0).quantities(0, 0, 0).status(OrderStatus.REJECTED);
        } else {
            e.ids(o.orderId, 0).quantities(o.leaves, o.cum, o.cumNotional).status(o.currentStatus());
        }
        return e.rejectReason(reason);
    }

    private ExecutionEvent fillEvent(Command c, RefOrder o, long qty, long px) {
        ExecutionEvent e = orderEvent(EventType.FILL, c, o, o.clientOrderId, "",
            o.leaves == 0 ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED, o.leaves);
        return e.lastFill(qty, px);
    }

    /** An execution about an order: it takes the next exec id. */
    private ExecutionEvent orderEvent(EventType type, Command c, RefOrder o, String clientOrderId, String origId,
                                      OrderStatus status, long leaves) {
        return orderEvent(type, c, o, clientOrderId, origId, status, leaves, ++lastExecId);
    }

    private static ExecutionEvent orderEvent(EventType type, Command c, RefOrder o, String clientOrderId,
                                             String origId, OrderStatus status, long leaves, long execId) {
        ExecutionEvent e = new ExecutionEvent().begin(type, c.timestampNanos(), o.owner);
        e.clientOrderId().copyFrom(clientOrderId);
        e.origClientOrderId().copyFrom(origId);
        return e.ids(o.orderId, execId)
            .order(o.symbolId, o.side, o.orderType, o.timeInForce, o.price, o.quantity)
            .quantities(leaves, o.cum, o.cumNotional)
            .attributes(o.stopPrice, o.expireTime)
            .status(status);
    }
}
