package io.fixmatch.fix.app;

import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;

/**
 * The instant a GTD order with an ExpireDate(432) expires: the end of that trading day, the venue's end of day
 * ({@code engine.endOfDay}) on that date in {@code engine.timeZone}, or, without one, midnight at the end of that
 * date in that zone. The gateway puts the instant into the order's command (journaled), so the engine, and every
 * replay, expire it then. The last date asked is kept: a day's orders convert without allocating.
 */
public final class ExpireDates {
    /** No end of day configured, zone UTC. */
    public static final ExpireDates MIDNIGHT_UTC = new ExpireDates(null, ZoneId.of("UTC"));
    public static final long INVALID = Long.MIN_VALUE;

    private final LocalTime endOfDay;
    private final ZoneId zone;
    private int lastDate = -1;
    private long lastNanos;

    /** @param endOfDay the venue's end of the trading day, or null (GTD orders then expire at midnight) */
    public ExpireDates(LocalTime endOfDay, ZoneId zone) {
        this.endOfDay = endOfDay;
        this.zone = zone;
    }

    /** The expiry (epoch ns) of the LocalMktDate YYYYMMDD at {@code start}; {@link #INVALID} if it is no date. */
    public long expiryNanos(byte[] buffer, int start, int length) {
        if (length != 8) {
            return INVALID;
        }
        int date = 0;
        for (int i = start; i < start + 8; i++) {
            int digit = buffer[i] - '0';
            if (digit < 0 || digit > 9) {
                return INVALID;
            }
            date = date * 10 + digit;
        }
        if (date == lastDate) {
            return lastNanos;
        }
        int year = date / 10_000;
        int month = date / 100 % 100;
        int day = date % 100;
        if (month < 1 || month > 12 || day < 1 || day > LocalDate.of(year, month, 1).lengthOfMonth()) {
            return INVALID;
        }
        LocalDate local = LocalDate.of(year, month, day);
        long seconds = endOfDay == null ? local.plusDays(1).atStartOfDay(zone).toEpochSecond()
            : local.atTime(endOfDay).atZone(zone).toEpochSecond();
        lastDate = date;
        lastNanos = seconds * 1_000_000_000L;
        return lastNanos;
    }
}
