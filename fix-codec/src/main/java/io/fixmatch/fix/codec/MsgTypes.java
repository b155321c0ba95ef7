package io.fixmatch.fix.codec;

/**
 * FIX MsgType values (tag 35) as ints: a one-character type is its character code, a two-character type is
 * {@code (first << 8) | second}. Comparing ints avoids a String per message.
 */
public final class MsgTypes {
    public static final int HEARTBEAT = '0';
    public static final int TEST_REQUEST = '1';
    public static final int RESEND_REQUEST = '2';
    public static final int REJECT = '3';
    public static final int SEQUENCE_RESET = '4';
    public static final int LOGOUT = '5';
    public static final int EXECUTION_REPORT = '8';
    public static final int ORDER_CANCEL_REJECT = '9';
    public static final int LOGON = 'A';
    public static final int NEW_ORDER_SINGLE = 'D';
    public static final int ORDER_CANCEL_REQUEST = 'F';
    public static final int ORDER_CANCEL_REPLACE_REQUEST = 'G';
    public static final int ORDER_STATUS_REQUEST = 'H';
    public static final int BUSINESS_MESSAGE_REJECT = 'j';
    public static final int MARKET_DATA_REQUEST = 'V';
    public static final int MARKET_DATA_SNAPSHOT = 'W';
    public static final int MARKET_DATA_INCREMENTAL = 'X';
    public static final int MARKET_DATA_REQUEST_REJECT = 'Y';
    public static final int ORDER_MASS_CANCEL_REQUEST = 'q';
    public static final int ORDER_MASS_CANCEL_REPORT = 'r';
    public static final int ORDER_MASS_STATUS_REQUEST = ('A' << 8) | 'F';

    private MsgTypes() {
    }

    /** The int form of a MsgType value of 1 or 2 bytes; -1 for any other length. */
    public static int of(byte[] buffer, int offset, int length) {
        if (length == 1) {
            return buffer[offset];
        }
        if (length == 2) {
            return (buffer[offset] << 8) | buffer[offset + 1];
        }
        return -1;
    }

    /** Whether the type is a session-level (admin) message. */
    public static boolean isAdmin(int msgType) {
        return msgType == HEARTBEAT || msgType == TEST_REQUEST || msgType == RESEND_REQUEST || msgType == REJECT
            || msgType == SEQUENCE_RESET || msgType == LOGOUT || msgType == LOGON;
    }

    /** Writes the type's characters; returns how many (1 or 2). */
    public static int write(int msgType, byte[] buffer, int offset) {
        if (msgType > 0xFF) {
            buffer[offset] = (byte) (msgType >> 8);
            buffer[offset + 1] = (byte) msgType;
            return 2;
        }
        buffer[offset] = (byte) msgType;
        return 1;
    }

    /** Allocates: for logs. */
    public static String toString(int msgType) {
        return msgType > 0xFF ? "" + (char) (msgType >> 8) + (char) (msgType & 0xFF) : String.valueOf((char) msgType);
    }
}
