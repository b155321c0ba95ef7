package io.fixmatch.engine.reference;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.engine.matching.RestingOrderView;
import io.fixmatch.engine.reference.CommandGenerator.Step;
import io.fixmatch.engine.reference.ReferenceEngine.RefOrder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Drives the real {@link MatchingEngine} and the {@link ReferenceEngine} with the same commands (and refusals) and
 * checks, after every one, that they reported the same events and hold the same books, and that the real engine keeps its
 * invariants. The first problem stops the run and is returned as a {@link Mismatch}.
 */
final class DifferentialRun {
    /**
     * Orders and price levels the engine may hold: well above what a run holds (a few hundred orders), as the
     * reference does not model BOOK_FULL, yet small enough that a leaked order or level would end in BOOK_FULL on a
     * long run, and that the hash indexes see collisions. {@code -Dfixmatch.reference.capacity=512} squeezes more.
     */
    static final int CAPACITY = Integer.getInteger("fixmatch.reference.capacity", 2048);

    enum Kind { EVENTS, BOOK, INVARIANT }

    /** The first disagreement: at which command, of which kind, and everything needed to see it. */
    record Mismatch(int index, Step step, Kind kind, String detail, List<String> expected,
                    List<String> actual, List<Step> steps) {
    }

    /** One event of the real engine, copied (the engine reuses its event object). */
    private record Copied(String text, EventType type, long orderId, long execId, int symbolId, Side side,
                          long orderQuantity, long lastQuantity, long lastPrice, long leaves, long cum,
                          long cumNotional, OrderStatus status, RejectReason rejectReason) {
        static Copied of(ExecutionEvent e) {
            return new Copied(e.toString(), e.type(), e.orderId(), e.execId(), e.symbolId(), e.side(),
                e.orderQuantity(), e.lastQuantity(), e.lastPrice(), e.leavesQuantity(), e.cumQuantity(),
                e.cumNotional(), e.status(), e.rejectReason());
        }
    }

    private final ReferenceEngine reference = new ReferenceEngine(CommandGenerator.SYMBOLS);
    private final List<Copied> engineEvents = new ArrayList<>();
    private final MatchingEngine engine = new MatchingEngine(
        new EngineConfig(CommandGenerator.SYMBOLS, CAPACITY, CAPACITY), e -> engineEvents.add(Copied.of(e)));
    private final List<Step> steps = new ArrayList<>();

    // Invariant state, from the real engine's events only.
    private long lastExecId;
    private long lastOrderId;
    private final long[] boughtPerSymbol = new long[CommandGenerator.SYMBOLS.size()];
    private final long[] soldPerSymbol = new long[CommandGenerator.SYMBOLS.size()];
    /** Per order id: quantity and notional summed from its FILL events. */
    private long[] filledPerOrder = new long[1024];
    private long[] notionalPerOrder = new long[1024];

    ReferenceEngine reference() {
        return reference;
    }

