package io.fixmatch.engine.api;

/** How long the unfilled part of an order lives. */
public enum TimeInForce {
    /** Rests until filled or canceled (the engine has no sessions, so Day and GTC behave alike here). */
    DAY,
    /** Good till canceled: rests until filled or canceled. */
    GTC,
    /** Immediate or cancel: fill what can be filled now, cancel the rest. */
    IOC,
    /** Fill or kill: fill the whole quantity now, or nothing at all. */
    FOK,
    /** Good till date: rests until filled, canceled, or its expire time (the engine expires it then). */
    GTD,
    /** At the opening: takes part in the opening auction only (accepted during its call), canceled after it. */
    AT_THE_OPENING,
    /** At the close: waits for the closing call, takes part in the closing auction only, canceled after it. */
    AT_THE_CLOSE;

    private static final TimeInForce[] BY_ORDINAL = values();

    /** Whether the unfilled remainder of a limit order rests in the book. */
    public boolean rests() {
        return this == DAY || this == GTC || this == GTD || this == AT_THE_OPENING || this == AT_THE_CLOSE;
    }

    public static TimeInForce fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The number of constants, without the array copy {@code values()} makes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
