package io.fixmatch.engine.api;

/** The kinds of {@link ExecutionEvent}; each maps onto one FIX ExecutionReport or OrderCancelReject. */
public enum EventType {
    /** A new order was accepted (ExecType=0 New). */
    ACCEPTED,
    /** A new order was rejected; nothing in the book changed (ExecType=8 Rejected). */
    REJECTED,
    /** One side of a trade (ExecType=F Trade); the status says partially filled or filled. */
    FILL,
    /** An order was canceled, on request or because its time in force ended it (ExecType=4 Canceled). */
    CANCELED,
    /** An order was replaced (ExecType=5 Replaced). */
    REPLACED,
    /** A cancel request was refused (OrderCancelReject, CxlRejResponseTo=1). */
    CANCEL_REJECTED,
    /** A cancel/replace request was refused (OrderCancelReject, CxlRejResponseTo=2). */
    REPLACE_REJECTED,
    /** The answer to an order status request (ExecType=I Order Status). */
    STATUS,
    /**
     * A resting order expired, unsolicited (ExecType=C Expired): a DAY order at the end of the trading day, a GTD order
     * at its expire time (the reason says which).
     */
    EXPIRED,
    /**
     * A waiting stop or stop-limit order was triggered by the last trade price (unsolicited; reason STOP_TRIGGERED); it
     * trades next, as a market or limit order. FIX 4.4 has no ExecType for it (5.0's L): ExecType=D Restated,
     * ExecRestatementReason 99 and the reason's Text.
     */
    TRIGGERED,
    /**
     * The answer to an order mass cancel (OrderMassCancelReport, 35=r): the order quantity field holds the number of
     * orders it cancels (their CANCELED events follow); status REJECTED and a reason when refused.
     */
    MASS_CANCEL_REPORT,
    /**
     * One live order's state in answer to a mass status request (ExecType=I): as STATUS, with the request's
     * MassStatusReqID as the orig client order id and the number of reports answering it ({@code reportCount}); when
     * no order matches, one such event with status REJECTED and reason NO_LIVE_ORDERS.
     */
    MASS_STATUS;

    private static final EventType[] BY_ORDINAL = values();

    public static EventType fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The number of constants, without the array copy {@code values()} makes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