    /** Runs {@code count} steps from {@code source} (which may look at {@link #reference()}). */
    static Mismatch run(int count, Supplier<Step> source, DifferentialRun run) {
        for (int i = 0; i < count; i++) {
            Mismatch m = run.step(source.get());
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    /** Replays a fixed list of steps on fresh engines. */
    static Mismatch replay(List<Step> steps) {
        DifferentialRun run = new DifferentialRun();
        for (Step step : steps) {
            Mismatch m = run.step(step);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    Mismatch step(Step step) {
        int index = steps.size();
        steps.add(step);
        Command command = step.command();
        List<String> expected = new ArrayList<>();
        List<ExecutionEvent> referenceEvents = step.refusal() == null
            ? reference.process(command)
            : reference.refuse(command, step.refusal());
        for (ExecutionEvent e : referenceEvents) {
            expected.add(e.toString());
        }
        engineEvents.clear();
        if (step.refusal() == null) {
            engine.process(command);
        } else {
            engine.refuse(command, step.refusal());
        }
        List<String> actual = new ArrayList<>(engineEvents.size());
        for (Copied e : engineEvents) {
            actual.add(e.text);
        }
        if (!expected.equals(actual)) {
            return new Mismatch(index, step, Kind.EVENTS, "different events", expected, actual, steps);
        }
        String problem = checkEventInvariants();
        if (problem == null) {
            problem = checkBooks();
        }
        if (problem == null && engine.lastOrderId() != reference.lastOrderId()) {
            problem = "engine.lastOrderId()=" + engine.lastOrderId() + " but reference " + reference.lastOrderId();
        }
        if (problem == null && engine.lastExecId() != reference.lastExecId()) {
            problem = "engine.lastExecId()=" + engine.lastExecId() + " but reference " + reference.lastExecId()
                + " (last exec id seen in an event: " + lastExecId + ")";
        }
        if (problem != null) {
            Kind kind = problem.startsWith("book") ? Kind.BOOK : Kind.INVARIANT;
            return new Mismatch(index, step, kind, problem, expected, actual, steps);
        }
        return null;
    }

    /** Invariants of the real engine's events: ids, fills in pairs, quantities that add up. */
    private String checkEventInvariants() {
        for (int i = 0; i < engineEvents.size(); i++) {
            Copied e = engineEvents.get(i);
            if (e.execId != 0) {
                if (e.execId != lastExecId + 1) {
                    return "exec ids not consecutive: " + e.execId + " after " + lastExecId + " in " + e.text;
                }
                lastExecId = e.execId;
            }
            if (e.type == EventType.ACCEPTED) {
                if (e.orderId != lastOrderId + 1) {
                    return "order ids not consecutive: " + e.orderId + " after " + lastOrderId;
                }
                lastOrderId = e.orderId;
                if (lastOrderId >= filledPerOrder.length) {
                    filledPerOrder = Arrays.copyOf(filledPerOrder, filledPerOrder.length * 2);
                    notionalPerOrder = Arrays.copyOf(notionalPerOrder, notionalPerOrder.length * 2);
                }
            }
            if (e.type == EventType.CANCELED && e.leaves != 0) {
                return "CANCELED with leaves " + e.leaves + ": " + e.text;
            }
            boolean liveState = e.type == EventType.ACCEPTED || e.type == EventType.FILL
                || e.type == EventType.REPLACED || (e.type == EventType.STATUS && e.rejectReason == RejectReason.NONE);
            if (liveState && e.orderQuantity != e.leaves + e.cum) {
                return "orderQty != leaves + cum: " + e.text;
            }
            if (e.type == EventType.FILL) {
                if (i + 1 >= engineEvents.size() || engineEvents.get(i + 1).type != EventType.FILL) {
                    return "FILL without its counterpart: " + e.text;
                }
                Copied other = engineEvents.get(i + 1);
                if (other.symbolId != e.symbolId || other.side == e.side || other.lastQuantity != e.lastQuantity
                    || other.lastPrice != e.lastPrice || e.lastQuantity <= 0) {
                    return "FILL pair does not match: " + e.text + " / " + other.text;
                }
                for (Copied fill : new Copied[] {e, other}) {
                    int id = (int) fill.orderId;
                    if (fill.orderId <= 0 || fill.orderId > lastOrderId) {
                        return "FILL of an order that was never accepted: " + fill.text;
                    }
                    filledPerOrder[id] += fill.lastQuantity;
                    notionalPerOrder[id] += fill.lastQuantity * fill.lastPrice;
                    if (filledPerOrder[id] != fill.cum || notionalPerOrder[id] != fill.cumNotional) {
                        return "cum/notional do not add up to the fills (" + filledPerOrder[id] + ", "
                            + notionalPerOrder[id] + "): " + fill.text;
                    }
                    if (fill.side == Side.BUY) {
                        boughtPerSymbol[fill.symbolId] += fill.lastQuantity;
                    } else {
                        soldPerSymbol[fill.symbolId] += fill.lastQuantity;
                    }
                }
                i++;
                if (other.execId != lastExecId + 1) {
                    return "exec ids not consecutive: " + other.execId + " after " + lastExecId;
                }
                lastExecId = other.execId;
            }
        }
        for (int s = 0; s < boughtPerSymbol.length; s++) {
            if (boughtPerSymbol[s] != soldPerSymbol[s]) {
                return "symbol " + s + ": bought " + boughtPerSymbol[s] + " but sold " + soldPerSymbol[s];
            }
        }
        return null;
    }

    /** The engine's books against the reference's, order by order, and the engine's own book invariants. */
    private String checkBooks() {
        for (int symbol = 0; symbol < CommandGenerator.SYMBOLS.size(); symbol++) {
            long bestBid = 0;
            long bestAsk = 0;
            for (Side side : Side.values()) {
                BookComparison c = new BookComparison(symbol, side, reference.restingView(symbol, side));
                engine.forEachRestingOrder(symbol, side, c::visit);
                if (c.problem == null && c.count != c.expected.size()) {
                    c.problem = "engine has " + c.count + " orders, reference " + c.expected.size();
                }
                if (c.problem != null) {
                    return "book of symbol " + symbol + " " + side + ": " + c.problem
                        + "\n  reference: " + describe(c.expected) + "\n  engine:    " + describeEngine(symbol, side);
                }
                if (c.count > 0) {
                    if (side == Side.BUY) {
                        bestBid = c.first;
                    } else {
                        bestAsk = c.first;
                    }
                }
            }
            if (bestBid != 0 && bestAsk != 0 && bestBid >= bestAsk && !engine.phase(symbol).isCall()
                && !reference.haltedSymbols().contains(symbol)) {
                return "book of symbol " + symbol + " crossed: best bid " + bestBid + " >= best ask " + bestAsk;
            }
            List<String> engineStops = new ArrayList<>();
            for (Side side : Side.values()) {
                engine.forEachWaitingStop(symbol, side, o -> engineStops.add(describe(o) + " stop=" + o.stopPrice()));
            }
            engineStops.sort(null);
            List<String> referenceStops = new ArrayList<>();
            for (RefOrder r : reference.waitingStops(symbol)) {
                referenceStops.add(describe(r) + " stop=" + r.stopPrice);
            }
            referenceStops.sort(null);
            if (!engineStops.equals(referenceStops)) {
                return "book of symbol " + symbol + ": waiting stops differ\n  reference: " + referenceStops
                    + "\n  engine:    " + engineStops;
            }
            List<String> engineQueued = new ArrayList<>();
            for (Side side : Side.values()) {
                engine.forEachQueuedOrder(symbol, side, o -> engineQueued.add(describe(o)));
            }
            engineQueued.sort(null);
            List<String> referenceQueued = new ArrayList<>();
            for (RefOrder r : reference.queued(symbol)) {
                referenceQueued.add(describe(r));
            }
            referenceQueued.sort(null);
            if (!engineQueued.equals(referenceQueued)) {
                return "book of symbol " + symbol + ": queued orders differ\n  reference: " + referenceQueued
                    + "\n  engine:    " + engineQueued;
            }
            if (engine.phase(symbol) != reference.phase(symbol)) {
                return "phase of symbol " + symbol + ": engine " + engine.phase(symbol) + ", reference "
                    + reference.phase(symbol);
            }
            if (!Arrays.equals(engine.indicative(symbol), reference.indicative(symbol))) {
                return "indicative uncross of symbol " + symbol + " (price, volume): engine "
                    + Arrays.toString(engine.indicative(symbol)) + ", brute force " + Arrays.toString(
                    reference.indicative(symbol));
            }
        }
        if (engine.nextDeadlineNanos() != reference.nextDeadline()) {
            return "next deadline: engine " + engine.nextDeadlineNanos() + ", reference " + reference.nextDeadline();
        }
        return null;
    }

    /** Compares as it visits, without allocating; keeps the first problem. */
    private final class BookComparison {
        final int symbol;
        final Side side;
        final List<RefOrder> expected;
        int count;
        long first;
        long previousPrice;
        String problem;

        BookComparison(int symbol, Side side, List<RefOrder> expected) {
            this.symbol = symbol;
            this.side = side;
            this.expected = expected;
        }

        void visit(RestingOrderView o) {
            int i = count++;
            if (problem != null) {
                return;
            }
            if (i == 0) {
                first = o.price();
            } else if (side == Side.BUY ? o.price() > previousPrice : o.price() < previousPrice) {
                problem = "levels out of price order at position " + i;
                return;
            }
            previousPrice = o.price();
            if (o.leavesQuantity() <= 0 || o.orderQuantity() != o.leavesQuantity() + o.cumQuantity()
                || o.symbolId() != symbol || o.side() != side) {
                problem = "bad resting order at position " + i + ": " + describe(o);
                return;
            }
            if (o.orderId() <= 0 || o.orderId() > lastOrderId) {
                problem = "resting order with an id never accepted: " + describe(o);
                return;
            }
            long filled = filledPerOrder[(int) o.orderId()];
            long notional = notionalPerOrder[(int) o.orderId()];
            if (filled != o.cumQuantity() || notional != o.cumNotional()) {
                problem = "resting order's cum/notional differ from its FILL events (" + filled + ", " + notional
                    + "): " + describe(o);
                return;
            }
            if (i >= expected.size()) {
                problem = "extra order at position " + i;
                return;
            }
            RefOrder r = expected.get(i);
            if (r.orderId != o.orderId() || r.owner != o.owner() || !sameId(r.clientOrderId, o)
                || r.price != o.price() || r.quantity != o.orderQuantity() || r.leaves != o.leavesQuantity()
                || r.cum != o.cumQuantity() || r.cumNotional != o.cumNotional()
                || r.timeInForce != o.timeInForce() || r.shown != o.displayedQuantity()
                || r.orderType != o.orderType() || r.stopPrice != o.stopPrice() || r.expireTime != o.expireTimeNanos()) {
                problem = "position " + i + " differs: reference " + describe(r) + ", engine " + describe(o);
            }
        }
    }

    private static boolean sameId(String expected, RestingOrderView o) {
        ClientOrderId actual = o.clientOrderId();
        int length = expected.length();
        if (length != actual.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if ((byte) expected.charAt(i) != actual.byteAt(i)) {
                return false;
            }
        }
        return true;
    }

    private String describeEngine(int symbol, Side side) {
        List<String> all = new ArrayList<>();
        engine.forEachRestingOrder(symbol, side, o -> all.add(describe(o)));
        return all.toString();
    }

    private static String describe(List<RefOrder> orders) {
        List<String> all = new ArrayList<>();
        for (RefOrder r : orders) {
            all.add(describe(r));
        }
        return all.toString();
    }

    static String describe(RefOrder r) {
        return "#" + r.orderId + " o" + r.owner + " " + r.clientOrderId + " " + r.timeInForce + " " + r.leaves + "/"
            + r.quantity + "@" + r.price + " cum=" + r.cum + " notional=" + r.cumNotional + " shown=" + r.shown;
    }

    static String describe(RestingOrderView o) {
        return "#" + o.orderId() + " o" + o.owner() + " " + o.clientOrderId() + " " + o.timeInForce() + " "
            + o.leavesQuantity() + "/" + o.orderQuantity() + "@" + o.price() + " cum=" + o.cumQuantity()
            + " notional=" + o.cumNotional() + " shown=" + o.displayedQuantity();
    }
}
