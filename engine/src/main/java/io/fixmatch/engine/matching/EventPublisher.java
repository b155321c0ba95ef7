package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.RejectReason;

/**
 * Turns the engine's decisions into {@link ExecutionEvent}s: one reused event object, execution ids assigned in
 * order, the command's timestamp on everything it caused, and its origin (journal position, the event's number among
 * the command's events; the inbound position on the events to the command's own sender).
 */
final class EventPublisher {
    private final ExecutionEvent event = new ExecutionEvent();
    private final EventSink sink;
    private long lastExecId;
    private long timestampNanos;
    private int commandOwner;
    private long commandInbound;
    private long commandJournalPosition;
    private int ordinal;

    EventPublisher(EventSink sink) {
        this.sink = sink;
    }

    long lastExecId() {
        return lastExecId;
    }

    void restoreLastExecId(long value) {
        lastExecId = value;
    }

    /** Every event caused by a command carries that command's timestamp. */
    void startCommand(Command command) {
        timestampNanos = command.timestampNanos();
        commandOwner = command.owner();
        commandInbound = command.inboundPosition();
        commandJournalPosition = command.journalPosition();
        ordinal = 0;
    }

    /** Every event leaves through here: stamped with where it came from. */
    private void emit(ExecutionEvent e) {
        e.origin(commandJournalPosition, ordinal++).answeredInbound(e.owner() == commandOwner ? commandInbound : 0);
        sink.onEvent(e);
    }

    void accepted(Order order) {
        publishOrder(EventType.ACCEPTED, order, order.clientOrderId, null, OrderStatus.NEW);
    }

    void fill(Order order, long quantity, long price) {
        ExecutionEvent e = orderEvent(EventType.FILL, order, order.clientOrderId, null, order.liveStatus(),
            ++lastExecId);
        e.lastFill(quantity, price);
        emit(e);
    }

    /** The order is done: on request ({@code request} is the cancel) or by its own time in force (null). */
    void canceled(Order order, Command request) {
        if (request == null) {
            publishOrder(EventType.CANCELED, order, order.clientOrderId, null, OrderStatus.CANCELED);
        } else {
            publishOrder(EventType.CANCELED, order, request.clientOrderId(), request.origClientOrderId(),
                OrderStatus.CANCELED);
        }
    }

    /** The order is done, unsolicited, for {@code reason}: self-trade prevention, the kill switch. */
    void canceled(Order order, RejectReason reason) {
        ExecutionEvent e = orderEvent(EventType.CANCELED, order, order.clientOrderId, null, OrderStatus.CANCELED,
            ++lastExecId);
        emit(e.rejectReason(reason));
    }

    /** A resting order expired (unsolicited): a DAY order's day ended, a GTD order's expire time came. */
    void expired(Order order, RejectReason reason) {
        ExecutionEvent e = orderEvent(EventType.EXPIRED, order, order.clientOrderId, null, OrderStatus.EXPIRED,
            ++lastExecId);
        emit(e.rejectReason(reason));
    }

    /** A waiting stop order's stop price was reached (unsolicited): it trades next. */
    void triggered(Order order) {
        ExecutionEvent e = orderEvent(EventType.TRIGGERED, order, order.clientOrderId, null, order.liveStatus(),
            ++lastExecId);
        emit(e.rejectReason(RejectReason.STOP_TRIGGERED));
    }

    /** The order now carries the new client order id; {@code previousId} is the one it replaced. */
    void replaced(Order order, ClientOrderId previousId) {
        publishOrder(EventType.REPLACED, order, order.clientOrderId, previousId, order.liveStatus());
    }

    /**
     * The answer to an order mass cancel: it cancels {@code count} orders (their CANCELED events follow). Takes an exec
     * id, which also names the report (its OrderID).
     */
    void massCancelReport(Command command, int count) {
        ExecutionEvent e = event.begin(EventType.MASS_CANCEL_REPORT, timestampNanos, command.owner());
        e.clientOrderId().copyFrom(command.clientOrderId());
        emit(e.ids(0, ++lastExecId).order(command.symbolId(), command.massCancelSide(), null, null, 0, count)
            .status(OrderStatus.NEW));
    }

