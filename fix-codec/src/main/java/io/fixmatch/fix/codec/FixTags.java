package io.fixmatch.fix.codec;

/** The FIX 4.4 tag numbers this gateway reads or writes. */
public final class FixTags {
    public static final int ACCOUNT = 1;
    public static final int AVG_PX = 6;
    public static final int BEGIN_SEQ_NO = 7;
    public static final int BEGIN_STRING = 8;
    public static final int BODY_LENGTH = 9;
    public static final int CHECK_SUM = 10;
    public static final int CL_ORD_ID = 11;
    public static final int CUM_QTY = 14;
    public static final int EXEC_ID = 17;
    public static final int EXEC_INST = 18;
    public static final int END_SEQ_NO = 16;
    public static final int MSG_SEQ_NUM = 34;
    public static final int MSG_TYPE = 35;
    public static final int NEW_SEQ_NO = 36;
    public static final int ORDER_ID = 37;
    public static final int ORDER_QTY = 38;
    public static final int ORD_STATUS = 39;
    public static final int ORD_TYPE = 40;
    public static final int ORIG_CL_ORD_ID = 41;
    public static final int POSS_DUP_FLAG = 43;
    public static final int PRICE = 44;
    public static final int REF_SEQ_NUM = 45;
    public static final int SENDER_COMP_ID = 49;
    public static final int SENDING_TIME = 52;
    public static final int SIDE = 54;
    public static final int SYMBOL = 55;
    public static final int TARGET_COMP_ID = 56;
    public static final int TEXT = 58;
    public static final int TIME_IN_FORCE = 59;
    public static final int TRANSACT_TIME = 60;
    public static final int LAST_PX = 31;
    public static final int LAST_QTY = 32;
    public static final int POSS_RESEND = 97;
    public static final int STOP_PX = 99;
    public static final int MIN_QTY = 110;
    public static final int MAX_FLOOR = 111;
    public static final int EXPIRE_TIME = 126;
    public static final int EXPIRE_DATE = 432;
    public static final int ENCRYPT_METHOD = 98;
    public static final int CXL_REJ_REASON = 102;
    public static final int ORD_REJ_REASON = 103;
    public static final int HEART_BT_INT = 108;
    public static final int TEST_REQ_ID = 112;
    public static final int ORIG_SENDING_TIME = 122;
    public static final int GAP_FILL_FLAG = 123;
    public static final int RESET_SEQ_NUM_FLAG = 141;
    public static final int EXEC_TYPE = 150;
    public static final int LEAVES_QTY = 151;
    public static final int REF_TAG_ID = 371;
    public static final int EXEC_RESTATEMENT_REASON = 378;
    public static final int MASS_CANCEL_REQUEST_TYPE = 530;
    public static final int MASS_CANCEL_RESPONSE = 531;
    public static final int MASS_CANCEL_REJECT_REASON = 532;
    public static final int TOTAL_AFFECTED_ORDERS = 533;
    public static final int MASS_STATUS_REQ_ID = 584;
    public static final int MASS_STATUS_REQ_TYPE = 585;
    public static final int TOT_NUM_REPORTS = 911;
    public static final int LAST_RPT_REQUESTED = 912;
    public static final int REF_MSG_TYPE = 372;
    public static final int SESSION_REJECT_REASON = 373;
    public static final int BUSINESS_REJECT_REF_ID = 379;
    public static final int BUSINESS_REJECT_REASON = 380;
    public static final int CXL_REJ_RESPONSE_TO = 434;
    public static final int USERNAME = 553;
    public static final int PASSWORD = 554;
    public static final int NEXT_EXPECTED_MSG_SEQ_NUM = 789;
    /** Drop copy (docs/FIX.md): the CompID of the session a copied report was sent to. */
    public static final int DELIVER_TO_COMP_ID = 128;
    /** Drop copy: Y on a copied ExecutionReport. */
    public static final int COPY_MSG_INDICATOR = 797;

    // Market data (V, W, X, Y)
    public static final int NO_RELATED_SYM = 146;
    public static final int MD_REQ_ID = 262;
    public static final int SUBSCRIPTION_REQUEST_TYPE = 263;
    public static final int MARKET_DEPTH = 264;
    public static final int MD_UPDATE_TYPE = 265;
    public static final int AGGREGATED_BOOK = 266;
    public static final int NO_MD_ENTRY_TYPES = 267;
    public static final int NO_MD_ENTRIES = 268;
    public static final int MD_ENTRY_TYPE = 269;
    public static final int MD_ENTRY_PX = 270;
    public static final int MD_ENTRY_SIZE = 271;
    public static final int MD_UPDATE_ACTION = 279;
    public static final int MD_REQ_REJ_REASON = 281;

    // Latency trace (user-defined tags, docs/FIX.md): on ExecutionReports of sessions with latencyTrace=true, the
    // server's System.nanoTime() (CLOCK_MONOTONIC: comparable with a client's on the same host) at each stage of
    // the command that caused the report.
    /** The request's bytes were read from the socket. */
    public static final int TRACE_SOCKET_READ = 7101;
    /** The command was offered to the inbound ring. */
    public static final int TRACE_RING_OFFER = 7102;
    /** The matching thread took the command from the ring. */
    public static final int TRACE_MATCH_START = 7103;
    /** The journal append of the command returned. */
    public static final int TRACE_JOURNAL_DONE = 7104;
    /** The engine finished the command; its events are on the outbound ring. */
    public static final int TRACE_MATCH_DONE = 7105;
    /** The gateway took this report's event from the outbound ring. */
    public static final int TRACE_RING_TAKEN = 7106;
    /** The report was encoded and handed to the socket write (the last moment the message itself can carry). */
    public static final int TRACE_WRITE = 7107;

    private FixTags() {
    }
}
