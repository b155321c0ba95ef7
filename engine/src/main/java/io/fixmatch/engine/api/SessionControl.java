package io.fixmatch.engine.api;

/**
 * A session's pre-trade risk and self-trade prevention settings, as the engine keeps them (0: not set, no limit).
 * Each is set by a journaled {@link CommandType#SET_SESSION_CONTROL} command and written to snapshots under its
 * {@link #code()}, which never changes (never the ordinal): new settings take new codes.
 */
public enum SessionControl {
    /** Largest order quantity (new orders; replaces that lose priority). */
    MAX_ORDER_QUANTITY(1),
    /** Largest order notional, in whole units of the price currency (price x quantity). */
    MAX_NOTIONAL(2),
    /** Most live (resting) orders; a new DAY or GTC limit order beyond is refused. */
    MAX_OPEN_ORDERS(3),
    /** Price collar around the reference price, in basis points of it (100 = 1%). */
    PRICE_COLLAR_BASIS_POINTS(4),
    /** Price collar around the reference price, in ticks of the symbol. */
    PRICE_COLLAR_TICKS(5),
    /** The session's firm: sessions of one firm (non-zero) are one party for self-trade prevention. */
    FIRM(6),
    /** The {@link SelfTradePrevention#code()} of the session's incoming orders. */
    SELF_TRADE_PREVENTION(7),
    /** Snapshots only (never set by SET_SESSION_CONTROL): 1 while the session's kill switch is engaged. */
    KILL_SWITCH(8);

    private static final SessionControl[] BY_CODE = new SessionControl[9];

    static {
        for (SessionControl control : values()) {
            BY_CODE[control.code] = control;
        }
    }

    private final int code;

    SessionControl(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The control with this code, or null. */
    public static SessionControl ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
