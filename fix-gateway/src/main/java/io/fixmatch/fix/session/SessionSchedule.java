package io.fixmatch.fix.session;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.format.TextStyle;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * When a session may be logged on: a daily window from {@code start} to {@code end} in {@code zone}, on the listed
 * days (a day names the window that starts on it; an end at or before the start means the window ends the next day,
 * so {@code 22:00-06:00} runs overnight and {@code 00:00-00:00} round the clock, each day its own trading session).
 * Outside it a Logon is refused and a logged-on session is logged out; with {@code resetOnSessionStart} the sequence
 * numbers start again at 1 at the start of each window. {@link #ALWAYS}: no schedule (one trading session forever).
 * Immutable; the windows themselves are found by {@link Window}.
 */
public final class SessionSchedule {
    /** No schedule: always open, never reset. */
    public static final SessionSchedule ALWAYS = new SessionSchedule(null, null, ZoneId.of("UTC"),
        EnumSet.allOf(DayOfWeek.class), false);

    private final LocalTime start;
    private final LocalTime end;
    private final ZoneId zone;
    private final Set<DayOfWeek> days;
    private final boolean resetOnSessionStart;

    public SessionSchedule(LocalTime start, LocalTime end, ZoneId zone, Set<DayOfWeek> days,
                           boolean resetOnSessionStart) {
        if ((start == null) != (end == null)) {
            throw new IllegalArgumentException("a schedule needs both a start and an end");
        }
        if (days.isEmpty()) {
            throw new IllegalArgumentException("a schedule needs at least one day");
        }
        this.start = start;
        this.end = end;
        this.zone = zone;
        this.days = Set.copyOf(days);
        this.resetOnSessionStart = resetOnSessionStart;
    }

    /**
     * Reads the configuration's form: {@code range} "HH:MM-HH:MM" (seconds optional; null or blank: always open),
     * {@code zone} an IANA time zone (null: UTC), {@code days} comma-separated day names or ranges, e.g.
     * "MON-FRI" or "MON,WED,FRI" (null: every day).
     */
    public static SessionSchedule parse(String range, String zone, String days, boolean resetOnSessionStart) {
        ZoneId zoneId;
        try {
            zoneId = zone == null || zone.isBlank() ? ZoneId.of("UTC") : ZoneId.of(zone.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("unknown time zone " + zone);
        }
        Set<DayOfWeek> dayset = days == null || days.isBlank() ? EnumSet.allOf(DayOfWeek.class) : days(days);
        if (range == null || range.isBlank()) {
            if (resetOnSessionStart) {
                throw new IllegalArgumentException("resetOnSessionStart needs a schedule (start-end)");
            }
            return new SessionSchedule(null, null, zoneId, dayset, false);
        }
        String[] parts = range.trim().split("-");
        if (parts.length != 2) {
            throw new IllegalArgumentException("a schedule is START-END, e.g. 08:00-17:30, was " + range);
        }
        try {
            return new SessionSchedule(LocalTime.parse(parts[0].trim()), LocalTime.parse(parts[1].trim()), zoneId,
                dayset, resetOnSessionStart);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("a schedule's times are HH:MM or HH:MM:SS, was " + range);
        }
    }

    private static Set<DayOfWeek> days(String text) {
        Set<DayOfWeek> result = EnumSet.noneOf(DayOfWeek.class);
        for (String item : text.split(",")) {
            String[] range = item.trim().split("-");
            DayOfWeek first = day(range[0]);
            DayOfWeek last = range.length == 2 ? day(range[1]) : first;
            if (range.length > 2) {
                throw new IllegalArgumentException("days are MON-FRI or MON,TUE,..., was " + text);
            }
            for (DayOfWeek d = first; ; d = d.plus(1)) {
                result.add(d);
                if (d == last) {
                    break;
                }
            }
        }
        return result;
    }

    private static DayOfWeek day(String name) {
        String upper = name.trim().toUpperCase(Locale.ROOT);
        for (DayOfWeek day : DayOfWeek.values()) {
            if (day.name().startsWith(upper) && upper.length() >= 3) {
                return day;
            }
        }
        throw new IllegalArgumentException("unknown day " + name + " (MON, TUE, ... SUN)");
    }

    public boolean isAlways() {
        return start == null;
    }

    public boolean resetOnSessionStart() {
        return resetOnSessionStart;
    }

    /** For logs and Logout texts, e.g. "08:00-17:30 Europe/London MON-FRI". */
    @Override
    public String toString() {
        if (isAlways()) {
            return "always";
        }
        String dayText = days.size() == 7 ? "every day" : days.stream().sorted()
            .map(d -> d.getDisplayName(TextStyle.SHORT, Locale.ROOT).toUpperCase(Locale.ROOT))
            .collect(Collectors.joining(","));
        return start + "-" + end + " " + zone.getId() + " " + dayText
            + (resetOnSessionStart ? ", sequence reset at start" : "");
    }

    /**
     * The window in force at {@code nowMs}: its start and end (epoch ms), or, outside every window, start -1 and
     * the start of the next one as its end. Allocates (java.time): {@link Window} calls it only when a window ends.
     */
    long[] windowAt(long nowMs) {
        if (isAlways()) {
            return new long[] {0, Long.MAX_VALUE};
        }
        LocalDate today = Instant.ofEpochMilli(nowMs).atZone(zone).toLocalDate();
        for (LocalDate day = today.minusDays(1); !day.isAfter(today); day = day.plusDays(1)) {
            if (days.contains(day.getDayOfWeek())) {
                long from = startOn(day);
                long to = endOf(day);
                if (from <= nowMs && nowMs < to) {
                    return new long[] {from, to};
                }
            }
        }
        for (LocalDate day = today; ; day = day.plusDays(1)) {
            if (days.contains(day.getDayOfWeek()) && startOn(day) > nowMs) {
                return new long[] {-1, startOn(day)};
            }
        }
    }

    private long startOn(LocalDate day) {
        return ZonedDateTime.of(day, start, zone).toInstant().toEpochMilli();
    }

    private long endOf(LocalDate day) {
        LocalDate endDay = end.isAfter(start) ? day : day.plusDays(1);
        return ZonedDateTime.of(endDay, end, zone).toInstant().toEpochMilli();
    }

    /**
     * One session's view of its schedule at run time: the window in force, recomputed only when the clock leaves
     * it, so the check on every timer tick is two comparisons and allocates nothing.
     */
    public static final class Window {
        private final SessionSchedule schedule;
        private long validFrom = Long.MAX_VALUE;
        private long validUntil = Long.MIN_VALUE;
        private long start;

        public Window(SessionSchedule schedule) {
            this.schedule = schedule;
        }

        /** The start (epoch ms) of the trading session in force at {@code nowMs}, or -1 outside the schedule. */
        public long sessionStartAt(long nowMs) {
            if (nowMs < validFrom || nowMs >= validUntil) {
                long[] window = schedule.windowAt(nowMs);
                start = window[0];
                validFrom = window[0] < 0 ? nowMs : window[0];
                validUntil = window[1];
            }
            return start;
        }

        public SessionSchedule schedule() {
            return schedule;
        }
    }
}
