package io.fixmatch.fix.app;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.loop.DropCopyRoutes;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.metrics.CounterArray;
import io.fixmatch.fix.gateway.PendingCommands;
import io.fixmatch.fix.gateway.RefusalCopies;
import io.fixmatch.fix.marketdata.MarketDataFeed;
import io.fixmatch.fix.codec.FixDecimals;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixTimestamps;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.session.ApplicationHandler;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.dictionary.SessionRejectReasons;
import io.fixmatch.fix.session.SeenClientOrderIds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.BooleanSupplier;

/**
 * The order messages of one session: NewOrderSingle (D), OrderCancelRequest (F), OrderCancelReplaceRequest (G) and
 * OrderStatusRequest (H) are checked field by field and turned into engine commands on the inbound ring. A
 * missing, malformed or out-of-range field gets a session Reject (35=3) naming the tag; an unknown symbol or a full
 * ring gets a rejecting ExecutionReport or OrderCancelReject; any other application message a
 * BusinessMessageReject (35=j). Runs on the session's gateway thread; allocation-free when all is well. Commands of a
 * traced session carry the time their bytes were read (see {@link InboundCommandRing#offerTraced}).
 *
 * <p>A NewOrderSingle resent with PossResend(97)=Y whose ClOrdID the session already used in its current trading
 * session (even for an order that is done) is ignored: no second order, no answer (FIX's rule for PossResend; see
 * {@link io.fixmatch.fix.session.SeenClientOrderIds}). A drop-copy session enters no orders: its order messages get a
 * BusinessMessageReject 380=6 (not authorized).
 */
public final class OrderEntry implements ApplicationHandler {
    private static final Logger LOG = LoggerFactory.getLogger(OrderEntry.class);
    /** BusinessRejectReason(380) values. */
    private static final long UNSUPPORTED_MESSAGE_TYPE = 3;
    private static final long NOT_AUTHORIZED = 6;
    private static final long APPLICATION_NOT_AVAILABLE = 4;
    private final InboundCommandRing inbound;
    private final SymbolTable symbols;
    private final Command command = new Command();
    private final ExecutionEvent refusal = new ExecutionEvent();
    private final EventReportBody refusalReport;
    private final PendingCommands cancelOnDisconnect;
    private final PendingCommands killSwitchOnDisconnect;
    /** The session's gateway's market data, or null when the venue offers none. */
    private final MarketDataFeed marketData;
    /** Where the session's gateway sends copies of its refusals to the drop-copy sessions (null: none). */
    private final RefusalCopies refusalCopies;
    /** Requests refused here, before the engine, by reason (written by the session's gateway thread). */
    private final CounterArray refused = new CounterArray(RejectReason.count());
    /** Whether the engine takes requests now (a cluster gateway without a leader does not). */
    private BooleanSupplier engineAvailable = () -> true;
    /** How an ExpireDate(432) becomes an instant (the venue's end of that day). */
    private ExpireDates expireDates = ExpireDates.MIDNIGHT_UTC;
    private FixSession session;
    private FixMessage message;
    private long nowMs;

    /**
     * @param cancelOnDisconnect where the session's gateway keeps the commands it owes the engine, if the session's
     *                           orders are canceled when its connection goes; null if they are not
     */
    public OrderEntry(InboundCommandRing inbound, SymbolTable symbols, PendingCommands cancelOnDisconnect) {
        this(inbound, symbols, cancelOnDisconnect, null, null, null);
    }

    /**
     * @param killSwitchOnDisconnect where the session's gateway keeps the commands it owes the engine, if the session's
     *                               kill switch engages when its connection is lost (not ended by a Logout); null if
     *                               it does not
     * @param marketData             the market data of the session's gateway, which answers its MarketDataRequests
     *                               (null: none offered; they get a BusinessMessageReject 380=4)
     * @param refusalCopies          the session's gateway's copies of refusals to drop-copy sessions (null: none)
     */
    public OrderEntry(InboundCommandRing inbound, SymbolTable symbols, PendingCommands cancelOnDisconnect,
                      PendingCommands killSwitchOnDisconnect, MarketDataFeed marketData, RefusalCopies refusalCopies) {
        this.marketData = marketData;
        this.refusalCopies = refusalCopies;
        this.inbound = inbound;
        this.symbols = symbols;
        this.refusalReport = new EventReportBody(symbols);
        this.cancelOnDisconnect = cancelOnDisconnect;
        this.killSwitchOnDisconnect = killSwitchOnDisconnect;
    }

