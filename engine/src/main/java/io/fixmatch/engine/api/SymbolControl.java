package io.fixmatch.engine.api;

/**
 * A symbol's trading schedule and volatility settings, as the engine keeps them. Each is set by a journaled
 * {@link CommandType#SET_SYMBOL_CONTROL} command and written to snapshots under its {@link #code()}, which never
 * changes. The four auction times are milliseconds after midnight in the symbol's {@link #TIME_ZONE}, or -1 for
 * none: the schedule is in force only when all four are set, in this order within a day (opening call before
 * opening uncross, which is not after the closing call, which is before the closing uncross).
 */
public enum SymbolControl {
    /** When the opening call starts (ms of the day; -1: none). */
    OPENING_CALL(1, -1),
    /** When the opening auction uncrosses (ms of the day, before the random end; -1: none). */
    OPENING_UNCROSS(2, -1),
    /** When the closing call starts (ms of the day; -1: none). */
    CLOSING_CALL(3, -1),
    /** When the closing auction uncrosses (ms of the day, before the random end; -1: none). */
    CLOSING_UNCROSS(4, -1),
    /** Each scheduled uncross comes up to this many ms later, by a deterministic draw per symbol and day. */
    RANDOM_END_MILLIS(5, 0),
    /** The volatility band around the last trade price, in basis points of it (0: none). */
    VOLATILITY_BAND_BASIS_POINTS(6, 0),
    /** How long a volatility interruption (and a halt's reopening auction) lasts, in ms (0: uncross at once). */
    INTERRUPTION_MILLIS(7, 0),
    /** The schedule's time zone: its id travels in the command's client order id field; the value is unused. */
    TIME_ZONE(8, 0);

    private static final SymbolControl[] BY_CODE = new SymbolControl[9];

    static {
        for (SymbolControl control : values()) {
            BY_CODE[control.code] = control;
        }
    }

    private final int code;
    private final long none;

    SymbolControl(int code, long none) {
        this.code = code;
        this.none = none;
    }

    public int code() {
        return code;
    }

    /** The value that means "not set". */
    public long none() {
        return none;
    }

    /** The control with this code, or null. */
    public static SymbolControl ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
