package io.fixmatch.engine.api;

/** What a {@link Command} asks the engine to do. */
public enum CommandType {
    NEW_ORDER,
    CANCEL,
    REPLACE,
    /** Read-only: report the current state of a live order. */
    ORDER_STATUS,
    /** Cancel every live order of the owner (cancel-on-disconnect). */
    CANCEL_ALL_FOR_OWNER;

    private static final CommandType[] BY_ORDINAL = values();

    public static CommandType fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The number of constants, without the array copy {@code values()} makes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