    /** One live order's state answering mass status request {@code requestId} ({@code count} reports in all). */
    void massStatus(Order order, ClientOrderId requestId, long count) {
        emit(orderEvent(EventType.MASS_STATUS, order, order.clientOrderId, requestId, order.liveStatus(), 0)
            .reportCount(count));
    }

    /** A mass status request that finds no live order: one report saying so (exec id 0). */
    void noLiveOrders(Command command) {
        ExecutionEvent e = event.begin(EventType.MASS_STATUS, timestampNanos, command.owner());
        e.origClientOrderId().copyFrom(command.clientOrderId());
        emit(e.order(command.symbolId(), null, null, null, 0, 0).status(OrderStatus.REJECTED)
            .rejectReason(RejectReason.NO_LIVE_ORDERS));
    }

    /** The answer to a status request: not an execution, so exec id 0 and no id consumed. */
    void status(Order order) {
        emit(orderEvent(EventType.STATUS, order, order.clientOrderId, null, order.liveStatus(), 0));
    }

    /** A new order refused before it existed: no order id, nothing in the book changed. */
    void rejected(Command command, RejectReason reason) {
        commandEvent(command, reason, null).ids(0, ++lastExecId);
        emit(event);
    }

    /** A new order refused by pre-trade risk: as {@link #rejected}, with what the check measured. */
    void rejected(Command command, RejectReason reason, PreTradeRisk risk) {
        commandEvent(command, reason, null).ids(0, ++lastExecId).risk(risk.value(), risk.low(), risk.high());
        emit(event);
    }

    /** A command refused without being looked at: see {@link ExecutionEvent#refusalOf}. */
    void refused(Command command, RejectReason reason) {
        emit(event.refusalOf(command, reason, command.timestampNanos()));
    }

    /** A cancel, replace or status request refused; {@code order} is the live order it named, if any. */
    void requestRejected(Command command, RejectReason reason, Order order) {
        emit(requestReject(command, reason, order));
    }

    /** A replace refused by pre-trade risk: as {@link #requestRejected}, with what the check measured. */
    void requestRejected(Command command, RejectReason reason, Order order, PreTradeRisk risk) {
        emit(requestReject(command, reason, order).risk(risk.value(), risk.low(), risk.high()));
    }

    private ExecutionEvent requestReject(Command command, RejectReason reason, Order order) {
        ExecutionEvent e = commandEvent(command, reason, order);
        if (order != null) {
            e.ids(order.orderId, 0).quantities(order.leaves, order.cum, order.cumNotional);
        }
        return e;
    }

    private void publishOrder(EventType type, Order order, ClientOrderId clientOrderId, ClientOrderId origId,
                              OrderStatus status) {
        emit(orderEvent(type, order, clientOrderId, origId, status, ++lastExecId));
    }

    private ExecutionEvent orderEvent(EventType type, Order order, ClientOrderId clientOrderId,
                                      ClientOrderId origId, OrderStatus status, long execId) {
        ExecutionEvent e = event.begin(type, timestampNanos, order.owner);
        e.clientOrderId().copyFrom(clientOrderId);
        if (origId != null) {
            e.origClientOrderId().copyFrom(origId);
        }
        long leaves = status == OrderStatus.CANCELED || status == OrderStatus.EXPIRED ? 0 : order.leaves;
        return e.ids(order.orderId, execId)
            .order(order.book.symbolId, order.side, order.orderType, order.timeInForce, order.price, order.quantity)
            .quantities(leaves, order.cum, order.cumNotional)
            .attributes(order.stopPrice, order.expireTimeNanos)
            .status(status);
    }

    /** The reject of a command; the event type follows the command's type (see ExecutionEvent#refusalOf). */
    private ExecutionEvent commandEvent(Command command, RejectReason reason, Order order) {
        ExecutionEvent e = event.refusalOf(command, reason, timestampNanos);
        return order == null ? e : e.status(order.liveStatus());
    }
}
