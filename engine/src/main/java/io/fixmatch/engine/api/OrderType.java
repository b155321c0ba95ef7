package io.fixmatch.engine.api;

/** How an order is priced. */
public enum OrderType {
    /** Trades at its limit price or better; the remainder rests according to its time in force. */
    LIMIT,
    /** Trades at any price against what is resting; never rests. */
    MARKET,
    /**
     * Waits, out of the book, until the last trade price reaches its stop price (buy: at or above, sell: at or below),
     * then trades as a market order.
     */
    STOP,
    /** Waits as a {@link #STOP} does, then trades and rests as a limit order at its limit price. */
    STOP_LIMIT;

    private static final OrderType[] BY_ORDINAL = values();

    /** Whether the order has a limit price (limit and stop-limit orders). */
    public boolean hasLimitPrice() {
        return this == LIMIT || this == STOP_LIMIT;
    }

    /** Whether the order waits for a stop price before it trades. */
    public boolean isStop() {
        return this == STOP || this == STOP_LIMIT;
    }

    public static OrderType fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The number of constants, without the array copy {@code values()} makes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
