package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixTimestamps;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.dictionary.DictionaryValidator;
import io.fixmatch.fix.dictionary.FixDictionary;
import io.fixmatch.fix.dictionary.SessionRejectReasons;

/**
 * Judges a received message before its session acts on it, in QuickFIX/J's order (the order certification scripts
 * expect when a message has several problems): the venue data dictionary ({@link DictionaryValidator}: structure,
 * MsgType, required fields, each field), SendingTime(52) within the tolerance of our clock, the CompIDs, then, for a
 * possible duplicate, OrigSendingTime(122) present and not after SendingTime. It says what is wrong, as a
 * SessionRejectReason with its RefTagID and whether a Logout must follow the Reject; the session answers. A Logon
 * is judged by {@link #logonProblem}.
 *
 * <p>Allocation-free. One per session (the validator keeps scratch state), on the session's thread.
 */
final class InboundChecks {
    /** Nothing wrong (a valid MsgType the venue does not take passes too: the application answers it). */
    static final int PASS = -1;
    /** Not a message (its first three fields are not BeginString, BodyLength, MsgType): ignore it as garbled. */
    static final int GARBLED = -3;

    private static final int MAX_HEARTBEAT_SECONDS = 3600;
    private static final String BAD_SENDING_TIME = SessionRejectReasons.textBeforeTag(
        SessionRejectReasons.SENDING_TIME_ACCURACY) + FixTags.SENDING_TIME;
    private static final String BAD_ORIG_SENDING_TIME = SessionRejectReasons.textBeforeTag(
        SessionRejectReasons.SENDING_TIME_ACCURACY) + FixTags.ORIG_SENDING_TIME;
    private static final String BAD_COMP_ID = SessionRejectReasons.text(SessionRejectReasons.COMPID_PROBLEM);

    private final DictionaryValidator validator;
    private final byte[] clientCompId;
    private final byte[] serverCompId;
    private final long sendingTimeToleranceMs;
    private int refTagId;
    private String logoutText;

    InboundChecks(FixDictionary dictionary, byte[] clientCompId, byte[] serverCompId, long sendingTimeToleranceMs) {
        this.validator = new DictionaryValidator(dictionary);
        this.clientCompId = clientCompId;
        this.serverCompId = serverCompId;
        this.sendingTimeToleranceMs = sendingTimeToleranceMs;
    }

    /** After a reason: the RefTagID of the Reject ({@link RejectBody#NO_TAG} for none). */
    int refTagId() {
        return refTagId;
    }

    /** After a reason: the Text of the Logout that must follow the Reject (the session ends), or null. */
    String logoutText() {
        return logoutText;
    }

    /** Every check of a message received in sequence: {@link #PASS}, {@link #GARBLED} or a SessionRejectReason. */
    int check(FixMessage message, long nowMs) {
        int result = validate(message);
        if (result != PASS) {
            return result;
        }
        if (!sendingTimeAccurate(message, nowMs) && !isPossDup(message)) {
            // A resent message keeps its original content; FIX has it carry the time of the resend, but some
            // engines do not, and its OrigSendingTime is checked instead.
            return fail(SessionRejectReasons.SENDING_TIME_ACCURACY, FixTags.SENDING_TIME, BAD_SENDING_TIME);
        }
        if (!message.valueEquals(FixTags.SENDER_COMP_ID, clientCompId)
            || !message.valueEquals(FixTags.TARGET_COMP_ID, serverCompId)) {
            return fail(SessionRejectReasons.COMPID_PROBLEM, RejectBody.NO_TAG, BAD_COMP_ID);
        }
        return checkPossDup(message);
    }

    /** The venue dictionary alone: {@link #PASS}, {@link #GARBLED} or a SessionRejectReason (no Logout follows). */
    int validate(FixMessage message) {
        logoutText = null;
        int result = validator.validate(message);
        if (result == DictionaryValidator.VALID || result == DictionaryValidator.UNSUPPORTED_MSG_TYPE) {
            return PASS;
        }
        if (result == DictionaryValidator.GARBLED) {
            return GARBLED;
        }
        refTagId = validator.refTagId();
        return result;
    }

