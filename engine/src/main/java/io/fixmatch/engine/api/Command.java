package io.fixmatch.engine.api;

/**
 * One instruction to the engine. Mutable and reused: the matching loop fills one instance per command it reads
 * (from the inbound ring or from the journal), so no command allocates.
 *
 * <p>Which fields matter depends on the type:
 * <ul>
 *   <li>NEW_ORDER: owner, clientOrderId, symbolId, side, orderType, timeInForce, price (limit and stop-limit only),
 *       quantity; and the order's attributes, 0 / false when absent: stopPrice (stop and stop-limit orders),
 *       maxFloor (an iceberg's displayed quantity), minQuantity (IOC: the least it must trade at once),
 *       expireTimeNanos (GTD: when the engine expires it), postOnly (refused if it would trade on entry).</li>
 *   <li>CANCEL: owner, clientOrderId (of the request), origClientOrderId, symbolId, side.</li>
 *   <li>REPLACE: owner, clientOrderId (the order's new id), origClientOrderId, symbolId, side, price, quantity
 *       (the new total order quantity).</li>
 *   <li>ORDER_STATUS: owner, clientOrderId (of the order asked about), symbolId, side.</li>
 *   <li>CANCEL_ALL_FOR_OWNER: owner.</li>
 *   <li>HALT_SYMBOL, RESUME_SYMBOL: symbolId (owner 0: the operator).</li>
 *   <li>BOOK_QUERY: symbolId, and the asker's request number in the quantity field, echoed in the answer (owner 0).
 *       </li>
 *   <li>KILL_SWITCH, RELEASE_KILL_SWITCH: owner (the session the operator or the gateway acts on).</li>
 *   <li>EXPIRE_DAY_ORDERS: nothing (owner 0).</li>
 *   <li>SET_SESSION_CONTROL: owner, the {@link SessionControl} code in the symbolId field, the value in the quantity
 *       field.</li>
 *   <li>SET_REFERENCE_PRICE: symbolId, price (owner 0).</li>
 *   <li>TIMER: nothing (owner 0): the engine does the time-driven work due at the command's timestamp.</li>
 *   <li>MASS_CANCEL: owner, clientOrderId (of the request), symbolId ({@link #ALL_SYMBOLS}: every symbol), side with a
 *       quantity of 1 (that side only) or 0 (both sides): see {@link #massCancelSide()}.</li>
 *   <li>MASS_STATUS: owner, clientOrderId (the request's MassStatusReqID), symbolId ({@link #ALL_SYMBOLS}: every
 *       symbol).</li>
 *   <li>SET_SYMBOL_CONTROL: symbolId, the {@link SymbolControl} code in the price field, the value in the quantity
 *       field, a time zone id in the clientOrderId field (owner 0).</li>
 * </ul>
 * The timestamp is set once where the command enters the system, so replaying a journal reproduces the events
 * exactly, timestamps included.
 *
 * <p>{@code inboundPosition} (journaled) is where the command came from in its owner's FIX session: the session's
 * reset epoch and the message's MsgSeqNum ({@code epoch << 40 | MsgSeqNum}), 0 for commands no client message
 * carried (cancel-on-disconnect). Recovery derives from it which inbound messages the journal already holds.
 * {@code journalPosition} (not encoded) is where the journal recorded the command, 0 if it was not recorded; the
 * events it causes carry it, so a session store knows which events it has stored. {@code possibleResend}
 * (journaled): the client marked the request as possibly sent before (PossDupFlag or PossResend): a new order or
 * replace whose ClOrdID is already live is then answered with the order's status, not entered twice.
 */
public final class Command {
    /** The owner id of the operator's commands: no session has it (sessions are numbered from 1). */
    public static final int OPERATOR = 0;
    /** The symbol id of a mass cancel or mass status request that names no symbol: every symbol. */
    public static final int ALL_SYMBOLS = Integer.MAX_VALUE;

    private CommandType type;
    private long timestampNanos;
    private int owner;
    private final ClientOrderId clientOrderId = new ClientOrderId();
    private final ClientOrderId origClientOrderId = new ClientOrderId();
    private int symbolId;
    private Side side;
    private OrderType orderType;
    private TimeInForce timeInForce;
    private long price;
    private long quantity;
    private long inboundPosition;
    private long journalPosition;
    private boolean possibleResend;
    private long stopPrice;
    private long maxFloor;
    private long minQuantity;
    private long expireTimeNanos;
    private boolean postOnly;

    public Command newOrder(int owner, CharSequence clientOrderId, int symbolId, Side side, OrderType orderType,
                            TimeInForce timeInForce, long price, long quantity) {
        reset(CommandType.NEW_ORDER, owner, clientOrderId, symbolId, side);
        this.orderType = orderType;
        this.timeInForce = timeInForce;
        this.price = price;
        this.quantity = quantity;
        return this;
    }

    public Command cancel(int owner, CharSequence clientOrderId, CharSequence origClientOrderId, int symbolId,
                          Side side) {
        reset(CommandType.CANCEL, owner, clientOrderId, symbolId, side);
        setOrigClientOrderId(origClientOrderId);
        return this;
    }

