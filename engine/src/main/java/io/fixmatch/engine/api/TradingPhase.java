package io.fixmatch.engine.api;

/**
 * Where a symbol is in its trading day (docs/MATCHING.md, "Trading phases and auctions"). Codes are written to
 * snapshots and market data; they never change.
 */
public enum TradingPhase {
    /** Orders match as they arrive (the only phase of a symbol without a schedule). */
    CONTINUOUS(0),
    /** Orders collect without matching until the opening uncross. */
    OPENING_CALL(1),
    /** Orders collect without matching until the closing uncross. */
    CLOSING_CALL(2),
    /** A volatility interruption, or a halt's reopening: orders collect until the interruption's end. */
    VOLATILITY_CALL(3),
    /** After the closing uncross until the next opening call: new orders and replaces are refused. */
    CLOSED(4);

    private static final TradingPhase[] BY_CODE = values();

    private final int code;

    TradingPhase(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** Whether orders collect without matching. */
    public boolean isCall() {
        return this == OPENING_CALL || this == CLOSING_CALL || this == VOLATILITY_CALL;
    }

    /** The phase with this code, or null. */
    public static TradingPhase ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
