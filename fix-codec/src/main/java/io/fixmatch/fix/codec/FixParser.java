package io.fixmatch.fix.codec;

/**
 * Splits a framed FIX message (see {@link FixFramer}, which has checked BeginString, BodyLength and CheckSum) into
 * its fields, and checks the grammar every message must follow. Allocation-free.
 */
public final class FixParser {
    /** The message is well formed. */
    public static final int OK = 0;
    /**
     * A tag is not a positive integer followed by '=' (SessionRejectReason 0, invalid tag number); the error tag is
     * the tag as far as it was a number ({@code 0=}: 0, {@code -1=}: -1, {@code abc=}: 0).
     */
    public static final int INVALID_TAG = 1;
    /** A tag has an empty value (SessionRejectReason 4). */
    public static final int EMPTY_VALUE = 2;
    /** MsgType is not the third field, or is missing (SessionRejectReason 14 / garbled). */
    public static final int MSG_TYPE_NOT_THIRD = 3;
    /** More fields than {@link FixMessage#MAX_FIELDS}. */
    public static final int TOO_MANY_FIELDS = 4;
    /** A header or order field appears more than once (SessionRejectReason 13). */
    public static final int DUPLICATE_TAG = 5;

    private FixParser() {
    }

    /**
     * Parses {@code length} bytes at {@code offset} (a whole frame, SOH-terminated) into {@code message}.
     * Returns {@link #OK} or an error code; for errors about one tag,
     * {@link FixMessage#errorTag()} says which. After an error, {@link FixMessage#msgType()} is still set if the
     * third field, MsgType, was read before it (-1 otherwise), and the fields before the error are there.
     */
    public static int parse(byte[] buffer, int offset, int length, FixMessage message) {
        message.buffer = buffer;
        message.offset = offset;
        message.length = length;
        message.fieldCount = 0;
        message.msgType = -1;
        message.errorTag = 0;
        int end = offset + length;
        int i = offset;
        while (i < end) {
            int tag = 0;
            int tagStart = i;
            while (i < end && buffer[i] >= '0' && buffer[i] <= '9' && i - tagStart < 9) {
                tag = tag * 10 + (buffer[i] - '0');
                i++;
            }
            if (i == tagStart || i == end || buffer[i] != '=' || tag == 0 || buffer[tagStart] == '0') {
                message.errorTag = i == tagStart ? negativeTag(buffer, tagStart, end) : tag;
                return INVALID_TAG;
            }
            i++;
            int valueStart = i;
            while (i < end && buffer[i] != FixFramer.SOH) {
                i++;
            }
            if (i == valueStart) {
                message.errorTag = tag;
                return EMPTY_VALUE;
            }
            int field = message.fieldCount;
            if (field == FixMessage.MAX_FIELDS) {
                return TOO_MANY_FIELDS;
            }
            if (isSingular(tag) && message.indexOf(tag) >= 0) {
                message.errorTag = tag;
                return DUPLICATE_TAG;
            }
            message.tags[field] = tag;
            message.valueStarts[field] = valueStart;
            message.valueLengths[field] = i - valueStart;
            message.fieldCount++;
            if (field == 2 && tag == FixTags.MSG_TYPE) {
                // Known from here on, so that a Reject of a message that fails later can still name its type.
                message.msgType = MsgTypes.of(buffer, valueStart, i - valueStart);
            }
            i++; // past SOH
        }
        if (message.fieldCount < 3 || message.tags[2] != FixTags.MSG_TYPE) {
            message.errorTag = FixTags.MSG_TYPE;
            return MSG_TYPE_NOT_THIRD;
        }
        message.msgType = MsgTypes.of(buffer, message.valueStarts[2], message.valueLengths[2]);
        return OK;
    }

    /** For a tag written as {@code -n=}: -n, so that a Reject can name it as written; 0 for anything else. */
    private static int negativeTag(byte[] buffer, int start, int end) {
        int value = 0;
        int i = start + 1;
        if (start >= end || buffer[start] != '-') {
            return 0;
        }
        while (i < end && buffer[i] >= '0' && buffer[i] <= '9' && i - start <= 9) {
            value = value * 10 + (buffer[i] - '0');
            i++;
        }
        return i < end && buffer[i] == '=' && i > start + 1 ? -value : 0;
    }

    /**
     * Fields that must not repeat: the standard header and every field the gateway reads. Others may repeat (in
     * repeating groups), so they are not checked here. Symbol(55) repeats in the groups of market data messages (V,
     * X); where it must appear once (D, F, G, H) the data dictionary's check refuses a second one (Reject 373=13).
     */
    private static boolean isSingular(int tag) {
        return switch (tag) {
            case FixTags.BEGIN_STRING, FixTags.BODY_LENGTH, FixTags.MSG_TYPE, FixTags.SENDER_COMP_ID,
                FixTags.TARGET_COMP_ID, FixTags.MSG_SEQ_NUM, FixTags.SENDING_TIME, FixTags.POSS_DUP_FLAG,
                FixTags.CL_ORD_ID, FixTags.ORIG_CL_ORD_ID, FixTags.SIDE, FixTags.ORDER_QTY,
                FixTags.ORD_TYPE, FixTags.PRICE, FixTags.TIME_IN_FORCE, FixTags.HEART_BT_INT,
                FixTags.BEGIN_SEQ_NO, FixTags.END_SEQ_NO, FixTags.NEW_SEQ_NO, FixTags.GAP_FILL_FLAG -> true;
            default -> false;
        };
    }
}