    public Command replace(int owner, CharSequence clientOrderId, CharSequence origClientOrderId, int symbolId,
                           Side side, long price, long quantity) {
        reset(CommandType.REPLACE, owner, clientOrderId, symbolId, side);
        setOrigClientOrderId(origClientOrderId);
        this.orderType = OrderType.LIMIT;
        this.price = price;
        this.quantity = quantity;
        return this;
    }

    public Command orderStatus(int owner, CharSequence clientOrderId, int symbolId, Side side) {
        reset(CommandType.ORDER_STATUS, owner, clientOrderId, symbolId, side);
        return this;
    }

    /** Cancels all live orders of {@code owner}; its client order id is only for the journal's readers. */
    public Command cancelAllForOwner(int owner) {
        reset(CommandType.CANCEL_ALL_FOR_OWNER, owner, "", 0, Side.BUY);
        return this;
    }

    /** The operator halts trading in a symbol; journaled, so a replay halts it again. */
    public Command haltSymbol(int symbolId) {
        reset(CommandType.HALT_SYMBOL, OPERATOR, "", symbolId, Side.BUY);
        return this;
    }

    /** The operator resumes trading in a symbol; journaled. */
    public Command resumeSymbol(int symbolId) {
        reset(CommandType.RESUME_SYMBOL, OPERATOR, "", symbolId, Side.BUY);
        return this;
    }

    /** The operator asks for a copy of a book; {@code requestId} (carried as the quantity) names the answer. */
    public Command bookQuery(int symbolId, long requestId) {
        reset(CommandType.BOOK_QUERY, OPERATOR, "", symbolId, Side.BUY);
        this.quantity = requestId;
        return this;
    }

    /** Engages the session's kill switch: its orders are canceled, new ones refused until released. Journaled. */
    public Command killSwitch(int owner) {
        reset(CommandType.KILL_SWITCH, owner, "", 0, Side.BUY);
        return this;
    }

    /** Releases the session's kill switch. Journaled. */
    public Command releaseKillSwitch(int owner) {
        reset(CommandType.RELEASE_KILL_SWITCH, owner, "", 0, Side.BUY);
        return this;
    }

    /** The end of the trading day: every resting DAY order expires. Journaled. */
    public Command expireDayOrders() {
        reset(CommandType.EXPIRE_DAY_ORDERS, OPERATOR, "", 0, Side.BUY);
        return this;
    }

    /** Sets one of the session's risk or self-trade prevention settings (0: none). Journaled. */
    public Command setSessionControl(int owner, SessionControl control, long value) {
        reset(CommandType.SET_SESSION_CONTROL, owner, "", control.code(), Side.BUY);
        this.quantity = value;
        return this;
    }

    /** Sets the symbol's reference price (the price collar's reference before its first trade; 0: none). */
    public Command setReferencePrice(int symbolId, long price) {
        reset(CommandType.SET_REFERENCE_PRICE, OPERATOR, "", symbolId, Side.BUY);
        this.price = price;
        return this;
    }

    /**
     * The server's (owner 0): the engine does the time-driven work due at the command's timestamp (GTD expiries).
     * Journaled, so a replay does it at the same place.
     */
    public Command timer() {
        reset(CommandType.TIMER, OPERATOR, "", 0, Side.BUY);
        return this;
    }

    /**
     * The session's order mass cancel: its live orders of {@code symbolId} ({@link #ALL_SYMBOLS}: every symbol) on
     * {@code side} (null: both sides) are canceled. Journaled.
     */
    public Command massCancel(int owner, CharSequence clientOrderId, int symbolId, Side side) {
        reset(CommandType.MASS_CANCEL, owner, clientOrderId, symbolId, side == null ? Side.BUY : side);
        this.quantity = side == null ? 0 : 1;
        return this;
    }

    /** The session's mass status request {@code requestId} for its live orders of a symbol or all. Not journaled. */
    public Command massStatus(int owner, CharSequence requestId, int symbolId) {
        reset(CommandType.MASS_STATUS, owner, requestId, symbolId, Side.BUY);
        return this;
    }

    /** Sets one of the symbol's schedule or volatility settings. Journaled. */
    public Command setSymbolControl(int symbolId, SymbolControl control, long value) {
        reset(CommandType.SET_SYMBOL_CONTROL, OPERATOR, "", symbolId, Side.BUY);
        this.price = control.code();
        this.quantity = value;
        return this;
    }

    /** Sets the time zone of the symbol's schedule (an id of {@code java.time.ZoneId}). Journaled. */
    public Command setSymbolTimeZone(int symbolId, CharSequence zoneId) {
        reset(CommandType.SET_SYMBOL_CONTROL, OPERATOR, zoneId, symbolId, Side.BUY);
        this.price = SymbolControl.TIME_ZONE.code();
        return this;
    }

