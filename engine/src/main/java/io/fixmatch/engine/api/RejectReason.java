package io.fixmatch.engine.api;

/** Why the engine refused a command. The text goes to the client verbatim (FIX tag 58). */
public enum RejectReason {
    NONE("none"),
    INVALID_OWNER("owner id outside 0..65535"),
    UNKNOWN_SYMBOL("unknown symbol"),
    MISSING_CLIENT_ORDER_ID("client order id is missing"),
    DUPLICATE_CLIENT_ORDER_ID("client order id is already used by a live order of this session"),
    QUANTITY_NOT_POSITIVE("quantity must be positive"),
    QUANTITY_TOO_LARGE("quantity exceeds the symbol's maximum order quantity"),
    QUANTITY_NOT_LOT_MULTIPLE("quantity is not a multiple of the symbol's lot size"),
    QUANTITY_NOT_ABOVE_FILLED("new quantity must exceed the quantity already filled"),
    PRICE_NOT_POSITIVE("limit price must be positive"),
    PRICE_TOO_LARGE("price exceeds the symbol's maximum price"),
    PRICE_NOT_ON_TICK("price is not a multiple of the symbol's tick size"),
    NO_LIQUIDITY("market order with nothing on the opposite side"),
    BOOK_FULL("order book capacity exhausted"),
    UNKNOWN_ORDER("no live order with that client order id (unknown, filled or canceled)"),
    SIDE_OR_SYMBOL_MISMATCH("side or symbol differ from the original order"),
    JOURNAL_UNAVAILABLE("the request could not be recorded (journal unavailable); nothing was done"),
    SERVER_BUSY("the server is overloaded; nothing was done, retry later"),
    SYMBOL_HALTED("trading in this symbol is halted: new orders and replaces are refused, cancels are accepted");

    private static final RejectReason[] BY_ORDINAL = values();

    private final String text;

    RejectReason(String text) {
        this.text = text;
    }

    /** Human-readable reason, sent to clients. */
    public String text() {
        return text;
    }

    public static RejectReason fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The number of constants, without the array copy {@code values()} makes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