    /**
     * Before start: asked before each request is handed to the engine; while it says no, requests are refused at once
     * ({@link RejectReason#CLUSTER_UNAVAILABLE}) instead of queueing without bound.
     */
    public void engineAvailability(BooleanSupplier available) {
        engineAvailable = available;
    }

    /** Before start: the venue's trading day, for GTD orders that name an ExpireDate(432). */
    public void expireDates(ExpireDates dates) {
        expireDates = dates;
    }

    @Override
    public void onApplicationMessage(FixSession fixSession, FixMessage fixMessage, long wallClockMs) {
        session = fixSession;
        message = fixMessage;
        nowMs = wallClockMs;
        if (fixSession.config().isDropCopy() && isOrderMessage(fixMessage.msgType())) {
            businessReject(NOT_AUTHORIZED, "drop-copy session: order entry is not allowed");
            return;
        }
        switch (fixMessage.msgType()) {
            case MsgTypes.NEW_ORDER_SINGLE -> newOrderSingle();
            case MsgTypes.ORDER_CANCEL_REQUEST -> cancelRequest();
            case MsgTypes.ORDER_CANCEL_REPLACE_REQUEST -> cancelReplaceRequest();
            case MsgTypes.ORDER_STATUS_REQUEST -> statusRequest();
            case MsgTypes.ORDER_MASS_CANCEL_REQUEST -> massCancelRequest();
            case MsgTypes.ORDER_MASS_STATUS_REQUEST -> massStatusRequest();
            case MsgTypes.MARKET_DATA_REQUEST -> marketDataRequest();
            default -> businessReject(UNSUPPORTED_MESSAGE_TYPE, "Unsupported Message Type");
        }
    }

    private static boolean isOrderMessage(int msgType) {
        return msgType == MsgTypes.NEW_ORDER_SINGLE || msgType == MsgTypes.ORDER_CANCEL_REQUEST
            || msgType == MsgTypes.ORDER_CANCEL_REPLACE_REQUEST || msgType == MsgTypes.ORDER_STATUS_REQUEST
            || msgType == MsgTypes.ORDER_MASS_CANCEL_REQUEST || msgType == MsgTypes.ORDER_MASS_STATUS_REQUEST;
    }

    /**
     * Cancel-on-disconnect: a journaled command that cancels every live order of the session, never dropped. The
     * kill switch on a lost connection (no Logout exchange): a journaled command that engages it.
     */
    @Override
    public void onMoved(FixSession fixSession) {
        if (marketData != null) {
            marketData.onDisconnected(fixSession);
        }
    }

    @Override
    public void onDisconnected(FixSession fixSession) {
        long now = System.currentTimeMillis() * 1_000_000L;
        if (marketData != null) {
            marketData.onDisconnected(fixSession);
        }
        if (cancelOnDisconnect != null) {
            cancelOnDisconnect.submit(new Command().cancelAllForOwner(fixSession.ownerId()).timestampNanos(now));
        }
        if (killSwitchOnDisconnect != null && !fixSession.endedByLogout()) {
            killSwitchOnDisconnect.submit(new Command().killSwitch(fixSession.ownerId()).timestampNanos(now));
        }
    }

    private void newOrderSingle() {
        start(CommandType.NEW_ORDER);
        if (!clientOrderId(FixTags.CL_ORD_ID, command.clientOrderId()) || !sideAndSymbol() || !transactTime()
            || !orderType() || !timeInForce() || !quantity()) {
            return;
        }
        if (message.isSingleByte(FixTags.POSS_RESEND, 'Y')
            && session.seenClientOrderIds().contains(clientOrderIdHash())) {
            LOG.info("{}: NewOrderSingle {} resent with PossResend=Y ignored: its ClOrdID {} was already used in this"
                + " trading session", session.name(), message.longValue(FixTags.MSG_SEQ_NUM), command.clientOrderId());
            return;
        }
        if (!orderAttributes() || (command.orderType().hasLimitPrice() && !price())) {
            return;
        }
        submit();
    }

