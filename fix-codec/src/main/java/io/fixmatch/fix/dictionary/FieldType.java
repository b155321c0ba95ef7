package io.fixmatch.fix.dictionary;

import io.fixmatch.fix.codec.FixTimestamps;

/**
 * The FIX data types of a QuickFIX data dictionary and the syntax each allows, checked on the raw bytes of a value
 * without allocating. Types whose syntax FIX leaves free (strings, dates kept as text) accept any non-empty value.
 */
public enum FieldType {
    STRING, CHAR, BOOLEAN, INT, NON_NEGATIVE_INT, DECIMAL, UTC_TIMESTAMP, UTC_DATE, UTC_TIME, MULTIPLE_CHAR;

    /** The type of a QuickFIX type name (FIX 4.0 to 5.0), or null if it is none. */
    public static FieldType of(String name) {
        return switch (name) {
            case "STRING", "MULTIPLEVALUESTRING", "MULTIPLESTRINGVALUE", "EXCHANGE", "CURRENCY", "COUNTRY",
                "LOCALMKTDATE", "DATA", "MONTHYEAR", "DAYOFMONTH", "LANGUAGE", "XMLDATA", "TZTIMEONLY",
                "TZTIMESTAMP", "RESERVED100PLUS", "RESERVED1000PLUS", "RESERVED4000PLUS" -> STRING;
            case "CHAR" -> CHAR;
            case "BOOLEAN" -> BOOLEAN;
            case "INT", "TAGNUM" -> INT;
            case "SEQNUM", "NUMINGROUP", "LENGTH" -> NON_NEGATIVE_INT;
            case "PRICE", "QTY", "AMT", "FLOAT", "PRICEOFFSET", "PERCENTAGE" -> DECIMAL;
            case "UTCTIMESTAMP", "TIME" -> UTC_TIMESTAMP;
            case "UTCDATEONLY", "UTCDATE", "DATE" -> UTC_DATE;
            case "UTCTIMEONLY" -> UTC_TIME;
            case "MULTIPLECHARVALUE" -> MULTIPLE_CHAR;
            default -> null;
        };
    }

    /** Whether the {@code length} bytes at {@code start} (at least one) are a value of this type. */
    public boolean accepts(byte[] buffer, int start, int length) {
        return switch (this) {
            case STRING -> true;
            case CHAR -> length == 1;
            case BOOLEAN -> length == 1 && (buffer[start] == 'Y' || buffer[start] == 'N');
            case INT -> integer(buffer, start, length, true);
            case NON_NEGATIVE_INT -> integer(buffer, start, length, false);
            case DECIMAL -> decimal(buffer, start, length);
            case UTC_TIMESTAMP -> FixTimestamps.parseMillis(buffer, start, length) != Long.MIN_VALUE;
            case UTC_DATE -> length == 8 && date(buffer, start);
            case UTC_TIME -> time(buffer, start, length);
            case MULTIPLE_CHAR -> multipleChar(buffer, start, length);
        };
    }

    /** Digits, with a leading '-' if {@code signed}; at most 18 digits (a long). */
    static boolean integer(byte[] buffer, int start, int length, boolean signed) {
        int i = start;
        int end = start + length;
        if (signed && buffer[i] == '-') {
            i++;
        }
        if (i == end || end - i > 18) {
            return false;
        }
        for (; i < end; i++) {
            if (!isDigit(buffer[i])) {
                return false;
            }
        }
        return true;
    }

    /** An optional '-', digits with at most one '.', at least one digit (no '+', no exponent). */
    private static boolean decimal(byte[] buffer, int start, int length) {
        int i = start;
        int end = start + length;
        if (buffer[i] == '-') {
            i++;
        }
        boolean digit = false;
        boolean point = false;
        for (; i < end; i++) {
            byte b = buffer[i];
            if (isDigit(b)) {
                digit = true;
            } else if (b == '.' && !point) {
                point = true;
            } else {
                return false;
            }
        }
        return digit;
    }

    /** YYYYMMDD of a real day. */
    private static boolean date(byte[] buffer, int start) {
        for (int i = start; i < start + 8; i++) {
            if (!isDigit(buffer[i])) {
                return false;
            }
        }
        int year = twoDigits(buffer, start) * 100 + twoDigits(buffer, start + 2);
        int month = twoDigits(buffer, start + 4);
        int day = twoDigits(buffer, start + 6);
        if (month < 1 || month > 12 || day < 1) {
            return false;
        }
        boolean leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        int days = month == 2 ? (leap ? 29 : 28) : month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
        return day <= days;
    }

    /** HH:MM:SS with an optional fraction of 1 to 9 digits. */
    private static boolean time(byte[] buffer, int start, int length) {
        if (length < 8 || buffer[start + 2] != ':' || buffer[start + 5] != ':') {
            return false;
        }
        int hours = twoDigits(buffer, start);
        int minutes = twoDigits(buffer, start + 3);
        int seconds = twoDigits(buffer, start + 6);
        if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 60) {
            return false;
        }
        if (length == 8) {
            return true;
        }
        if (buffer[start + 8] != '.' || length == 9 || length > 18) {
            return false;
        }
        for (int i = start + 9; i < start + length; i++) {
            if (!isDigit(buffer[i])) {
                return false;
            }
        }
        return true;
    }

    /** Single characters separated by single spaces. */
    private static boolean multipleChar(byte[] buffer, int start, int length) {
        for (int i = 0; i < length; i++) {
            boolean space = buffer[start + i] == ' ';
            if (space != (i % 2 == 1)) {
                return false;
            }
        }
        return length % 2 == 1;
    }

    private static int twoDigits(byte[] buffer, int at) {
        return isDigit(buffer[at]) && isDigit(buffer[at + 1]) ? (buffer[at] - '0') * 10 + buffer[at + 1] - '0' : -1;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
