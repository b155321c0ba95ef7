package io.fixmatch.engine.api;

/** How an order is priced. */
public enum OrderType {
    /** Trades at its limit price or better; the remainder rests according to its time in force. */
    LIMIT,
    /** Trades at any price against what is resting; never rests. */
    MARKET;

    private static final OrderType[] BY_ORDINAL = values();

    public static OrderType fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The number of constants, without the array copy {@code values()} makes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
