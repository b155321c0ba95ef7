package io.fixmatch.it.crash;

/**
 * What a client received about an order: an ExecutionReport (35=8) or an OrderCancelReject (35=9), reduced to the
 * fields the checker compares. {@code seqNum} is the server's MsgSeqNum, so reports sort in the order the server
 * produced them whatever order resends brought them in. {@code deliverTo} (DeliverToCompID) names, on a drop copy,
 * the session the original went to (null on an original). {@code transactTime} is the engine's time of the command
 * that caused it: the two fills of a trade carry the same.
 */
record Report(int seqNum, char msgType, String execId, char execType, char ordStatus, String clOrdId,
              String origClOrdId, String orderId, String symbol, char side, long lastQty, String lastPx, long cumQty,
              long leavesQty, String text, String deliverTo, String transactTime) {

    static final char EXECUTION_REPORT = '8';
    static final char CANCEL_REJECT = '9';

    static Report of(FixFields message) {
        return new Report(message.seqNum(), message.getChar(35), message.get(17), message.getChar(150),
            message.getChar(39), message.get(11), message.get(41), message.get(37), message.get(55),
            message.getChar(54), message.getLong(32, 0), message.get(31), message.getLong(14, 0),
            message.getLong(151, 0), message.get(58), message.get(128), message.get(60));
    }

    /** An answer to an OrderStatusRequest (ExecType I): the server's view, not an event. */
    boolean isStatusAnswer() {
        return msgType == EXECUTION_REPORT && execType == 'I';
    }

    /**
     * A cluster gateway's refusal while no leader answers ("cluster unavailable"): nothing was done, not even a status
     * answer looked up; the request may be sent again.
     */
    boolean isClusterUnavailable() {
        return text != null && text.startsWith("cluster unavailable");
    }

    /** An execution: the report of something that happened to an order, with an ExecID that names it. */
    boolean isExecution() {
        return msgType == EXECUTION_REPORT && execType != 'I';
    }

    boolean isFill() {
        return msgType == EXECUTION_REPORT && execType == 'F';
    }

    /** Everything an ExecID stands for: two reports with one ExecID must agree on all of it. */
    String content() {
        return "ExecType=" + execType + " OrdStatus=" + ordStatus + " ClOrdID=" + clOrdId + " OrigClOrdID="
            + origClOrdId + " OrderID=" + orderId + " " + symbol + " side " + side + " LastQty=" + lastQty
            + " LastPx=" + lastPx + " CumQty=" + cumQty + " LeavesQty=" + leavesQty;
    }

    String describe() {
        return "seq " + seqNum + " 35=" + msgType + (execId == null ? "" : " ExecID=" + execId) + " " + content()
            + (text == null ? "" : " Text=" + text);
    }
}
