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
    SYMBOL_HALTED("trading in this symbol is halted: new orders and replaces are refused, cancels are accepted"),
    /** Pre-trade risk: the session's kill switch is engaged (new orders refused; its resting orders were canceled). */
    KILL_SWITCH_ENGAGED("risk: the session's kill switch is engaged"),
    /** Pre-trade risk: order quantity over the session's limit (the event carries the quantity and the limit). */
    RISK_ORDER_QUANTITY("risk: order quantity over session limit"),
    /** Pre-trade risk: price x quantity over the session's limit (value and limit in price units x quantity). */
    RISK_NOTIONAL("risk: order notional over session limit"),
    /** Pre-trade risk: a market order, a notional limit, and no price to value the order at. */
    RISK_NO_REFERENCE_PRICE("risk: no last trade or reference price to value a market order against the session's"
        + " notional limit"),
    /** Pre-trade risk: the session has as many open orders as its limit allows. */
    RISK_OPEN_ORDERS("risk: open orders at session limit"),
    /** Pre-trade risk: limit price outside the collar around the last trade or reference price. */
    RISK_PRICE_COLLAR("risk: price outside the session's price collar"),
    /** Self-trade prevention canceled the incoming order's rest (docs/MATCHING.md). */
    SELF_TRADE_INCOMING("self-trade prevention: the incoming order would have traded with a resting order of the"
        + " same session or firm; its unfilled quantity is canceled"),
    /** Self-trade prevention canceled this resting order (docs/MATCHING.md). */
    SELF_TRADE_RESTING("self-trade prevention: an incoming order of the same session or firm would have traded with"
        + " this resting order; it is canceled"),
    /** A DAY order's day ended. */
    DAY_ENDED("day order expired at the end of the trading day"),
    /** A stop or stop-limit order's StopPx is missing, not positive, above the maximum price or off the tick. */
    INVALID_STOP_PRICE("stop price must be positive, at most the symbol's maximum price and a multiple of its tick"),
    /** MaxFloor on an order that cannot rest, or not a positive lot multiple of at most the order quantity. */
    INVALID_MAX_FLOOR("MaxFloor (displayed quantity) must be a positive multiple of the lot, at most the order"
        + " quantity, on a limit order that can rest (Day, GTC, GTD)"),
    /** MinQty on an order that is not IOC, or not a positive lot multiple of at most the order quantity. */
    INVALID_MIN_QUANTITY("MinQty is only accepted on IOC orders, as a positive multiple of the lot, at most the order"
        + " quantity"),
    /** The IOC order's MinQty could not be traded at once: nothing traded, the order is canceled. */
    MIN_QUANTITY_NOT_AVAILABLE("less than the order's MinQty could be traded at once: nothing traded"),
    /** Post-only on an order that cannot rest (market, IOC, FOK, stop). */
    INVALID_POST_ONLY("post-only (ExecInst 6) is only accepted on limit orders that can rest (Day, GTC, GTD)"),
    /** A post-only order (or its replace) would trade on entry: refused, nothing happens. */
    POST_ONLY_WOULD_TAKE("post-only order would take liquidity: its price reaches the opposite side"),
    /** A GTD order without an expire time, or with one not after the time it arrives. */
    INVALID_EXPIRE_TIME("a GTD order needs an expire time (ExpireTime or ExpireDate) after the time it arrives"),
    /** An expire time on an order that is not GTD. */
    EXPIRE_TIME_NOT_GTD("an expire time (ExpireTime, ExpireDate) is only accepted with TimeInForce GTD (6)"),
    /** A replace of a stop order that has not been triggered yet. */
    STOP_NOT_TRIGGERED("a stop order waiting for its stop price cannot be replaced: cancel it and enter a new one"),
    /** A waiting stop order was triggered (the TRIGGERED event's reason, its report's Text). */
    STOP_TRIGGERED("stop order triggered: the last trade price reached its stop price"),
    /** The order was canceled by its session's order mass cancel request. */
    MASS_CANCELED("canceled by an order mass cancel request"),
    /** A mass status request found no live order to report. */
    NO_LIVE_ORDERS("no live order matches the request"),
    /** The symbol's trading day is over (after the closing auction): new orders and replaces are refused. */
    MARKET_CLOSED("the market in this symbol is closed until its opening call"),
    /** An IOC or FOK order during a call phase. */
    NOT_DURING_CALL("IOC and FOK orders are not accepted while the symbol is in a call (auction)"),
    /** At the Opening outside the opening call, or At the Close on a symbol without a schedule or after the close. */
    AUCTION_TIF_NOT_NOW("At the Opening orders are accepted during the opening call only, At the Close orders on"
        + " symbols with a schedule before the closing auction"),
    /** A replace of an order waiting for the closing call, or of a market order in a call. */
    NOT_REPLACEABLE_NOW("a market order in an auction, or an order waiting for the closing call, cannot be replaced:"
        + " cancel it and enter a new one"),
    /** What is left of an order that takes part in one auction only (market, At the Opening / Close) after it. */
    AUCTION_ENDED("the auction the order was for has ended"),
    /** An IOC, FOK or MinQty order that would have traded outside the volatility band: canceled, the auction starts. */
    VOLATILITY_INTERRUPTION("the order would have traded outside the volatility band: trading is interrupted by an"
        + " auction"),
    /** A GTD order's expire time came (unsolicited EXPIRED). */
    GTD_EXPIRED("good-till-date order expired at its expire time"),
    /** A cluster gateway with no leader answering (an election taking too long, the cluster down). */
    CLUSTER_UNAVAILABLE("cluster unavailable: no leader answers; nothing was done, retry later");

    private static final RejectReason[] BY_ORDINAL = values();

    private final String text;

    RejectReason(String text) {
        this.text = text;
    }

    /** Whether a pre-trade risk check gave it (the event then says what it measured: ExecutionEvent#risk). */
    public boolean isPreTradeRisk() {
        return switch (this) {
            case KILL_SWITCH_ENGAGED, RISK_ORDER_QUANTITY, RISK_NOTIONAL, RISK_NO_REFERENCE_PRICE, RISK_OPEN_ORDERS,
                 RISK_PRICE_COLLAR -> true;
            default -> false;
        };
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
