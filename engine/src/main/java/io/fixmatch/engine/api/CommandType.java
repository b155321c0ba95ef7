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
    BOOK_QUERY,
    /**
     * The operator's (owner: the session it acts on), or the gateway's when the session's connection is lost: engage
     * the session's kill switch: its live orders are canceled, its new orders and replaces refused until released.
     */
    KILL_SWITCH,
    /** The operator's (owner: the session): release the session's kill switch. */
    RELEASE_KILL_SWITCH,
    /** The server's at the end of the trading day (owner 0): every resting DAY order expires. */
    EXPIRE_DAY_ORDERS,
    /**
     * The server's, at start, for each configured setting that differs from the engine's (owner: the session): sets
     * one of the session's pre-trade risk or self-trade prevention settings ({@link SessionControl}, carried in the
     * symbol id field; the value in the quantity field). Journaled, so a replay decides with the settings in force
     * when the command was first processed.
     */
    SET_SESSION_CONTROL,
    /** The server's, at start, when the configured reference price differs (owner 0): symbol id, price. */
    SET_REFERENCE_PRICE,
    /**
     * The server's (owner 0), when the engine's next deadline is due: the time-driven work due at the command's
     * timestamp (GTD expiries). Every journaled command does that work first, so this one only matters when nothing
     * else arrives; journaled, so a replay does the same work at the same place.
     */
    TIMER,
    /**
     * A session's order mass cancel (owner: the session): every live order of the owner, or of one symbol, or of one
     * side, is canceled; answered first by a MASS_CANCEL_REPORT with the count.
     */
    MASS_CANCEL,
    /**
     * Read-only, not journaled: the state of every live order of the owner (or of one symbol), one MASS_STATUS event
     * each.
     */
    MASS_STATUS,
    /**
     * The server's, at start, for each configured schedule or volatility setting of a symbol that differs from the
     * engine's (owner 0): the {@link SymbolControl} code in the price field, its value in the quantity field, a time
     * zone id in the client order id. Journaled.
     */
    SET_SYMBOL_CONTROL;

    private static final CommandType[] BY_ORDINAL = values();

    /** Whether the command may change the engine's state, so that it is journaled before the engine acts on it. */
    public boolean changesState() {
        return this != ORDER_STATUS && this != BOOK_QUERY && this != MASS_STATUS;
    }

    /**
     * Whether the command is the operator's or the server's (no client request): refused, it is answered with no
     * event; processed, it answers no one (the events it causes, cancels and expiries, are unsolicited).
     */
    public boolean isOperators() {
        return this == HALT_SYMBOL || this == RESUME_SYMBOL || this == BOOK_QUERY || this == KILL_SWITCH
            || this == RELEASE_KILL_SWITCH || this == EXPIRE_DAY_ORDERS || this == SET_SESSION_CONTROL
            || this == SET_REFERENCE_PRICE || this == TIMER || this == SET_SYMBOL_CONTROL;
    }

    public static CommandType fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The number of constants, without the array copy {@code values()} makes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
