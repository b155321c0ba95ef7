package io.fixmatch.fix.codec;

import java.nio.charset.StandardCharsets;

/**
 * One parsed FIX message as a view over its bytes: for each field, its tag and where its value lies. Nothing is
 * copied or converted until asked, and asking allocates nothing (except {@link #stringValue}, for logs and rare
 * admin fields). Reused: {@link FixParser} refills it for every message.
 */
public final class FixMessage {
    /** A frame of the largest accepted size holds at most this many fields ("1=x|" is 4 bytes). */
    public static final int MAX_FIELDS = 4096;
    /** Returned by the numeric accessors for an absent or non-numeric value. */
    public static final long NOT_A_NUMBER = Long.MIN_VALUE;

    byte[] buffer;
    int offset;
    int length;
    final int[] tags = new int[MAX_FIELDS];
    final int[] valueStarts = new int[MAX_FIELDS];
    final int[] valueLengths = new int[MAX_FIELDS];
    int fieldCount;
    int msgType;
    int errorTag;

    public byte[] buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    public int msgType() {
        return msgType;
    }

    /** After a failed parse: the tag the error is about (0 if none). */
    public int errorTag() {
        return errorTag;
    }

    public int fieldCount() {
        return fieldCount;
    }

    public int tagAt(int field) {
        return tags[field];
    }

    public int valueStartAt(int field) {
        return valueStarts[field];
    }

    public int valueLengthAt(int field) {
        return valueLengths[field];
    }

    /** The index of the first field with this tag, or -1. */
    public int indexOf(int tag) {
        for (int i = 0; i < fieldCount; i++) {
            if (tags[i] == tag) {
                return i;
            }
        }
        return -1;
    }

    public boolean has(int tag) {
        return indexOf(tag) >= 0;
    }

    /** The value as a non-negative or negative integer, or {@link #NOT_A_NUMBER} if absent or not an integer. */
    public long longValue(int tag) {
        int field = indexOf(tag);
        return field < 0 ? NOT_A_NUMBER : parseLong(buffer, valueStarts[field], valueLengths[field]);
    }

    /** The first byte of the value, or 0 if absent. */
    public byte byteValue(int tag) {
        int field = indexOf(tag);
        return field < 0 ? 0 : buffer[valueStarts[field]];
    }

    /** The value length, or -1 if absent. */
    public int valueLength(int tag) {
        int field = indexOf(tag);
        return field < 0 ? -1 : valueLengths[field];
    }

    /** Whether the value is a single byte equal to {@code expected} (flags like Y/N, sides, types). */
    public boolean isSingleByte(int tag, char expected) {
        int field = indexOf(tag);
        return field >= 0 && valueLengths[field] == 1 && buffer[valueStarts[field]] == expected;
    }

    /** Whether the value equals the ASCII bytes {@code expected}. */
    public boolean valueEquals(int tag, byte[] expected) {
        int field = indexOf(tag);
        if (field < 0 || valueLengths[field] != expected.length) {
            return false;
        }
        int start = valueStarts[field];
        for (int i = 0; i < expected.length; i++) {
            if (buffer[start + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }

    /** Allocates: for logs and rarely used fields. Null if absent. */
    public String stringValue(int tag) {
        int field = indexOf(tag);
        return field < 0 ? null : new String(buffer, valueStarts[field], valueLengths[field], StandardCharsets.US_ASCII);
    }

    /** Allocates: the message with SOH shown as '|', for logs. */
    @Override
    public String toString() {
        return new String(buffer, offset, length, StandardCharsets.US_ASCII).replace('\u0001', '|');
    }

    /** Parses an optionally signed decimal integer of at most 18 digits; {@link #NOT_A_NUMBER} otherwise. */
    public static long parseLong(byte[] bytes, int start, int length) {
        if (length <= 0) {
            return NOT_A_NUMBER;
        }
        int i = start;
        int end = start + length;
        boolean negative = bytes[i] == '-';
        if (negative) {
            i++;
        }
        if (i == end || end - i > 18) {
            return NOT_A_NUMBER;
        }
        long value = 0;
        for (; i < end; i++) {
            int digit = bytes[i] - '0';
            if (digit < 0 || digit > 9) {
                return NOT_A_NUMBER;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }
}
