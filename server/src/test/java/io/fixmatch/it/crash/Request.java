package io.fixmatch.it.crash;

/**
 * An order request a client's FIX engine numbered (and so will send, now or on resend): NewOrderSingle,
 * OrderCancelRequest or OrderCancelReplaceRequest. For a cancel, symbol and side are those of the order it names;
 * quantity and price are 0 and null.
 */
record Request(Kind kind, String clOrdId, String origClOrdId, String symbol, char side, long quantity, String price,
               int seqNum) {

    /** The request types, by their MsgType. */
    enum Kind {
        NEW_ORDER("D"), CANCEL("F"), REPLACE("G");

        private final String msgType;

        Kind(String msgType) {
            this.msgType = msgType;
        }

        String msgType() {
            return msgType;
        }

        /** The kind of an order request's MsgType, or null for any other message. */
        static Kind of(String msgType) {
            for (Kind kind : values()) {
                if (kind.msgType.equals(msgType)) {
                    return kind;
                }
            }
            return null;
        }
    }

    static Request of(FixFields message) {
        Kind kind = Kind.of(message.msgType());
        if (kind == null) {
            throw new IllegalArgumentException("not an order request: " + message.show());
        }
        return new Request(kind, message.get(11), message.get(41), message.get(55), message.getChar(54),
            message.getLong(38, 0), message.get(44), message.seqNum());
    }
}
