package io.fixmatch.fix.codec;

/**
 * FIX UTCTimestamp ({@code YYYYMMDD-HH:MM:SS.sss}) written and read without java.time objects: the civil date is
 * computed from the day number (the days-from-civil algorithm) and cached for the day, so writing a timestamp is
 * a few divisions and byte stores.
 */
public final class FixTimestamps {
    public static final int LENGTH = 21;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private long cachedDay = Long.MIN_VALUE;
    private final byte[] cachedDate = new byte[8];

    /** Writes the timestamp of {@code epochNanos} (millisecond precision); returns {@link #LENGTH}. */
    public int write(long epochNanos, byte[] buffer, int offset) {
        long millis = Math.floorDiv(epochNanos, NANOS_PER_MILLI);
        long day = Math.floorDiv(millis, MILLIS_PER_DAY);
        if (day != cachedDay) {
            cacheDate(day);
        }
        System.arraycopy(cachedDate, 0, buffer, offset, 8);
        int millisOfDay = (int) (millis - day * MILLIS_PER_DAY);
        int p = offset + 8;
        buffer[p++] = '-';
        p = twoDigits(millisOfDay / 3_600_000, buffer, p);
        buffer[p++] = ':';
        p = twoDigits(millisOfDay / 60_000 % 60, buffer, p);
        buffer[p++] = ':';
        p = twoDigits(millisOfDay / 1000 % 60, buffer, p);
        buffer[p++] = '.';
        int ms = millisOfDay % 1000;
        buffer[p++] = (byte) ('0' + ms / 100);
        buffer[p++] = (byte) ('0' + ms / 10 % 10);
        buffer[p] = (byte) ('0' + ms % 10);
        return LENGTH;
    }

    /**
     * Reads a UTCTimestamp {@code YYYYMMDD-HH:MM:SS} with optional fraction of 1 to 9 digits; returns epoch
     * milliseconds, or {@link Long#MIN_VALUE} if the text is not a valid timestamp.
     */
    public static long parseMillis(byte[] buffer, int offset, int length) {
        if (length < 17 || buffer[offset + 8] != '-' || buffer[offset + 11] != ':' || buffer[offset + 14] != ':') {
            return Long.MIN_VALUE;
        }
        int year = number(buffer, offset, 4);
        int month = number(buffer, offset + 4, 2);
        int dayOfMonth = number(buffer, offset + 6, 2);
        int hour = number(buffer, offset + 9, 2);
        int minute = number(buffer, offset + 12, 2);
        int second = number(buffer, offset + 15, 2);
        if (year < 0 || month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > 31 || hour < 0 || hour > 23
            || minute < 0 || minute > 59 || second < 0 || second > 60 || dayOfMonth > daysInMonth(year, month)) {
            return Long.MIN_VALUE;
        }
        int millis = 0;
        if (length > 17) {
            int fractionDigits = length - 18;
            if (buffer[offset + 17] != '.' || fractionDigits < 1 || fractionDigits > 9) {
                return Long.MIN_VALUE;
            }
            int fraction = number(buffer, offset + 18, Math.min(3, fractionDigits));
            if (fraction < 0 || number(buffer, offset + 18, fractionDigits) < 0) {
                return Long.MIN_VALUE;
            }
            millis = fractionDigits >= 3 ? fraction : fraction * (fractionDigits == 1 ? 100 : 10);
        }
        long day = daysFromCivil(year, month, dayOfMonth);
        return day * MILLIS_PER_DAY + hour * 3_600_000L + minute * 60_000L + second * 1000L + millis;
    }

    private void cacheDate(long day) {
        // civil-from-days (proleptic Gregorian), after Howard Hinnant's public-domain algorithm.
        long z = day + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        int dayOfMonth = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        int year = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        cachedDate[0] = (byte) ('0' + year / 1000 % 10);
        cachedDate[1] = (byte) ('0' + year / 100 % 10);
        cachedDate[2] = (byte) ('0' + year / 10 % 10);
        cachedDate[3] = (byte) ('0' + year % 10);
        twoDigits(month, cachedDate, 4);
        twoDigits(dayOfMonth, cachedDate, 6);
        cachedDay = day;
    }

    private static long daysFromCivil(int year, int month, int dayOfMonth) {
        int y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        long dayOfYear = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + dayOfMonth - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }

    private static int daysInMonth(int year, int month) {
        if (month == 2) {
            return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    private static int twoDigits(int value, byte[] buffer, int p) {
        buffer[p] = (byte) ('0' + value / 10);
        buffer[p + 1] = (byte) ('0' + value % 10);
        return p + 2;
    }

    private static int number(byte[] buffer, int offset, int digits) {
        int value = 0;
        for (int i = 0; i < digits; i++) {
            int d = buffer[offset + i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            value = value * 10 + d;
        }
        return value;
    }
}
