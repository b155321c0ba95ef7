package io.fixmatch.engine.api;

/**
 * The state of an order after an event (FIX OrdStatus). FIX 4.4 reports a replace with ExecType=5 and the order's
 * current state, so there is no "replaced" status.
 */
public enum OrderStatus {
    NEW,
    PARTIALLY_FILLED,
    FILLED,
    CANCELED,
    REJECTED,
    /** A DAY order the end of the trading day ended (FIX OrdStatus C). */
    EXPIRED;

    private static final OrderStatus[] BY_ORDINAL = values();

    public static OrderStatus fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The number of constants, without the array copy {@code values()} makes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
