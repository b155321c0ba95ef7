package io.fixmatch.engine.api;

/**
 * What the engine reports about one order after a command: everything a FIX ExecutionReport or
 * OrderCancelReject needs. Mutable and reused: the engine fills one instance per event and hands it to the
 * {@link EventSink}, which must copy what it keeps before returning.
 *
 * <p>Quantities are in the symbol's quantity units, prices in its price units. {@code cumNotional} is the sum of
 * lastPrice x lastQuantity over the order's fills, so AvgPx = cumNotional / cumQuantity. {@code orderId} is 0 for a
 * rejected new order (it never existed), {@code execId} is 0 for events that are not executions (cancel rejects,
 * status answers).
 *
 * <p>Where the event came from: {@code journalPosition} is the journal position of the command that caused it (0 if
 * that command was not journaled: a status request, a refusal), {@code ordinal} its number among that command's
 * events (0, 1, ...); the pair orders a session's events exactly, so its store can tell after a crash which of them
 * it holds. {@code answeredInbound} is the command's inbound position (see {@code Command}) on the events that go to
 * the command's own sender, else 0: once such an event is stored, the request it answers is safe.
 */
public final class ExecutionEvent {
    private EventType type;
    private long timestampNanos;
    private int owner;
    private final ClientOrderId clientOrderId = new ClientOrderId();
    private final ClientOrderId origClientOrderId = new ClientOrderId();
    private long orderId;
    private long execId;
    private int symbolId;
    private Side side;
    private OrderType orderType;
    private TimeInForce timeInForce;
    private long price;
    private long orderQuantity;
    private long lastQuantity;
    private long lastPrice;
    private long leavesQuantity;
    private long cumQuantity;
    private long cumNotional;
    private OrderStatus status;
    private RejectReason rejectReason;
    private long journalPosition;
    private int ordinal;
    private long answeredInbound;
    private long riskValue;
    private long riskLow;
    private long riskHigh;
    private long stopPrice;
    private long expireTimeNanos;
    private long reportCount;

    /** Starts a new event: every field is reset so nothing leaks from the previous one. */
    public ExecutionEvent begin(EventType type, long timestampNanos, int owner) {
        this.type = type;
        this.timestampNanos = timestampNanos;
        this.owner = owner;
        clientOrderId.clear();
        origClientOrderId.clear();
        orderId = 0;
        execId = 0;
        symbolId = 0;
        side = null;
        orderType = null;
        timeInForce = null;
        price = 0;
        orderQuantity = 0;
        lastQuantity = 0;
        lastPrice = 0;
        leavesQuantity = 0;
        cumQuantity = 0;
        cumNotional = 0;
        status = null;
        rejectReason = RejectReason.NONE;
        journalPosition = 0;
        ordinal = 0;
        answeredInbound = 0;
        riskValue = 0;
        riskLow = 0;
        riskHigh = 0;
        stopPrice = 0;
        expireTimeNanos = 0;
        reportCount = 0;
        return this;
    }

    /**
     * Fills this event as the refusal of {@code command}: the request's own fields echoed, no order id, no exec id,
     * status REJECTED. The event type follows the command: a new order gets REJECTED, a cancel CANCEL_REJECTED, a
     * replace REPLACE_REJECTED, a status request STATUS.
     */
    public ExecutionEvent refusalOf(Command command, RejectReason reason, long timestampNanos) {
        EventType eventType = switch (command.type()) {
            case NEW_ORDER -> EventType.REJECTED;
            case CANCEL -> EventType.CANCEL_REJECTED;
            case REPLACE -> EventType.REPLACE_REJECTED;
            case ORDER_STATUS -> EventType.STATUS;
            case CANCEL_ALL_FOR_OWNER -> EventType.CANCEL_REJECTED;
            case MASS_CANCEL -> EventType.MASS_CANCEL_REPORT;
            case MASS_STATUS -> EventType.MASS_STATUS;
            case HALT_SYMBOL, RESUME_SYMBOL, BOOK_QUERY, KILL_SWITCH, RELEASE_KILL_SWITCH, EXPIRE_DAY_ORDERS,
                 SET_SESSION_CONTROL, SET_REFERENCE_PRICE, TIMER, SET_SYMBOL_CONTROL ->
                throw new IllegalArgumentException("the operator's commands are answered with no event");
        };
        begin(eventType, timestampNanos, command.owner());
        clientOrderId.copyFrom(command.clientOrderId());
        origClientOrderId.copyFrom(command.origClientOrderId());
        long price = command.orderType().hasLimitPrice() ? command.price() : 0; // as for accepted orders
        if (command.type() == CommandType.MASS_STATUS) { // its request id where every MASS_STATUS carries it
            clientOrderId.clear();
            origClientOrderId.copyFrom(command.clientOrderId());
        }
        if (command.type() == CommandType.MASS_CANCEL) { // a report of no orders, on the side(s) asked
            return order(command.symbolId(), command.massCancelSide(), null, null, 0, 0)
                .status(OrderStatus.REJECTED)
                .rejectReason(reason);
        }
        return order(command.symbolId(), command.side(), command.orderType(), command.timeInForce(), price,
            command.quantity())
            .attributes(command.stopPrice(), command.expireTimeNanos())
            .status(OrderStatus.REJECTED)
            .rejectReason(reason);
    }

