package io.fixmatch.fix.session;

/** FIX 4.4 SessionRejectReason (373) values used by the gateway. */
public final class SessionRejectReason {
    public static final int INVALID_TAG_NUMBER = 0;
    public static final int REQUIRED_TAG_MISSING = 1;
    public static final int TAG_NOT_DEFINED_FOR_MESSAGE_TYPE = 2;
    public static final int TAG_WITHOUT_VALUE = 4;
    public static final int VALUE_INCORRECT = 5;
    public static final int INCORRECT_DATA_FORMAT = 6;
    public static final int COMPID_PROBLEM = 9;
    public static final int SENDING_TIME_ACCURACY = 10;
    public static final int INVALID_MSG_TYPE = 11;
    public static final int TAG_APPEARS_MORE_THAN_ONCE = 13;
    public static final int TAG_OUT_OF_ORDER = 14;
    public static final int OTHER = 99;

    private SessionRejectReason() {
    }
}
