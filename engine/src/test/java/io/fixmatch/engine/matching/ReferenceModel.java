package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.EngineHarness.Ev;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A deliberately naive executable reading of docs/MATCHING.md (plain lists and maps, no pools, no indexes), to
 * compare with the engine event by event on long command sequences. It owes nothing to the engine's code: where
 * the two disagree, one of them disagrees with the document.
 */
final class ReferenceModel {
    private static final class Order {
        long orderId;
        int owner;
        String id;
        int symbol;
        Side side;
        OrderType type;
        TimeInForce tif;
        long price;
        long qty;
        long leaves;
        long cum;
        long notional;
    }

    private final List<SymbolSpec> symbols;
    private final int maxOrders;
    private final int maxLevels;
    /** Per symbol, per side: resting orders best price first, oldest first within a price. */
    private final List<List<List<Order>>> books = new ArrayList<>();
    private final Map<String, Order> live = new HashMap<>();
    private long lastOrderId;
    private long lastExecId;
    private long timestamp;
    private List<String> out;

    ReferenceModel(List<SymbolSpec> symbols, int maxOrders, int maxLevels) {
        this.symbols = symbols;
        this.maxOrders = maxOrders;
        this.maxLevels = maxLevels;
        for (int i = 0; i < symbols.size(); i++) {
            books.add(List.of(new ArrayList<>(), new ArrayList<>()));
        }
    }

    /** The events the document prescribes for this command, as {@code ExecutionEvent.toString()} text. */
    List<String> process(Command c) {
        out = new ArrayList<>();
        timestamp = c.timestampNanos();
        switch (c.type()) {
            case NEW_ORDER -> newOrder(c);
            case CANCEL -> cancel(c);
            case REPLACE -> replace(c);
            case ORDER_STATUS -> status(c);
        }
        return out;
    }

    /** Every resting order, symbol by symbol, bids then asks, best first: as {@link EngineHarness#describe}. */
    List<String> snapshot() {
        List<String> lines = new ArrayList<>();
        for (List<List<Order>> book : books) {
            for (List<Order> side : book) {
                for (Order o : side) {
                    lines.add("owner=" + o.owner + " clOrdId=" + o.id + " orderId=" + o.orderId + " symbol="
                        + o.symbol + " side=" + o.side + " tif=" + o.tif + " price=" + o.price + " qty=" + o.qty
                        + " leaves=" + o.leaves + " cum=" + o.cum + " notional=" + o.notional);
                }
            }
        }
        return lines;
    }

    // ---------------------------------------------------------------- new order

    private void newOrder(Command c) {
        RejectReason reason = checkNew(c);
        if (reason != RejectReason.NONE) {
            boolean market = c.orderType() == OrderType.MARKET;
            long reportedPrice = market ? 0 : c.price();
            emit(new Ev(EventType.REJECTED, c.owner()).clOrdId(c.clientOrderId().toString())
                .ids(0, ++lastExecId)
                .order(c.symbolId(), c.side(), c.orderType(), c.timeInForce(), reportedPrice, c.quantity())
                .state(0, 0, 0, OrderStatus.REJECTED).reason(reason));
            return;
        }
        Order o = new Order();
        o.orderId = ++lastOrderId;
        o.owner = c.owner();
        o.id = c.clientOrderId().toString();
        o.symbol = c.symbolId();
        o.side = c.side();
        o.type = c.orderType();
        o.tif = c.timeInForce();
        o.price = o.type == OrderType.MARKET ? 0 : c.price();
        o.qty = c.quantity();
        o.leaves = o.qty;
        emit(event(EventType.ACCEPTED, o, o.id, "", ++lastExecId, OrderStatus.NEW));

        if (o.tif == TimeInForce.FOK && available(o) < o.qty) {
            emit(event(EventType.CANCELED, o, o.id, "", ++lastExecId, OrderStatus.CANCELED));
            return;
        }
        match(o);
        if (o.leaves > 0) {
            if (o.type == OrderType.LIMIT && (o.tif == TimeInForce.DAY || o.tif == TimeInForce.GTC)) {
                rest(o);
                live.put(key(o.owner, o.id), o);
            } else {
                emit(event(EventType.CANCELED, o, o.id, "", ++lastExecId, OrderStatus.CANCELED));
            }
        }
    }