    private void reset(CommandType type, int owner, CharSequence clientOrderId, int symbolId, Side side) {
        this.type = type;
        this.owner = owner;
        setClientOrderId(clientOrderId);
        this.origClientOrderId.clear();
        this.symbolId = symbolId;
        this.side = side;
        this.orderType = OrderType.LIMIT;
        this.timeInForce = TimeInForce.DAY;
        this.price = 0;
        this.quantity = 0;
        this.inboundPosition = 0;
        this.journalPosition = 0;
        this.possibleResend = false;
        this.stopPrice = 0;
        this.maxFloor = 0;
        this.minQuantity = 0;
        this.expireTimeNanos = 0;
        this.postOnly = false;
    }

    private void setClientOrderId(CharSequence id) {
        if (!clientOrderId.copyFrom(id)) {
            throw new IllegalArgumentException("client order id longer than " + ClientOrderId.MAX_LENGTH);
        }
    }

    private void setOrigClientOrderId(CharSequence id) {
        if (!origClientOrderId.copyFrom(id)) {
            throw new IllegalArgumentException("client order id longer than " + ClientOrderId.MAX_LENGTH);
        }
    }

    /** Copies every field of {@code other}; used by decoders that fill a command field by field elsewhere. */
    public void copyFrom(Command other) {
        type = other.type;
        timestampNanos = other.timestampNanos;
        owner = other.owner;
        clientOrderId.copyFrom(other.clientOrderId);
        origClientOrderId.copyFrom(other.origClientOrderId);
        symbolId = other.symbolId;
        side = other.side;
        orderType = other.orderType;
        timeInForce = other.timeInForce;
        price = other.price;
        quantity = other.quantity;
        inboundPosition = other.inboundPosition;
        journalPosition = other.journalPosition;
        possibleResend = other.possibleResend;
        stopPrice = other.stopPrice;
        maxFloor = other.maxFloor;
        minQuantity = other.minQuantity;
        expireTimeNanos = other.expireTimeNanos;
        postOnly = other.postOnly;
    }

    public CommandType type() { return type; }
    public long timestampNanos() { return timestampNanos; }
    public int owner() { return owner; }
    public ClientOrderId clientOrderId() { return clientOrderId; }
    public ClientOrderId origClientOrderId() { return origClientOrderId; }
    public int symbolId() { return symbolId; }
    public Side side() { return side; }
    public OrderType orderType() { return orderType; }
    public TimeInForce timeInForce() { return timeInForce; }
    public long price() { return price; }
    public long quantity() { return quantity; }
    public long inboundPosition() { return inboundPosition; }
    public long journalPosition() { return journalPosition; }
    public boolean possibleResend() { return possibleResend; }
    public long stopPrice() { return stopPrice; }
    public long maxFloor() { return maxFloor; }
    public long minQuantity() { return minQuantity; }
    public long expireTimeNanos() { return expireTimeNanos; }
    public boolean postOnly() { return postOnly; }

    /** A MASS_CANCEL's side: the side whose orders it cancels, or null for both. */
    public Side massCancelSide() {
        return quantity == 0 ? null : side;
    }

    /** Whether any of the order attributes that travel in the codec's extension is set. */
    public boolean hasAttributes() {
        return stopPrice != 0 || maxFloor != 0 || minQuantity != 0 || expireTimeNanos != 0;
    }

    public Command type(CommandType value) { type = value; return this; }
    public Command timestampNanos(long value) { timestampNanos = value; return this; }
    public Command owner(int value) { owner = value; return this; }
    public Command symbolId(int value) { symbolId = value; return this; }
    public Command side(Side value) { side = value; return this; }
    public Command orderType(OrderType value) { orderType = value; return this; }
    public Command timeInForce(TimeInForce value) { timeInForce = value; return this; }
    public Command price(long value) { price = value; return this; }
    public Command quantity(long value) { quantity = value; return this; }
    public Command inboundPosition(long value) { inboundPosition = value; return this; }
    public Command journalPosition(long value) { journalPosition = value; return this; }
    public Command possibleResend(boolean value) { possibleResend = value; return this; }
    public Command stopPrice(long value) { stopPrice = value; return this; }
    public Command maxFloor(long value) { maxFloor = value; return this; }
    public Command minQuantity(long value) { minQuantity = value; return this; }
    public Command expireTimeNanos(long value) { expireTimeNanos = value; return this; }
    public Command postOnly(boolean value) { postOnly = value; return this; }

    /** Allocates: for logs, tests and the journal dump. */
    @Override
    public String toString() {
        return type + " t=" + timestampNanos + " owner=" + owner + " clOrdId=" + clientOrderId
            + (origClientOrderId.isEmpty() ? "" : " origClOrdId=" + origClientOrderId)
            + " symbol=" + symbolId + " side=" + side + " type=" + orderType + " tif=" + timeInForce
            + " price=" + price + " qty=" + quantity + (inboundPosition == 0 ? "" : " inbound=" + inboundPosition)
            + (possibleResend ? " possResend" : "") + (stopPrice == 0 ? "" : " stopPx=" + stopPrice)
            + (maxFloor == 0 ? "" : " maxFloor=" + maxFloor) + (minQuantity == 0 ? "" : " minQty=" + minQuantity)
            + (expireTimeNanos == 0 ? "" : " expire=" + expireTimeNanos) + (postOnly ? " postOnly" : "");
    }
}