    /**
     * The order attributes of a NewOrderSingle: StopPx(99) (required on stop and stop-limit orders), MaxFloor(111),
     * MinQty(110), ExecInst(18) 6 (post-only: the dictionary allows no other value), the GTD expiry from
     * ExpireTime(126) or else ExpireDate(432). Whether they fit the order type and time in force is the engine's rule
     * (a rejecting ExecutionReport); here only their presence and format (a session Reject).
     */
    private boolean orderAttributes() {
        if (command.orderType().isStop() || message.indexOf(FixTags.STOP_PX) >= 0) {
            if (!stopPrice()) {
                return false;
            }
        }
        long maxFloor = optionalWholeNumber(FixTags.MAX_FLOOR, "MaxFloor(111)");
        long minQuantity = maxFloor == FixDecimals.INVALID ? 0 : optionalWholeNumber(FixTags.MIN_QTY, "MinQty(110)");
        if (maxFloor == FixDecimals.INVALID || minQuantity == FixDecimals.INVALID) {
            return false;
        }
        command.maxFloor(maxFloor).minQuantity(minQuantity).postOnly(message.indexOf(FixTags.EXEC_INST) >= 0);
        int expireTime = message.indexOf(FixTags.EXPIRE_TIME);
        if (expireTime >= 0) {
            long millis = FixTimestamps.parseMillis(message.buffer(), message.valueStartAt(expireTime),
                message.valueLengthAt(expireTime));
            command.expireTimeNanos(millis * 1_000_000L); // the dictionary checked the format
            return true;
        }
        int expireDate = message.indexOf(FixTags.EXPIRE_DATE);
        if (expireDate >= 0) {
            long nanos = expireDates.expiryNanos(message.buffer(), message.valueStartAt(expireDate),
                message.valueLengthAt(expireDate));
            if (nanos == ExpireDates.INVALID) {
                return reject(FixTags.EXPIRE_DATE, SessionRejectReasons.INCORRECT_DATA_FORMAT,
                    "ExpireDate(432) is not a date (YYYYMMDD)");
            }
            command.expireTimeNanos(nanos);
        }
        return true;
    }

    /** StopPx(99) at the symbol's precision (see {@link #requiredPrice}). */
    private boolean stopPrice() {
        long price = requiredPrice(FixTags.STOP_PX, "StopPx(99)", "stop and stop-limit orders",
            RejectReason.INVALID_STOP_PRICE);
        if (price == FixDecimals.INVALID) {
            return false;
        }
        command.stopPrice(price);
        return true;
    }

    /** An optional whole-number field (0 if absent); {@link FixDecimals#INVALID} after a session Reject. */
    private long optionalWholeNumber(int tag, String name) {
        int field = message.indexOf(tag);
        return field < 0 ? 0 : wholeNumber(field, name);
    }

    /** The whole number in {@code field} ({@code name}); {@link FixDecimals#INVALID} after a session Reject. */
    private long wholeNumber(int field, String name) {
        long value = FixDecimals.parse(message.buffer(), message.valueStartAt(field), message.valueLengthAt(field),
            0);
        if (value == FixDecimals.INVALID) {
            reject(message.tagAt(field), SessionRejectReasons.INCORRECT_DATA_FORMAT,
                name + " must be a whole number");
        }
        return value;
    }

    private void cancelRequest() {
        start(CommandType.CANCEL);
        if (clientOrderId(FixTags.CL_ORD_ID, command.clientOrderId())
            && clientOrderId(FixTags.ORIG_CL_ORD_ID, command.origClientOrderId()) && sideAndSymbol()
            && transactTime()) {
            submit();
        }
    }

    private void cancelReplaceRequest() {
        start(CommandType.REPLACE);
        if (!clientOrderId(FixTags.CL_ORD_ID, command.clientOrderId())
            || !clientOrderId(FixTags.ORIG_CL_ORD_ID, command.origClientOrderId()) || !sideAndSymbol()
            || !transactTime() || !orderType()) {
            return;
        }
        if (command.orderType() != OrderType.LIMIT) {
            reject(FixTags.ORD_TYPE, SessionRejectReasons.VALUE_INCORRECT, "only limit orders rest and can be replaced");
            return;
        }
        if (timeInForce() && quantity() && price()) {
            submit();
        }
    }

    private void statusRequest() {
        start(CommandType.ORDER_STATUS);
        if (clientOrderId(FixTags.CL_ORD_ID, command.clientOrderId()) && sideAndSymbol()) {
            submit();
        }
    }