    private RejectReason checkNew(Command c) {
        if (c.symbolId() < 0 || c.symbolId() >= symbols.size()) {
            return RejectReason.UNKNOWN_SYMBOL;
        }
        if (c.clientOrderId().isEmpty()) {
            return RejectReason.MISSING_CLIENT_ORDER_ID;
        }
        if (live.containsKey(key(c.owner(), c.clientOrderId().toString()))) {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        SymbolSpec spec = symbols.get(c.symbolId());
        boolean market = c.orderType() == OrderType.MARKET;
        RejectReason reason = checkValues(spec, market, c.price(), c.quantity());
        if (reason != RejectReason.NONE) {
            return reason;
        }
        if (market && side(c.symbolId(), c.side().opposite()).isEmpty()) {
            return RejectReason.NO_LIQUIDITY;
        }
        boolean rests = !market && (c.timeInForce() == TimeInForce.DAY || c.timeInForce() == TimeInForce.GTC);
        if (rests && !hasLevel(c.symbolId(), c.side(), c.price()) && levelCount() >= maxLevels) {
            return RejectReason.BOOK_FULL;
        }
        if (restingCount() >= maxOrders) {
            return RejectReason.BOOK_FULL;
        }
        return RejectReason.NONE;
    }

    private static RejectReason checkValues(SymbolSpec spec, boolean market, long price, long qty) {
        if (qty <= 0) {
            return RejectReason.QUANTITY_NOT_POSITIVE;
        }
        if (qty > spec.maxQuantity()) {
            return RejectReason.QUANTITY_TOO_LARGE;
        }
        if (qty % spec.lotSize() != 0) {
            return RejectReason.QUANTITY_NOT_LOT_MULTIPLE;
        }
        if (market) {
            return RejectReason.NONE;
        }
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

    private boolean acceptable(Order aggressor, long restingPrice) {
        if (aggressor.type == OrderType.MARKET) {
            return true;
        }
        return aggressor.side == Side.BUY ? restingPrice <= aggressor.price : restingPrice >= aggressor.price;
    }

    private long available(Order o) {
        long sum = 0;
        for (Order r : side(o.symbol, o.side.opposite())) {
            if (acceptable(o, r.price)) {
                sum += r.leaves;
            }
        }
        return sum;
    }

    private void match(Order o) {
        List<Order> opposite = side(o.symbol, o.side.opposite());
        while (o.leaves > 0 && !opposite.isEmpty() && acceptable(o, opposite.get(0).price)) {
            Order r = opposite.get(0);
            long q = Math.min(o.leaves, r.leaves);
            long px = r.price;
            for (Order x : new Order[] {o, r}) {
                x.leaves -= q;
                x.cum += q;
                x.notional += q * px;
                emit(event(EventType.FILL, x, x.id, "", ++lastExecId,
                    x.leaves == 0 ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED).last(q, px));
            }
            if (r.leaves == 0) {
                opposite.remove(0);
                live.remove(key(r.owner, r.id));
            }
        }
    }

    /** At the back of its price level. */
    private void rest(Order o) {
        List<Order> side = side(o.symbol, o.side);
        int at = 0;
        while (at < side.size() && !better(o.side, o.price, side.get(at).price)) {
            at++;
        }
        side.add(at, o);
    }

    private static boolean better(Side side, long a, long b) {
        return side == Side.BUY ? a > b : a < b;
    }

    // ---------------------------------------------------------------- cancel, replace, status

    private void cancel(Command c) {
        Order o = live.get(key(c.owner(), c.origClientOrderId().toString()));
        RejectReason reason = checkTarget(c, o);
        if (reason != RejectReason.NONE) {
            emit(requestReject(EventType.CANCEL_REJECTED, c, reason, o));
            return;
        }
        side(o.symbol, o.side).remove(o);
        live.remove(key(o.owner, o.id));
        emit(event(EventType.CANCELED, o, c.clientOrderId().toString(), o.id, ++lastExecId, OrderStatus.CANCELED));
    }

    private void replace(Command c) {
        Order o = live.get(key(c.owner(), c.origClientOrderId().toString()));
        RejectReason reason = checkReplace(c, o);
        if (reason != RejectReason.NONE) {
            emit(requestReject(EventType.REPLACE_REJECTED, c, reason, o));
            return;
        }
        boolean keepsPlace = c.price() == o.price && c.quantity() <= o.qty;
        String oldId = o.id;
        live.remove(key(o.owner, o.id));
        o.id = c.clientOrderId().toString();
        live.put(key(o.owner, o.id), o);
        o.qty = c.quantity();
        o.leaves = o.qty - o.cum;
        List<Order> side = side(o.symbol, o.side);
        if (!keepsPlace) {
            side.remove(o);
            o.price = c.price();
        }
        emit(event(EventType.REPLACED, o, o.id, oldId, ++lastExecId, liveStatus(o)));
        if (!keepsPlace) {
            match(o);
            if (o.leaves > 0) {
                rest(o);
            } else {
                live.remove(key(o.owner, o.id));
            }
        }
    }

    private RejectReason checkReplace(Command c, Order o) {
        RejectReason reason = checkTarget(c, o);
        if (reason != RejectReason.NONE) {
            return reason;
        }
        if (c.clientOrderId().isEmpty()) {
            return RejectReason.MISSING_CLIENT_ORDER_ID;
        }
        if (live.containsKey(key(c.owner(), c.clientOrderId().toString()))) {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        reason = checkValues(symbols.get(o.symbol), false, c.price(), c.quantity());
        if (reason != RejectReason.NONE) {
            return reason;
        }
        if (c.quantity() <= o.cum) {
            return RejectReason.QUANTITY_NOT_ABOVE_FILLED;
        }
        boolean othersAtItsLevel = false;
        for (Order r : side(o.symbol, o.side)) {
            othersAtItsLevel |= r != o && r.price == o.price;
        }
        if (c.price() != o.price && !hasLevel(o.symbol, o.side, c.price()) && othersAtItsLevel
            && levelCount() >= maxLevels) {
            return RejectReason.BOOK_FULL;
        }
        return RejectReason.NONE;
    }

    private void status(Command c) {
        Order o = live.get(key(c.owner(), c.clientOrderId().toString()));
        RejectReason reason = checkTarget(c, o);
        if (reason != RejectReason.NONE) {
            emit(requestReject(EventType.STATUS, c, reason, o));
            return;
        }
        emit(event(EventType.STATUS, o, o.id, "", 0, liveStatus(o)));
    }

    private static RejectReason checkTarget(Command c, Order o) {
        if (o == null) {
            return RejectReason.UNKNOWN_ORDER;
        }
        if (o.symbol != c.symbolId() || o.side != c.side()) {
            return RejectReason.SIDE_OR_SYMBOL_MISMATCH;
        }
        return RejectReason.NONE;
    }

    private Ev requestReject(EventType type, Command c, RejectReason reason, Order o) {
        Ev e = new Ev(type, c.owner()).clOrdId(c.clientOrderId().toString())
            .origClOrdId(c.origClientOrderId().toString())
            .order(c.symbolId(), c.side(), c.orderType(), c.timeInForce(), c.price(), c.quantity())
            .reason(reason);
        if (o == null) {
            return e.ids(0, 0).state(0, 0, 0, OrderStatus.REJECTED);
        }
        return e.ids(o.orderId, 0).state(o.leaves, o.cum, o.notional, liveStatus(o));
    }

    // ---------------------------------------------------------------- helpers

    private Ev event(EventType type, Order o, String clOrdId, String origId, long execId, OrderStatus status) {
        return new Ev(type, o.owner).clOrdId(clOrdId).origClOrdId(origId).ids(o.orderId, execId)
            .order(o.symbol, o.side, o.type, o.tif, o.price, o.qty)
            .state(status == OrderStatus.CANCELED ? 0 : o.leaves, o.cum, o.notional, status);
    }

    private static OrderStatus liveStatus(Order o) {
        if (o.leaves == 0) {
            return OrderStatus.FILLED;
        }
        return o.cum == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
    }

    private void emit(Ev e) {
        out.add(e.render(timestamp));
    }

    private List<Order> side(int symbol, Side side) {
        return books.get(symbol).get(side.ordinal());
    }

    private boolean hasLevel(int symbol, Side side, long price) {
        for (Order o : side(symbol, side)) {
            if (o.price == price) {
                return true;
            }
        }
        return false;
    }

    private int levelCount() {
        int count = 0;
        for (List<List<Order>> book : books) {
            for (List<Order> side : book) {
                for (int i = 0; i < side.size(); i++) {
                    if (i == 0 || side.get(i).price != side.get(i - 1).price) {
                        count++;
                    }
                }
            }
        }
        return count;
    }

    private int restingCount() {
        int count = 0;
        for (List<List<Order>> book : books) {
            for (List<Order> side : book) {
                count += side.size();
            }
        }
        return count;
    }

    private static String key(int owner, String id) {
        return owner + "\u0000" + id;
    }
}
