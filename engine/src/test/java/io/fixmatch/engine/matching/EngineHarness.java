package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.testing.RecordingSink;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Shared fixture of the matching rule tests: "given these commands, exactly these events".
 *
 * <p>An engine with two symbols. Each command sent through the harness gets the next timestamp (1, 2, 3, ... unless
 * {@link #at} sets one) and its events are kept; {@link #expect} compares them, complete and in order, with the
 * expected events, written with {@link Ord} (an order as sent), {@link Req} (a cancel, replace or status request)
 * and {@link Ev} (one expected event, rendered through {@link ExecutionEvent#toString()} so every field counts).
 */
final class EngineHarness {
    /** Owners (sessions). */
    static final int A = 1;
    static final int B = 2;
    static final int C = 3;

    /** Symbol 0: tick 5, lot 10, prices up to 100,000, orders up to 10,000. */
    static final int SYM = 0;
    /** Symbol 1: tick 1, lot 1, prices up to 1,000,000, orders up to 1,000,000. */
    static final int SYM2 = 1;

    static final SymbolSpec ACME = new SymbolSpec("ACME", 2, 5, 10, 100_000, 10_000);
    static final SymbolSpec BETA = new SymbolSpec("BETA", 0, 1, 1, 1_000_000, 1_000_000);

    final MatchingEngine engine;
    private final RecordingSink sink = new RecordingSink();
    private final Command command = new Command();
    private long timestamp;
    private Long nextTimestamp;
    private String lastCommand = "(none)";
    private List<String> lastEvents = List.of();

    private EngineHarness(int maxOrders, int maxPriceLevels) {
        engine = new MatchingEngine(new EngineConfig(List.of(ACME, BETA), maxOrders, maxPriceLevels), sink);
    }

    static EngineHarness create() {
        return new EngineHarness(1_000, 1_000);
    }

    static EngineHarness withCapacity(int maxOrders, int maxPriceLevels) {
        return new EngineHarness(maxOrders, maxPriceLevels);
    }

    /** The next command gets this timestamp (later ones continue from it). */
    EngineHarness at(long timestampNanos) {
        nextTimestamp = timestampNanos;
        return this;
    }

    // ---------------------------------------------------------------- commands

    Ord order(int owner, String id, int symbol, Side side, OrderType type, TimeInForce tif, long price, long qty) {
        send(command.newOrder(owner, id, symbol, side, type, tif, price, qty));
        return new Ord(owner, id, symbol, side, type, tif, price, qty);
    }

    /** A DAY limit order on {@link #SYM}. */
    Ord buy(int owner, String id, long price, long qty) {
        return order(owner, id, SYM, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, price, qty);
    }

    /** A DAY limit order on {@link #SYM}. */
    Ord sell(int owner, String id, long price, long qty) {
        return order(owner, id, SYM, Side.SELL, OrderType.LIMIT, TimeInForce.DAY, price, qty);
    }

    /** A limit order with the given time in force on {@link #SYM}. */
    Ord limit(int owner, String id, Side side, TimeInForce tif, long price, long qty) {
        return order(owner, id, SYM, side, OrderType.LIMIT, tif, price, qty);
    }

    /** A market order (time in force DAY, price 0) on {@link #SYM}. */
    Ord market(int owner, String id, Side side, long qty) {
        return order(owner, id, SYM, side, OrderType.MARKET, TimeInForce.DAY, 0, qty);
    }

    /** A new order built by the caller (with attributes: stop price, MaxFloor, MinQty, expire time, post-only). */
    Ord order(Command c) {
        send(c);
        return new Ord(c.owner(), c.clientOrderId().toString(), c.symbolId(), c.side(), c.orderType(),
            c.timeInForce(), c.price(), c.quantity()).attributes(c.stopPrice(), c.expireTimeNanos());
    }

    /** The server's TIMER: only the engine's due work (GTD expiries). */
    void timer() {
        send(new Command().timer());
    }

    /** Cancels {@code target} (its owner, symbol and side) with request id {@code id}. */
    Req cancel(Ord target, String id) {
        return cancel(target.owner, id, target.id, target.symbol, target.side).target(target);
    }

    Req cancel(int owner, String id, String origId, int symbol, Side side) {
        send(command.cancel(owner, id, origId, symbol, side));
        return new Req(CommandType.CANCEL, owner, id, origId, symbol, side, 0, 0);
    }

    /** Replaces {@code target} (its owner, symbol and side) with a new id, price and total quantity. */
    Req replace(Ord target, String newId, long price, long qty) {
        return replace(target.owner, newId, target.id, target.symbol, target.side, price, qty).target(target);
    }

    Req replace(int owner, String newId, String origId, int symbol, Side side, long price, long qty) {
        send(command.replace(owner, newId, origId, symbol, side, price, qty));
        return new Req(CommandType.REPLACE, owner, newId, origId, symbol, side, price, qty);
    }

    /** Asks for the state of {@code target} (its owner, id, symbol and side). */
    Req status(Ord target) {
        return status(target.owner, target.id, target.symbol, target.side).target(target);
    }

    Req status(int owner, String id, int symbol, Side side) {
        send(command.orderStatus(owner, id, symbol, side));
        return new Req(CommandType.ORDER_STATUS, owner, id, "", symbol, side, 0, 0);
    }

    /** Sets one of the owner's risk or self-trade settings (a journaled command in the server; no event). */
    void set(int owner, io.fixmatch.engine.api.SessionControl control, long value) {
        send(new Command().setSessionControl(owner, control, value));
        expect();
    }

    /** Sends a prepared command (its timestamp is set here); the events are kept for {@link #expect}. */
    void send(Command c) {
        timestamp = nextTimestamp != null ? nextTimestamp : timestamp + 1;
        nextTimestamp = null;
        c.timestampNanos(timestamp);
        sink.drain();
        lastCommand = c.toString();
        engine.process(c);
        lastEvents = sink.drain();
    }

    // ---------------------------------------------------------------- assertions

    /** The last command's events, one line each (ExecutionEvent.toString), for checks on a few fields. */
    List<String> lastEvents() {
        return lastEvents;
    }

    /** The last command produced exactly these events, in this order. */
    void expect(Ev... expected) {
        List<String> texts = new ArrayList<>();
        for (Ev e : expected) {
            texts.add(e.render(timestamp));
        }
        assertEquals(String.join("\n", texts), String.join("\n", lastEvents),
            "events of " + lastCommand);
        lastEvents = List.of();
    }

    /** Resting orders of one side, best first: "A:s1 100@1000" = owner:clOrdId leaves@price. */
    List<String> book(int symbol, Side side) {
        List<String> orders = new ArrayList<>();
        engine.forEachRestingOrder(symbol, side, o ->
            orders.add(ownerName(o.owner()) + ":" + o.clientOrderId() + " " + o.leavesQuantity() + "@" + o.price()));
        return orders;
    }

    /** As {@link #book}, with what each shows: "A:s1 2/10@1000" = owner:clOrdId displayed/leaves@price. */
    List<String> displayedBook(int symbol, Side side) {
        List<String> orders = new ArrayList<>();
        engine.forEachRestingOrder(symbol, side, o -> orders.add(ownerName(o.owner()) + ":" + o.clientOrderId() + " "
            + o.displayedQuantity() + "/" + o.leavesQuantity() + "@" + o.price()));
        return orders;
    }

    /** The waiting stops of one side, in trigger order: "A:s1 10 stop 1000". */
    List<String> waitingStops(int symbol, Side side) {
        List<String> orders = new ArrayList<>();
        engine.forEachWaitingStop(symbol, side, o -> orders.add(ownerName(o.owner()) + ":" + o.clientOrderId() + " "
            + o.leavesQuantity() + " stop " + o.stopPrice()));
        return orders;
    }

    void expectBook(int symbol, Side side, String... orders) {
        assertEquals(List.of(orders), book(symbol, side), "resting orders of symbol " + symbol + " " + side);
    }

    void expectEmptyBook() {
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            expectBook(symbol, Side.BUY);
            expectBook(symbol, Side.SELL);
        }
    }

    /** Every field of every resting order of every book, best first: to show that nothing changed. */
    List<String> snapshot() {
        List<String> orders = new ArrayList<>();
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            for (Side side : Side.values()) {
                engine.forEachRestingOrder(symbol, side, o -> orders.add(describe(o)));
            }
        }
        return orders;
    }

    static String describe(RestingOrderView o) {
        return "owner=" + o.owner() + " clOrdId=" + o.clientOrderId() + " orderId=" + o.orderId()
            + " symbol=" + o.symbolId() + " side=" + o.side() + " tif=" + o.timeInForce() + " price=" + o.price()
            + " qty=" + o.orderQuantity() + " leaves=" + o.leavesQuantity() + " cum=" + o.cumQuantity()
            + " notional=" + o.cumNotional();
    }

    static String ownerName(int owner) {
        return switch (owner) {
            case A -> "A";
            case B -> "B";
            case C -> "C";
            default -> String.valueOf(owner);
        };
    }

    // ---------------------------------------------------------------- expected events

    /** A new order as sent; builds the events expected about it. */
    static final class Ord {
        final int owner;
        final String id;
        final int symbol;
        final Side side;
        final OrderType type;
        final TimeInForce tif;
        final long price;
        final long qty;
        /** The order id the engine is expected to give it: set by {@link #accepted} or {@link #id}. */
        long orderId;
        long stopPrice;
        long expireTime;

        Ord(int owner, String id, int symbol, Side side, OrderType type, TimeInForce tif, long price, long qty) {
            this.owner = owner;
            this.id = id;
            this.symbol = symbol;
            this.side = side;
            this.type = type;
            this.tif = tif;
            this.price = price;
            this.qty = qty;
        }

        Ord id(long expectedOrderId) {
            this.orderId = expectedOrderId;
            return this;
        }

        Ord attributes(long stop, long expire) {
            this.stopPrice = stop;
            this.expireTime = expire;
            return this;
        }

        /** The price the engine reports for the order: a market or stop order's price is reported as 0. */
        long reportedPrice() {
            return type.hasLimitPrice() ? price : 0;
        }

        private Ev event(EventType eventType, long execId) {
            return new Ev(eventType, owner).clOrdId(id).ids(orderId, execId)
                .order(symbol, side, type, tif, reportedPrice(), qty).attributes(stopPrice, expireTime);
        }

        /** TRIGGERED: a waiting stop reached its stop price; status NEW, leaves = quantity, reason STOP_TRIGGERED. */
        Ev triggered(long execId) {
            return event(EventType.TRIGGERED, execId).state(qty, 0, 0, OrderStatus.NEW)
                .reason(RejectReason.STOP_TRIGGERED);
        }

        /** EXPIRED at its GTD expire time: own id, leaves 0, status EXPIRED, reason GTD_EXPIRED. */
        Ev gtdExpired(long execId, long cum, long notional) {
            return event(EventType.EXPIRED, execId).state(0, cum, notional, OrderStatus.EXPIRED)
                .reason(RejectReason.GTD_EXPIRED);
        }

        /** ACCEPTED: status NEW, leaves = quantity. Remembers the order id for later events. */
        Ev accepted(long expectedOrderId, long execId) {
            this.orderId = expectedOrderId;
            return event(EventType.ACCEPTED, execId).state(qty, 0, 0, OrderStatus.NEW);
        }

        /** REJECTED new order: order id 0, nothing filled, status REJECTED. */
        Ev rejected(long execId, RejectReason reason) {
            return new Ev(EventType.REJECTED, owner).clOrdId(id).ids(0, execId)
                .order(symbol, side, type, tif, reportedPrice(), qty).attributes(stopPrice, expireTime)
                .state(0, 0, 0, OrderStatus.REJECTED).reason(reason);
        }

        /** FILL with last qty/price; leaves, cum, notional and status to be given with {@link Ev#state}. */
        Ev fill(long execId, long lastQty, long lastPx) {
            return event(EventType.FILL, execId).last(lastQty, lastPx);
        }

        /** CANCELED by its time in force (IOC/FOK/market remainder): own id, no orig id, leaves 0. */
        Ev expired(long execId, long cum, long notional) {
            return event(EventType.CANCELED, execId).state(0, cum, notional, OrderStatus.CANCELED);
        }

        /** CANCELED unsolicited for {@code reason} (self-trade prevention, kill switch): own id, leaves 0. */
        Ev canceledBy(long execId, long cum, long notional, RejectReason reason) {
            return expired(execId, cum, notional).reason(reason);
        }

        /** EXPIRED at the end of the day: own id, leaves 0, status EXPIRED, reason DAY_ENDED. */
        Ev dayExpired(long execId, long cum, long notional) {
            return event(EventType.EXPIRED, execId).state(0, cum, notional, OrderStatus.EXPIRED)
                .reason(RejectReason.DAY_ENDED);
        }

        /** The same order after a successful replace: same order id, type and time in force. */
        Ord replacedBy(String newId, long newPrice, long newQty) {
            return new Ord(owner, newId, symbol, side, type, tif, newPrice, newQty).id(orderId)
                .attributes(stopPrice, expireTime);
        }
    }

    /** A cancel, replace or status request as sent; builds the events expected in answer. */
    static final class Req {
        final CommandType kind;
        final int owner;
        final String id;
        final String origId;
        final int symbol;
        final Side side;
        final long price;
        final long qty;
        Ord target;

        Req(CommandType kind, int owner, String id, String origId, int symbol, Side side, long price, long qty) {
            this.kind = kind;
            this.owner = owner;
            this.id = id;
            this.origId = origId;
            this.symbol = symbol;
            this.side = side;
            this.price = price;
            this.qty = qty;
        }

        Req target(Ord order) {
            this.target = order;
            return this;
        }

        private EventType rejectType() {
            return switch (kind) {
                case CANCEL -> EventType.CANCEL_REJECTED;
                case REPLACE -> EventType.REPLACE_REJECTED;
                case ORDER_STATUS -> EventType.STATUS;
                default -> throw new IllegalStateException("no request reject for " + kind);
            };
        }

        /**
         * The request refused, naming no live order: the request's ids, symbol, side, price and quantity (the
         * request carries type LIMIT and time in force DAY), order id 0, exec id 0, status REJECTED.
         */
        Ev rejected(RejectReason reason) {
            return new Ev(rejectType(), owner).clOrdId(id).origClOrdId(origId).ids(0, 0)
                .order(symbol, side, OrderType.LIMIT, TimeInForce.DAY, price, qty)
                .state(0, 0, 0, OrderStatus.REJECTED).reason(reason);
        }

        /** The request refused while naming a live order: that order's id, leaves, cum, notional and status. */
        Ev rejectedLive(RejectReason reason, Ord live, long leaves, long cum, long notional, OrderStatus status) {
            return rejected(reason).ids(live.orderId, 0).state(leaves, cum, notional, status);
        }

        /** CANCELED on request: the request's id, orig id = the order's, the order's fields, leaves 0. */
        Ev canceled(long execId, long cum, long notional) {
            Ord o = target;
            return new Ev(EventType.CANCELED, o.owner).clOrdId(id).origClOrdId(o.id).ids(o.orderId, execId)
                .order(o.symbol, o.side, o.type, o.tif, o.reportedPrice(), o.qty).attributes(o.stopPrice, o.expireTime)
                .state(0, cum, notional, OrderStatus.CANCELED);
        }

        /** REPLACED: new id, orig id = old, new price and quantity; leaves/cum/notional/status via state. */
        Ev replaced(long execId) {
            Ord o = target;
            return new Ev(EventType.REPLACED, o.owner).clOrdId(id).origClOrdId(o.id).ids(o.orderId, execId)
                .order(o.symbol, o.side, o.type, o.tif, price, qty).attributes(o.stopPrice, o.expireTime);
        }

        /** The order as it is after this replace succeeded. */
        Ord replacement() {
            return target.replacedBy(id, price, qty);
        }

        /** STATUS of the live target: exec id 0, its id, no orig id; leaves/cum/notional/status via state. */
        Ev status() {
            Ord o = target;
            return new Ev(EventType.STATUS, o.owner).clOrdId(o.id).ids(o.orderId, 0)
                .order(o.symbol, o.side, o.type, o.tif, o.reportedPrice(), o.qty).attributes(o.stopPrice, o.expireTime);
        }
    }

    /** One expected event: every field of {@link ExecutionEvent}, defaults 0 / empty / null / NONE. */
    static final class Ev {
        private final EventType type;
        private final int owner;
        private String clOrdId = "";
        private String origClOrdId = "";
        private long orderId;
        private long execId;
        private int symbol;
        private Side side;
        private OrderType orderType;
        private TimeInForce tif;
        private long price;
        private long orderQty;
        private long lastQty;
        private long lastPx;
        private long leaves;
        private long cum;
        private long notional;
        private OrderStatus status;
        private RejectReason reason = RejectReason.NONE;
        private long riskValue;
        private long riskLow;
        private long riskHigh;
        private long stopPrice;
        private long expireTime;
        private long reports;
        private Long t;

        Ev(EventType type, int owner) {
            this.type = type;
            this.owner = owner;
        }

        Ev clOrdId(String value) { clOrdId = value; return this; }
        Ev origClOrdId(String value) { origClOrdId = value; return this; }
        Ev ids(long order, long exec) { orderId = order; execId = exec; return this; }

        Ev order(int symbolId, Side orderSide, OrderType ordType, TimeInForce timeInForce, long px, long qty) {
            symbol = symbolId;
            side = orderSide;
            orderType = ordType;
            tif = timeInForce;
            price = px;
            orderQty = qty;
            return this;
        }

        Ev last(long qty, long px) { lastQty = qty; lastPx = px; return this; }

        /** Leaves, cum quantity, cum notional and status after the event. */
        Ev state(long leavesQty, long cumQty, long cumNotional, OrderStatus orderStatus) {
            leaves = leavesQty;
            cum = cumQty;
            notional = cumNotional;
            status = orderStatus;
            return this;
        }

        Ev reason(RejectReason value) { reason = value; return this; }

        /** What a risk check measured: the value, and the limit (for the collar the band low..high). */
        Ev risk(long value, long low, long high) {
            riskValue = value;
            riskLow = low;
            riskHigh = high;
            return this;
        }

        Ev attributes(long stop, long expire) {
            stopPrice = stop;
            expireTime = expire;
            return this;
        }

        /** A mass status answer's number of reports. */
        Ev reports(long count) {
            reports = count;
            return this;
        }

        /** Timestamp; by default that of the last command. */
        Ev t(long value) { t = value; return this; }

        String render(long defaultTimestamp) {
            ExecutionEvent e = new ExecutionEvent().begin(type, t != null ? t : defaultTimestamp, owner);
            e.clientOrderId().copyFrom(clOrdId);
            e.origClientOrderId().copyFrom(origClOrdId);
            return e.ids(orderId, execId)
                .order(symbol, side, orderType, tif, price, orderQty)
                .lastFill(lastQty, lastPx)
                .quantities(leaves, cum, notional)
                .status(status)
                .rejectReason(reason)
                .risk(riskValue, riskLow, riskHigh)
                .attributes(stopPrice, expireTime)
                .reportCount(reports)
                .toString();
        }
    }
}