    /**
     * OrderMassCancelRequest (q): MassCancelRequestType(530) 7 cancels every live order of the session, 1 those of
     * Symbol(55) (then required); an optional Side(54) keeps to that side. The dictionary allows no other type.
     */
    private void massCancelRequest() {
        start(CommandType.MASS_CANCEL);
        if (!clientOrderId(FixTags.CL_ORD_ID, command.clientOrderId()) || !transactTime()
            || !massRequestSymbol(message.isSingleByte(FixTags.MASS_CANCEL_REQUEST_TYPE, '1'),
            "MassCancelRequestType(530) 1")) {
            return;
        }
        Side side = message.isSingleByte(FixTags.SIDE, '1') ? Side.BUY
            : message.isSingleByte(FixTags.SIDE, '2') ? Side.SELL : null;
        command.side(side == null ? Side.BUY : side).quantity(side == null ? 0 : 1); // see Command.massCancelSide
        submit();
    }

    /**
     * OrderMassStatusRequest (AF): MassStatusReqType(585) 7 reports every live order of the session, 1 those of
     * Symbol(55) (then required); the MassStatusReqID(584) comes back on each report.
     */
    private void massStatusRequest() {
        start(CommandType.MASS_STATUS);
        if (clientOrderId(FixTags.MASS_STATUS_REQ_ID, command.clientOrderId())
            && massRequestSymbol(message.isSingleByte(FixTags.MASS_STATUS_REQ_TYPE, '1'),
            "MassStatusReqType(585) 1")) {
            submit();
        }
    }

    /** A mass request's symbol: Symbol(55) when {@code bySymbol} (required then), else every symbol. */
    private boolean massRequestSymbol(boolean bySymbol, String what) {
        if (!bySymbol) {
            command.symbolId(Command.ALL_SYMBOLS);
            return true;
        }
        int symbolField = message.indexOf(FixTags.SYMBOL);
        if (symbolField < 0) {
            return reject(FixTags.SYMBOL, SessionRejectReasons.REQUIRED_TAG_MISSING, "Symbol(55) is required with "
                + what);
        }
        command.symbolId(symbols.idOf(message.buffer(), message.valueStartAt(symbolField),
            message.valueLengthAt(symbolField)));
        return true;
    }

    /** Resets the scratch command for a new request; fields are then filled as they are read. */
    private void start(CommandType type) {
        command.type(type).orderType(OrderType.LIMIT).timeInForce(TimeInForce.DAY).price(0).quantity(0)
            .inboundPosition(0).journalPosition(0).possibleResend(false).stopPrice(0).maxFloor(0).minQuantity(0)
            .expireTimeNanos(0).postOnly(false);
        command.clientOrderId().clear();
        command.origClientOrderId().clear();
    }

