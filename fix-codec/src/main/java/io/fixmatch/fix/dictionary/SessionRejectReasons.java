package io.fixmatch.fix.dictionary;

/**
 * FIX 4.4 SessionRejectReason (373) values and the Text(58) that goes with them: the description certification
 * scripts (QuickFIX/J's acceptance definitions among them) expect Text to start with, followed by
 * {@code ", field=" + RefTagID} where a tag is concerned.
 */
public final class SessionRejectReasons {
    public static final int INVALID_TAG_NUMBER = 0;
    public static final int REQUIRED_TAG_MISSING = 1;
    public static final int TAG_NOT_DEFINED_FOR_MESSAGE_TYPE = 2;
    public static final int UNDEFINED_TAG = 3;
    public static final int TAG_WITHOUT_VALUE = 4;
    public static final int VALUE_INCORRECT = 5;
    public static final int INCORRECT_DATA_FORMAT = 6;
    public static final int DECRYPTION_PROBLEM = 7;
    public static final int SIGNATURE_PROBLEM = 8;
    public static final int COMPID_PROBLEM = 9;
    public static final int SENDING_TIME_ACCURACY = 10;
    public static final int INVALID_MSG_TYPE = 11;
    public static final int XML_VALIDATION_ERROR = 12;
    public static final int TAG_APPEARS_MORE_THAN_ONCE = 13;
    public static final int TAG_OUT_OF_ORDER = 14;
    public static final int GROUP_FIELDS_OUT_OF_ORDER = 15;
    public static final int INCORRECT_NUM_IN_GROUP = 16;
    public static final int FIELD_DELIMITER_IN_VALUE = 17;
    public static final int OTHER = 99;

    private static final String[] TEXTS = {
        "Invalid tag number",
        "Required tag missing",
        "Tag not defined for this message type",
        "Undefined Tag",
        "Tag specified without a value",
        "Value is incorrect (out of range) for this tag",
        "Incorrect data format for value",
        "Decryption problem",
        "Signature problem",
        "CompID problem",
        "SendingTime accuracy problem",
        "Invalid MsgType",
        "XML Validation error",
        "Tag appears more than once",
        "Tag specified out of required order",
        "Out of order repeating group members",
        "Incorrect NumInGroup count for repeating group",
        "Non Data value includes field delimiter",
    };

    private SessionRejectReasons() {
    }

    /** The standard description of a reason ("Other" for 99 and unknown codes). No allocation. */
    public static String text(int reason) {
        return reason >= 0 && reason < TEXTS.length ? TEXTS[reason] : "Other";
    }

    /** The prefix of a Text naming the tag: the description then ", field=" (append the RefTagID). */
    public static String textBeforeTag(int reason) {
        return reason >= 0 && reason < TEXTS.length ? TEXTS_BEFORE_TAG[reason] : "Other, field=";
    }

    private static final String[] TEXTS_BEFORE_TAG = new String[TEXTS.length];

    static {
        for (int i = 0; i < TEXTS.length; i++) {
            TEXTS_BEFORE_TAG[i] = TEXTS[i] + ", field=";
        }
    }
}
