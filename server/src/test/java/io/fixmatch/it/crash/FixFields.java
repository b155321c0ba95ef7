package io.fixmatch.it.crash;

import java.util.HashMap;
import java.util.Map;

/**
 * One raw FIX message (as QuickFIX/J logs it) read into tag=value pairs. None of the messages the checker reads
 * repeats a tag, so a map is enough.
 */
final class FixFields {
    static final char SOH = '\u0001';

    private final Map<Integer, String> values = new HashMap<>();
    private final String raw;

    private FixFields(String raw) {
        this.raw = raw;
    }

    static FixFields parse(String raw) {
        FixFields fields = new FixFields(raw);
        int start = 0;
        while (start < raw.length()) {
            int end = raw.indexOf(SOH, start);
            if (end < 0) {
                end = raw.length();
            }
            int equals = raw.indexOf('=', start);
            if (equals > start && equals < end) {
                try {
                    fields.values.put(Integer.parseInt(raw, start, equals, 10), raw.substring(equals + 1, end));
                } catch (NumberFormatException e) {
                    // not a tag: skipped, the checker only reads numbered tags
                }
            }
            start = end + 1;
        }
        return fields;
    }

    String get(int tag) {
        return values.get(tag);
    }

    boolean has(int tag) {
        return values.containsKey(tag);
    }

    String msgType() {
        return values.getOrDefault(35, "");
    }

    int seqNum() {
        return (int) getLong(34, -1);
    }

    long getLong(int tag, long absent) {
        String value = values.get(tag);
        if (value == null) {
            return absent;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return absent;
        }
    }

    char getChar(int tag) {
        String value = values.get(tag);
        return value == null || value.isEmpty() ? '?' : value.charAt(0);
    }

    boolean isFlagSet(int tag) {
        return "Y".equals(values.get(tag));
    }

    /**
     * A hash of what a resend must keep the same: every field but BodyLength, CheckSum, PossDupFlag, SendingTime,
     * PossResend and OrigSendingTime.
     */
    int bodyHash() {
        int hash = 1;
        for (Map.Entry<Integer, String> field : values.entrySet()) {
            int tag = field.getKey();
            if (tag != 9 && tag != 10 && tag != 43 && tag != 52 && tag != 97 && tag != 122) {
                hash += tag * 31 ^ field.getValue().hashCode(); // order-independent
            }
        }
        return hash;
    }

    /** The message with '|' for SOH, for reports. */
    String show() {
        return raw.replace(SOH, '|');
    }
}
