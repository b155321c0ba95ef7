package io.fixmatch.engine.api;

/** The side of an order. */
public enum Side {
    BUY,
    SELL;

    private static final Side[] BY_ORDINAL = values();

    /** The side an order of this side trades against. */
    public Side opposite() {
        return this == BUY ? SELL : BUY;
    }

    /** Lookup by ordinal without the array copy {@code values()} makes on every call. */
    public static Side fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The number of constants, without the array copy {@code values()} makes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