    /**
     * Hands the command to the engine; a full ring is answered at once with a reject, nothing is dropped. The command
     * carries the request's inbound position (session epoch and MsgSeqNum) into the journal; the session counts the
     * request as received for good only once a report answering it is stored.
     */
    private void submit() {
        long inboundPosition = session.journalPositions().inboundPosition(message.longValue(FixTags.MSG_SEQ_NUM));
        command.owner(session.ownerId()).timestampNanos(nowMs * 1_000_000L).inboundPosition(inboundPosition)
            .possibleResend(message.isSingleByte(FixTags.POSS_DUP_FLAG, 'Y')
                || message.isSingleByte(FixTags.POSS_RESEND, 'Y'));
        if (command.symbolId() < 0) {
            refuse(RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        if (!engineAvailable.getAsBoolean()) {
            refuse(RejectReason.CLUSTER_UNAVAILABLE);
            return;
        }
        boolean offered = session.config().latencyTrace() ? inbound.offerTraced(command, session.lastReadNanos())
            : inbound.offer(command);
        if (offered) {
            session.journalPositions().requestQueued(inboundPosition);
            if (message.indexOf(FixTags.CL_ORD_ID) >= 0) { // a mass status request has none
                session.seenClientOrderIds().submitted(inboundPosition, clientOrderIdHash());
            }
        } else {
            refuse(RejectReason.SERVER_BUSY);
        }
    }

    /** Any thread: requests of this session refused before they reached the engine, for this reason. */
    public long refusedCount(RejectReason reason) {
        return refused.get(reason.ordinal());
    }

    private void refuse(RejectReason reason) {
        refused.increment(reason.ordinal());
        refusal.refusalOf(command, reason, nowMs * 1_000_000L);
        refusalReport.of(refusal).refusal(EventReportBody.nextRefusalNumber());
        int symbolField = message.indexOf(FixTags.SYMBOL);
        if (symbolField >= 0) { // mass requests may name none
            refusalReport.withRequestedSymbol(message.buffer(), message.valueStartAt(symbolField),
                message.valueLengthAt(symbolField));
        }
        session.seenClientOrderIds().reported(refusalReport.clientOrderIdHash());
        session.sendRefusal(refusalReport.msgType(), refusalReport, DropCopyRoutes.isCopied(refusal.type()), nowMs);
        if (refusalCopies != null && !session.clusterOwned()) { // a cluster copies what it numbers itself
            refusalCopies.copy(session, refusal, refusalReport, nowMs);
        }
    }

    private boolean clientOrderId(int tag, ClientOrderId target) {
        int length = message.valueLength(tag);
        if (length < 0) {
            return reject(tag, SessionRejectReasons.REQUIRED_TAG_MISSING, null);
        }
        if (!ClientOrderIdFields.read(message, tag, target)) {
            return reject(tag, SessionRejectReasons.VALUE_INCORRECT,
                "tag " + tag + " longer than " + ClientOrderId.MAX_LENGTH + " characters");
        }
        return true;
    }

    /** Reads Side(54) and Symbol(55) into the command; an unknown symbol becomes id -1, refused later. */
    private boolean sideAndSymbol() {
        int symbolField = message.indexOf(FixTags.SYMBOL);
        if (symbolField < 0) {
            return reject(FixTags.SYMBOL, SessionRejectReasons.REQUIRED_TAG_MISSING, null);
        }
        int sideLength = message.valueLength(FixTags.SIDE);
        if (sideLength < 0) {
            return reject(FixTags.SIDE, SessionRejectReasons.REQUIRED_TAG_MISSING, null);
        }
        Side side = message.isSingleByte(FixTags.SIDE, '1') ? Side.BUY
            : message.isSingleByte(FixTags.SIDE, '2') ? Side.SELL : null;
        if (side == null) {
            return reject(FixTags.SIDE, SessionRejectReasons.VALUE_INCORRECT, "Side(54) must be 1 (buy) or 2 (sell)");
        }
        command.side(side).symbolId(symbols.idOf(message.buffer(), message.valueStartAt(symbolField),
            message.valueLengthAt(symbolField)));
        return true;
    }

    /** TransactTime(60) is required on D, F and G in FIX 4.4; the engine stamps its own time, this one is checked. */
    private boolean transactTime() {
        int field = message.indexOf(FixTags.TRANSACT_TIME);
        if (field < 0) {
            return reject(FixTags.TRANSACT_TIME, SessionRejectReasons.REQUIRED_TAG_MISSING, null);
        }
        if (FixTimestamps.parseMillis(message.buffer(), message.valueStartAt(field), message.valueLengthAt(field))
            == Long.MIN_VALUE) {
            return reject(FixTags.TRANSACT_TIME, SessionRejectReasons.INCORRECT_DATA_FORMAT,
                "TransactTime(60) is not a UTCTimestamp");
        }
        return true;
    }

    private boolean orderType() {
        if (message.valueLength(FixTags.ORD_TYPE) < 0) {
            return reject(FixTags.ORD_TYPE, SessionRejectReasons.REQUIRED_TAG_MISSING, null);
        }
        if (message.isSingleByte(FixTags.ORD_TYPE, '2')) {
            command.orderType(OrderType.LIMIT);
        } else if (message.isSingleByte(FixTags.ORD_TYPE, '1')) {
            command.orderType(OrderType.MARKET);
        } else if (message.isSingleByte(FixTags.ORD_TYPE, '3')) {
            command.orderType(OrderType.STOP);
        } else if (message.isSingleByte(FixTags.ORD_TYPE, '4')) {
            command.orderType(OrderType.STOP_LIMIT);
        } else {
            return reject(FixTags.ORD_TYPE, SessionRejectReasons.VALUE_INCORRECT,
                "OrdType(40) must be 1 (market), 2 (limit), 3 (stop) or 4 (stop limit)");
        }
        return true;
    }

    private boolean timeInForce() {
        if (message.valueLength(FixTags.TIME_IN_FORCE) < 0 || message.isSingleByte(FixTags.TIME_IN_FORCE, '0')) {
            command.timeInForce(TimeInForce.DAY);
        } else if (message.isSingleByte(FixTags.TIME_IN_FORCE, '1')) {
            command.timeInForce(TimeInForce.GTC);
        } else if (message.isSingleByte(FixTags.TIME_IN_FORCE, '3')) {
            command.timeInForce(TimeInForce.IOC);
        } else if (message.isSingleByte(FixTags.TIME_IN_FORCE, '4')) {
            command.timeInForce(TimeInForce.FOK);
        } else if (message.isSingleByte(FixTags.TIME_IN_FORCE, '6')) {
            command.timeInForce(TimeInForce.GTD);
        } else if (message.isSingleByte(FixTags.TIME_IN_FORCE, '2')) {
            command.timeInForce(TimeInForce.AT_THE_OPENING);
        } else if (message.isSingleByte(FixTags.TIME_IN_FORCE, '7')) {
            command.timeInForce(TimeInForce.AT_THE_CLOSE);
        } else {
            return reject(FixTags.TIME_IN_FORCE, SessionRejectReasons.VALUE_INCORRECT,
                "TimeInForce(59) must be 0 (day), 1 (GTC), 2 (at the opening), 3 (IOC), 4 (FOK), 6 (GTD) or 7 (at"
                    + " the close)");
        }
        return true;
    }

    private boolean quantity() {
        int field = message.indexOf(FixTags.ORDER_QTY);
        if (field < 0) {
            return reject(FixTags.ORDER_QTY, SessionRejectReasons.REQUIRED_TAG_MISSING, null);
        }
        long quantity = wholeNumber(field, "OrderQty(38)");
        if (quantity == FixDecimals.INVALID) {
            return false;
        }
        command.quantity(quantity);
        return true;
    }

    /** Price(44) at the symbol's precision (see {@link #requiredPrice}). */
    private boolean price() {
        long price = requiredPrice(FixTags.PRICE, "Price(44)", "limit orders", RejectReason.PRICE_NOT_ON_TICK);
        if (price == FixDecimals.INVALID) {
            return false;
        }
        command.price(price);
        return true;
    }

    /**
     * A price field ({@code name}, required for {@code requiredFor}) at the symbol's precision, or
     * {@link FixDecimals#INVALID} once the request is answered: missing or no decimal at all, a session Reject; a
     * decimal that is valid FIX but finer than the tick, a rejecting ExecutionReport with {@code offTick} (a business
     * reject).
     */
    private long requiredPrice(int tag, String name, String requiredFor, RejectReason offTick) {
        int field = message.indexOf(tag);
        if (field < 0) {
            reject(tag, SessionRejectReasons.REQUIRED_TAG_MISSING, name + " is required for " + requiredFor);
            return FixDecimals.INVALID;
        }
        int scale = symbols.contains(command.symbolId()) ? symbols.priceScale(command.symbolId()) : 9;
        long price = FixDecimals.parse(message.buffer(), message.valueStartAt(field), message.valueLengthAt(field),
            scale);
        if (price != FixDecimals.INVALID) {
            return price;
        }
        if (FixDecimals.parse(message.buffer(), message.valueStartAt(field), message.valueLengthAt(field), 9)
            != FixDecimals.INVALID) {
            command.owner(session.ownerId()).timestampNanos(nowMs * 1_000_000L).inboundPosition(0);
            refuse(offTick);
        } else {
            reject(tag, SessionRejectReasons.INCORRECT_DATA_FORMAT, name + " is not a decimal number");
        }
        return FixDecimals.INVALID;
    }

    /** A session Reject naming the tag, with the reason's standard Text and then {@code detail} (null: none). */
    private boolean reject(int tag, int reason, String detail) {
        session.rejectMessage(message, tag, reason, detail, nowMs);
        return false;
    }

    /** The {@link SeenClientOrderIds#hash} of the message's ClOrdID(11) (read already: it is present). */
    private long clientOrderIdHash() {
        int field = message.indexOf(FixTags.CL_ORD_ID);
        return SeenClientOrderIds.hash(message.buffer(), message.valueStartAt(field), message.valueLengthAt(field));
    }

    private void marketDataRequest() {
        if (marketData == null) {
            businessReject(APPLICATION_NOT_AVAILABLE, "Application not available: this venue offers no market data");
        } else {
            marketData.onRequest(session, message, nowMs);
        }
    }

    /** A BusinessMessageReject (35=j) of the message with this BusinessRejectReason (380) and Text. */
    private void businessReject(long reason, String text) {
        long refSeqNum = message.longValue(FixTags.MSG_SEQ_NUM);
        String msgType = message.stringValue(FixTags.MSG_TYPE);
        MessageBody body = w -> w.field(FixTags.REF_SEQ_NUM, refSeqNum)
            .field(FixTags.REF_MSG_TYPE, msgType)
            .field(FixTags.BUSINESS_REJECT_REASON, reason)
            .field(FixTags.TEXT, text);
        session.sendApplication(MsgTypes.BUSINESS_MESSAGE_REJECT, body, nowMs);
    }
}
