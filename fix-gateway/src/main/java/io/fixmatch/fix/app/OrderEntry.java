package io.fixmatch.fix.app;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.fix.codec.FixDecimals;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.session.ApplicationHandler;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRejectReason;
import io.fixmatch.fix.session.MessageBody;

/**
 * The order messages of one session: NewOrderSingle (D), OrderCancelRequest (F), OrderCancelReplaceRequest (G) and
 * OrderStatusRequest (H) are checked field by field and turned into engine commands on the inbound ring. A
 * missing, malformed or out-of-range field gets a session Reject (35=3) naming the tag; an unknown symbol or a full
 * ring gets a rejecting ExecutionReport or OrderCancelReject; any other application message a
 * BusinessMessageReject (35=j). Runs on the session's I/O thread under its lock; allocation-free when all is well.
 */
public final class OrderEntry implements ApplicationHandler {
    private final InboundCommandRing inbound;
    private final SymbolTable symbols;
    private final Command command = new Command();
    private final ExecutionEvent refusal = new ExecutionEvent();
    private final ExecutionReportBody refusalReport;
    private final Runnable onDisconnect;
    private FixSession session;
    private FixMessage message;
    private long nowMs;

    /** @param onDisconnect what to do when the session's connection goes (cancel-on-disconnect), or null */
    public OrderEntry(InboundCommandRing inbound, SymbolTable symbols, Runnable onDisconnect) {
        this.inbound = inbound;
        this.symbols = symbols;
        this.refusalReport = new ExecutionReportBody(symbols);
        this.onDisconnect = onDisconnect;
    }

    @Override
    public void onApplicationMessage(FixSession fixSession, FixMessage fixMessage) {
        session = fixSession;
        message = fixMessage;
        nowMs = System.currentTimeMillis();
        switch (fixMessage.msgType()) {
            case MsgTypes.NEW_ORDER_SINGLE -> newOrderSingle();
            case MsgTypes.ORDER_CANCEL_REQUEST -> cancelRequest();
            case MsgTypes.ORDER_CANCEL_REPLACE_REQUEST -> cancelReplaceRequest();
            case MsgTypes.ORDER_STATUS_REQUEST -> statusRequest();
            default -> businessReject();
        }
    }

    @Override
    public void onDisconnected(FixSession fixSession) {
        if (onDisconnect != null) {
            onDisconnect.run();
        }
    }

    private void newOrderSingle() {
        if (!clientOrderId(FixTags.CL_ORD_ID, command.clientOrderId()) || !sideAndSymbol()) {
            return;
        }
        OrderType orderType = orderType();
        if (orderType == null) {
            return;
        }
        TimeInForce timeInForce = timeInForce();
        if (timeInForce == null) {
            return;
        }
        long quantity = quantity();
        if (quantity == FixDecimals.INVALID) {
            return;
        }
        long price = 0;
        if (orderType == OrderType.LIMIT) {
            price = price();
            if (price == FixDecimals.INVALID) {
                return;
            }
        }
        command.type(CommandType.NEW_ORDER)
            .orderType(orderType).timeInForce(timeInForce).price(price).quantity(quantity);
        command.origClientOrderId().clear();
        submit();
    }

    private void cancelRequest() {
        if (!clientOrderId(FixTags.CL_ORD_ID, command.clientOrderId())
            || !clientOrderId(FixTags.ORIG_CL_ORD_ID, command.origClientOrderId()) || !sideAndSymbol()) {
            return;
        }
        command.type(CommandType.CANCEL)
            .orderType(OrderType.LIMIT).timeInForce(TimeInForce.DAY).price(0).quantity(0);
        submit();
    }

    private void cancelReplaceRequest() {
        if (!clientOrderId(FixTags.CL_ORD_ID, command.clientOrderId())
            || !clientOrderId(FixTags.ORIG_CL_ORD_ID, command.origClientOrderId()) || !sideAndSymbol()) {
            return;
        }
        OrderType orderType = orderType();
        if (orderType == null) {
            return;
        }
        if (orderType != OrderType.LIMIT) {
            reject(FixTags.ORD_TYPE, SessionRejectReason.VALUE_INCORRECT, "only limit orders rest and can be replaced");
            return;
        }
        TimeInForce timeInForce = timeInForce();
        long quantity = timeInForce == null ? FixDecimals.INVALID : quantity();
        long price = quantity == FixDecimals.INVALID ? FixDecimals.INVALID : price();
        if (price == FixDecimals.INVALID) {
            return;
        }
        command.type(CommandType.REPLACE)
            .orderType(OrderType.LIMIT).timeInForce(timeInForce).price(price).quantity(quantity);
        submit();
    }

    private void statusRequest() {
        if (!clientOrderId(FixTags.CL_ORD_ID, command.clientOrderId()) || !sideAndSymbol()) {
            return;
        }
        command.type(CommandType.ORDER_STATUS)
            .orderType(OrderType.LIMIT).timeInForce(TimeInForce.DAY).price(0).quantity(0);
        command.origClientOrderId().clear();
        submit();
    }

