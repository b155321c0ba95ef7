package io.fixmatch.it.crash;

/**
 * One way the server's answers and what a client was told disagree, for one ClOrdID of one session (or for a whole
 * session or symbol when {@code clOrdId} is null). {@code diagnosis} is what the server's journal says about it
 * (filled in afterwards, for people; never part of the verdict).
 */
record Disagreement(Category category, String session, String clOrdId, String detail, String diagnosis) {

    /** The kinds of disagreement, in the order reports list them. */
    enum Category {
        /** The client sent the request and never heard of it again; the server does not know it either. */
        ORDER_LOST_ON_THE_WAY_IN,
        /** The server's state shows the request acted on (acknowledged, filled, canceled); the client never heard. */
        REPORT_LOST_AFTER_CRASH,
        /** The client's last report and the server's status answer disagree in another way. */
        STATUS_MISMATCH,
        /** A request never answered, where the states alone cannot tell whether it or its answer was lost. */
        REQUEST_UNANSWERED,
        /** One ClOrdID acknowledged more than once (an order entered twice). */
        ORDER_ENTERED_TWICE,
        /** One ExecID seen with two different contents. */
        EXEC_ID_REUSED,
        /** Bought and sold quantities of a symbol differ across all clients' fills. */
        FILLS_UNBALANCED,
        /** Sequence numbers reset, went back, reused, or left a gap the client could not fill. */
        SEQUENCE_BROKEN,
        /** The client's FIX engine rejected a message of the server. */
        PROTOCOL_ERROR,
        /** The server did not answer the status request (the check could not be made). */
        NO_STATUS_ANSWER
    }

    Disagreement(Category category, String session, String clOrdId, String detail) {
        this(category, session, clOrdId, detail, null);
    }

    Disagreement withDiagnosis(String text) {
        return new Disagreement(category, session, clOrdId, detail, text);
    }

    @Override
    public String toString() {
        return category + " " + session + (clOrdId == null ? "" : " " + clOrdId) + ": " + detail
            + (diagnosis == null ? "" : " [journal: " + diagnosis + "]");
    }
}