    /**
     * A message with PossDupFlag=Y (other than a SequenceReset) must carry OrigSendingTime(122), not later than its
     * SendingTime: {@link #PASS} or a SessionRejectReason (reason 10 ends the session).
     */
    int checkPossDup(FixMessage message) {
        logoutText = null;
        if (!isPossDup(message) || message.msgType() == MsgTypes.SEQUENCE_RESET) {
            return PASS;
        }
        int orig = message.indexOf(FixTags.ORIG_SENDING_TIME);
        if (orig < 0) {
            return fail(SessionRejectReasons.REQUIRED_TAG_MISSING, FixTags.ORIG_SENDING_TIME, null);
        }
        long origMs = FixTimestamps.parseMillis(message.buffer(), message.valueStartAt(orig),
            message.valueLengthAt(orig));
        if (origMs == Long.MIN_VALUE) {
            return fail(SessionRejectReasons.INCORRECT_DATA_FORMAT, FixTags.ORIG_SENDING_TIME, null);
        }
        long sendingMs = sendingTimeMillis(message);
        if (sendingMs != Long.MIN_VALUE && origMs > sendingMs) {
            return fail(SessionRejectReasons.SENDING_TIME_ACCURACY, FixTags.ORIG_SENDING_TIME, BAD_ORIG_SENDING_TIME);
        }
        return PASS;
    }

    /** Whether SendingTime(52) is a timestamp within the tolerance of {@code nowMs}. */
    boolean sendingTimeAccurate(FixMessage message, long nowMs) {
        long sendingMs = sendingTimeMillis(message);
        return sendingMs != Long.MIN_VALUE && Math.abs(nowMs - sendingMs) <= sendingTimeToleranceMs;
    }

    /**
     * Why a Logon cannot be accepted (the Text of the Logout that refuses it), or null: QuickFIX/J's checks and
     * Texts first (a negative HeartBtInt, the dictionary, SendingTime), then ours. Allocates only for a refusal.
     */
    String logonProblem(FixMessage logon, long nowMs) {
        long seqNum = logon.longValue(FixTags.MSG_SEQ_NUM);
        long heartbeatSeconds = logon.longValue(FixTags.HEART_BT_INT);
        if (seqNum == FixMessage.NOT_A_NUMBER || seqNum < 1) {
            return "MsgSeqNum(34) missing or invalid";
        }
        if (heartbeatSeconds != FixMessage.NOT_A_NUMBER && heartbeatSeconds < 0) {
            return "HeartBtInt must not be negative";
        }
        int verdict = validate(logon);
        if (verdict != PASS) {
            return "Invalid Logon message: " + (verdict == GARBLED ? "garbled" : RejectBody.text(verdict, refTagId));
        }
        if (!sendingTimeAccurate(logon, nowMs)) {
            return "Invalid Logon message: " + BAD_SENDING_TIME;
        }
        if (heartbeatSeconds > MAX_HEARTBEAT_SECONDS) {
            return "HeartBtInt(108) must be 0.." + MAX_HEARTBEAT_SECONDS;
        }
        if (logon.longValue(FixTags.ENCRYPT_METHOD) != 0) {
            return "EncryptMethod(98) is required and must be 0 (none)";
        }
        if (logon.isSingleByte(FixTags.RESET_SEQ_NUM_FLAG, 'Y') && seqNum != 1) {
            return "ResetSeqNumFlag=Y requires MsgSeqNum=1";
        }
        return null;
    }

    private static long sendingTimeMillis(FixMessage message) {
        int field = message.indexOf(FixTags.SENDING_TIME);
        return field < 0 ? Long.MIN_VALUE
            : FixTimestamps.parseMillis(message.buffer(), message.valueStartAt(field), message.valueLengthAt(field));
    }

    private static boolean isPossDup(FixMessage message) {
        return message.isSingleByte(FixTags.POSS_DUP_FLAG, 'Y');
    }

    private int fail(int reason, int tag, String logout) {
        refTagId = tag;
        logoutText = logout;
        return reason;
    }
}