    public ExecutionEvent ids(long orderId, long execId) {
        this.orderId = orderId;
        this.execId = execId;
        return this;
    }

    public ExecutionEvent order(int symbolId, Side side, OrderType orderType, TimeInForce timeInForce, long price,
                                long orderQuantity) {
        this.symbolId = symbolId;
        this.side = side;
        this.orderType = orderType;
        this.timeInForce = timeInForce;
        this.price = price;
        this.orderQuantity = orderQuantity;
        return this;
    }

    public ExecutionEvent quantities(long leavesQuantity, long cumQuantity, long cumNotional) {
        this.leavesQuantity = leavesQuantity;
        this.cumQuantity = cumQuantity;
        this.cumNotional = cumNotional;
        return this;
    }

    public ExecutionEvent lastFill(long lastQuantity, long lastPrice) {
        this.lastQuantity = lastQuantity;
        this.lastPrice = lastPrice;
        return this;
    }

    public ExecutionEvent status(OrderStatus status) {
        this.status = status;
        return this;
    }

    public ExecutionEvent rejectReason(RejectReason reason) {
        this.rejectReason = reason;
        return this;
    }

    /** The causing command's journal position (0: not journaled) and this event's number among its events. */
    public ExecutionEvent origin(long journalPosition, int ordinal) {
        this.journalPosition = journalPosition;
        this.ordinal = ordinal;
        return this;
    }

    /** The inbound position of the sender's request this event answers (0: none). */
    public ExecutionEvent answeredInbound(long inboundPosition) {
        this.answeredInbound = inboundPosition;
        return this;
    }

    /**
     * What a pre-trade risk reject measured: the order's value ({@code value}: quantity, notional in price units x
     * quantity, open orders, or price) and the limit it broke ({@code high}; for the price collar the band
     * {@code low}..{@code high}), so the report's Text can name them.
     */
    public ExecutionEvent risk(long value, long low, long high) {
        this.riskValue = value;
        this.riskLow = low;
        this.riskHigh = high;
        return this;
    }

    /** The order's stop price (stop and stop-limit orders) and expire time (GTD orders); 0 when it has none. */
    public ExecutionEvent attributes(long stopPrice, long expireTimeNanos) {
        this.stopPrice = stopPrice;
        this.expireTimeNanos = expireTimeNanos;
        return this;
    }

    /** A MASS_STATUS event's number of reports answering the request (0 for other events). */
    public ExecutionEvent reportCount(long count) {
        this.reportCount = count;
        return this;
    }

    public ClientOrderId clientOrderId() { return clientOrderId; }
    public ClientOrderId origClientOrderId() { return origClientOrderId; }

    public EventType type() { return type; }
    public long timestampNanos() { return timestampNanos; }
    public int owner() { return owner; }
    public long orderId() { return orderId; }
    public long execId() { return execId; }
    public int symbolId() { return symbolId; }
    public Side side() { return side; }
    public OrderType orderType() { return orderType; }
    public TimeInForce timeInForce() { return timeInForce; }
    public long price() { return price; }
    public long orderQuantity() { return orderQuantity; }
    public long lastQuantity() { return lastQuantity; }
    public long lastPrice() { return lastPrice; }
    public long leavesQuantity() { return leavesQuantity; }
    public long cumQuantity() { return cumQuantity; }
    public long cumNotional() { return cumNotional; }
    public OrderStatus status() { return status; }
    public RejectReason rejectReason() { return rejectReason; }
    public long journalPosition() { return journalPosition; }
    public int ordinal() { return ordinal; }
    public long answeredInbound() { return answeredInbound; }
    public long riskValue() { return riskValue; }
    public long riskLow() { return riskLow; }
    public long riskHigh() { return riskHigh; }
    public long stopPrice() { return stopPrice; }
    public long expireTimeNanos() { return expireTimeNanos; }
    public long reportCount() { return reportCount; }

    /** Allocates: for tests and tools. Every field, in a fixed order, so equal events print equal text. */
    @Override
    public String toString() {
        return type + " owner=" + owner + " clOrdId=" + clientOrderId + " origClOrdId=" + origClientOrderId
            + " orderId=" + orderId + " execId=" + execId + " symbol=" + symbolId + " side=" + side
            + " type=" + orderType + " tif=" + timeInForce + " price=" + price + " orderQty=" + orderQuantity
            + " lastQty=" + lastQuantity + " lastPx=" + lastPrice + " leaves=" + leavesQuantity
            + " cum=" + cumQuantity + " notional=" + cumNotional + " status=" + status
            + " reason=" + rejectReason + " risk=" + riskValue + "/" + riskLow + "/" + riskHigh
            + (stopPrice == 0 ? "" : " stopPx=" + stopPrice) + (expireTimeNanos == 0 ? "" : " expire=" + expireTimeNanos)
            + (reportCount == 0 ? "" : " reports=" + reportCount)
            + " t=" + timestampNanos;
    }
}
