package io.fixmatch.engine.api;

/** What a {@link Command} asks the engine to do. */
public enum CommandType {
    NEW_ORDER,
    CANCEL,
    REPLACE,
    /** Read-only: report the current state of a live order. */
    ORDER_STATUS,
    /** Cancel every live order of the owner (cancel-on-disconnect, or the operator's cancel-all). */
    CANCEL_ALL_FOR_OWNER,
    /** The operator's: halt trading in a symbol (new orders and replaces refused, cancels accepted). */
    HALT_SYMBOL,
    /** The operator's: resume trading in a halted symbol. */
    RESUME_SYMBOL,
    /**
     * The operator's, read-only: the matching thread answers with a copy of a book's top levels and a summary of
     * every book ({@code EngineView}). Not journaled: it changes nothing.
     */
    BOOK_QUERY;

    private static final CommandType[] BY_ORDINAL = values();

    /** Whether the command may change the engine's state, so that it is journaled before the engine acts on it. */
    public boolean changesState() {
        return this != ORDER_STATUS && this != BOOK_QUERY;
    }

    /** Whether the command is the operator's (owner 0, no session): the engine answers it with no event. */
    public boolean isOperators() {
        return this == HALT_SYMBOL || this == RESUME_SYMBOL || this == BOOK_QUERY;
    }

    public static CommandType fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The number of constants, without the array copy {@code values()} makes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