    /** Hands the command to the engine; a full ring is answered at once with a reject, nothing is dropped. */
    private void submit() {
        command.owner(session.ownerId()).timestampNanos(nowMs * 1_000_000L);
        if (command.symbolId() < 0) {
            refuse(RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        if (!inbound.offer(command)) {
            refuse(RejectReason.SERVER_BUSY);
        }
    }

    private void refuse(RejectReason reason) {
        refusal.refusalOf(command, reason, nowMs * 1_000_000L);
        refusalReport.of(refusal);
        int symbolField = message.indexOf(FixTags.SYMBOL);
        refusalReport.withRequestedSymbol(message.buffer(), message.valueStartAt(symbolField),
            message.valueLengthAt(symbolField));
        session.sendApplication(refusalReport.msgType(), refusalReport, nowMs);
    }

    private boolean clientOrderId(int tag, ClientOrderId target) {
        int length = message.valueLength(tag);
        if (length < 0) {
            return reject(tag, SessionRejectReason.REQUIRED_TAG_MISSING, "required tag " + tag + " missing");
        }
        if (!message.copyValue(tag, target)) {
            return reject(tag, SessionRejectReason.VALUE_INCORRECT,
                "tag " + tag + " longer than " + ClientOrderId.MAX_LENGTH + " characters");
        }
        return true;
    }

    /** Reads Side(54) and Symbol(55) into the command; an unknown symbol becomes id -1, refused later. */
    private boolean sideAndSymbol() {
        int symbolField = message.indexOf(FixTags.SYMBOL);
        if (symbolField < 0) {
            return reject(FixTags.SYMBOL, SessionRejectReason.REQUIRED_TAG_MISSING, "required tag 55 missing");
        }
        int sideLength = message.valueLength(FixTags.SIDE);
        if (sideLength < 0) {
            return reject(FixTags.SIDE, SessionRejectReason.REQUIRED_TAG_MISSING, "required tag 54 missing");
        }
        Side side = message.isSingleByte(FixTags.SIDE, '1') ? Side.BUY
            : message.isSingleByte(FixTags.SIDE, '2') ? Side.SELL : null;
        if (side == null) {
            return reject(FixTags.SIDE, SessionRejectReason.VALUE_INCORRECT, "Side(54) must be 1 (buy) or 2 (sell)");
        }
        command.side(side).symbolId(symbols.idOf(message.buffer(), message.valueStartAt(symbolField),
            message.valueLengthAt(symbolField)));
        return true;
    }

    private OrderType orderType() {
        if (message.valueLength(FixTags.ORD_TYPE) < 0) {
            reject(FixTags.ORD_TYPE, SessionRejectReason.REQUIRED_TAG_MISSING, "required tag 40 missing");
            return null;
        }
        if (message.isSingleByte(FixTags.ORD_TYPE, '2')) {
            return OrderType.LIMIT;
        }
        if (message.isSingleByte(FixTags.ORD_TYPE, '1')) {
            return OrderType.MARKET;
        }
        reject(FixTags.ORD_TYPE, SessionRejectReason.VALUE_INCORRECT, "OrdType(40) must be 1 (market) or 2 (limit)");
        return null;
    }

    private TimeInForce timeInForce() {
        if (message.valueLength(FixTags.TIME_IN_FORCE) < 0 || message.isSingleByte(FixTags.TIME_IN_FORCE, '0')) {
            return TimeInForce.DAY;
        }
        if (message.isSingleByte(FixTags.TIME_IN_FORCE, '1')) {
            return TimeInForce.GTC;
        }
        if (message.isSingleByte(FixTags.TIME_IN_FORCE, '3')) {
            return TimeInForce.IOC;
        }
        if (message.isSingleByte(FixTags.TIME_IN_FORCE, '4')) {
            return TimeInForce.FOK;
        }
        reject(FixTags.TIME_IN_FORCE, SessionRejectReason.VALUE_INCORRECT,
            "TimeInForce(59) must be 0 (day), 1 (GTC), 3 (IOC) or 4 (FOK)");
        return null;
    }

    private long quantity() {
        int field = message.indexOf(FixTags.ORDER_QTY);
        if (field < 0) {
            reject(FixTags.ORDER_QTY, SessionRejectReason.REQUIRED_TAG_MISSING, "required tag 38 missing");
            return FixDecimals.INVALID;
        }
        long quantity = FixDecimals.parse(message.buffer(), message.valueStartAt(field), message.valueLengthAt(field),
            0);
        if (quantity == FixDecimals.INVALID) {
            reject(FixTags.ORDER_QTY, SessionRejectReason.INCORRECT_DATA_FORMAT, "OrderQty(38) must be a whole number");
        }
        return quantity;
    }

    private long price() {
        int field = message.indexOf(FixTags.PRICE);
        if (field < 0) {
            reject(FixTags.PRICE, SessionRejectReason.REQUIRED_TAG_MISSING, "Price(44) is required for limit orders");
            return FixDecimals.INVALID;
        }
        int scale = symbols.contains(command.symbolId()) ? symbols.priceScale(command.symbolId()) : 9;
        long price = FixDecimals.parse(message.buffer(), message.valueStartAt(field), message.valueLengthAt(field),
            scale);
        if (price == FixDecimals.INVALID) {
            reject(FixTags.PRICE, SessionRejectReason.INCORRECT_DATA_FORMAT,
                "Price(44) must be a decimal with at most " + scale + " decimal places");
        }
        return price;
    }

    private boolean reject(int tag, int reason, String text) {
        session.rejectMessage(message, tag, reason, text, nowMs);
        return false;
    }

    private void businessReject() {
        long refSeqNum = message.longValue(FixTags.MSG_SEQ_NUM);
        String msgType = message.stringValue(FixTags.MSG_TYPE);
        MessageBody body = w -> w.field(FixTags.REF_SEQ_NUM, refSeqNum)
            .field(FixTags.REF_MSG_TYPE, msgType)
            .field(FixTags.BUSINESS_REJECT_REASON, 3L)
            .field(FixTags.TEXT, "unsupported message type " + msgType);
        session.sendApplication(MsgTypes.BUSINESS_MESSAGE_REJECT, body, nowMs);
    }
}
