package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TradingPhase;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;

/**
 * One symbol's trading day: its phase, its schedule (four times of the day in its time zone, an optional random end
 * of each uncross), its volatility band and interruption length, and the deadlines that follow from them: the next
 * scheduled point and the end of a running interruption. Pure state and time arithmetic on the journal times it is
 * given; the engine acts on the transitions. The schedule's arithmetic allocates (java.time), only when a setting
 * changes or a scheduled point passes, a few times a day.
 */
final class TradingSession {
    static final long NONE = Long.MAX_VALUE;
    static final int OPENING_CALL = 0;
    static final int OPENING_UNCROSS = 1;
    static final int CLOSING_CALL = 2;
    static final int CLOSING_UNCROSS = 3;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    final int symbolId;
    TradingPhase phase = TradingPhase.CONTINUOUS;
    /** The four times of the day (ms after midnight; -1: none), by point kind. */
    final long[] times = {-1, -1, -1, -1};
    long randomEndMillis;
    long bandBasisPoints;
    long interruptionMillis;
    String zoneId = "UTC";
    private ZoneId zone = ZoneId.of("UTC");
    /** The next scheduled point (epoch ns; NONE without a schedule) and its kind. */
    long nextPoint = NONE;
    int nextPointKind;
    /** When the running volatility interruption (or reopening auction) ends (epoch ns); NONE if none runs. */
    long interruptionEnd = NONE;
    /** The last indicative price and volume published for the call (0: none). */
    long indicativePrice;
    long indicativeVolume;

    TradingSession(int symbolId) {
        this.symbolId = symbolId;
    }

    /** When this symbol next has a transition of its own (epoch ns), NONE if never. */
    long deadline() {
        return Math.min(nextPoint, interruptionEnd);
    }

    /** Whether the four times are all set and in order within a day. */
    boolean scheduled() {
        return times[OPENING_CALL] >= 0 && times[OPENING_CALL] < times[OPENING_UNCROSS]
            && times[OPENING_UNCROSS] <= times[CLOSING_CALL] && times[CLOSING_CALL] < times[CLOSING_UNCROSS];
    }

    /** Sets a control; returns whether its value changed. The time zone's id comes apart ({@link #zone}). */
    boolean set(SymbolControl control, long value) {
        long before = get(control);
        switch (control) {
            case OPENING_CALL -> times[OPENING_CALL] = timeOfDay(value);
            case OPENING_UNCROSS -> times[OPENING_UNCROSS] = timeOfDay(value);
            case CLOSING_CALL -> times[CLOSING_CALL] = timeOfDay(value);
            case CLOSING_UNCROSS -> times[CLOSING_UNCROSS] = timeOfDay(value);
            case RANDOM_END_MILLIS -> randomEndMillis = Math.max(0, value);
            case VOLATILITY_BAND_BASIS_POINTS -> bandBasisPoints = Math.max(0, value);
            case INTERRUPTION_MILLIS -> interruptionMillis = Math.max(0, value);
            case TIME_ZONE -> { }
        }
        return get(control) != before;
    }

    /** A time of the day in ms, or -1 (none) for anything outside one day. */
    private static long timeOfDay(long millis) {
        return millis >= 0 && millis < 86_400_000L ? millis : -1;
    }

    long get(SymbolControl control) {
        return switch (control) {
            case OPENING_CALL -> times[OPENING_CALL];
            case OPENING_UNCROSS -> times[OPENING_UNCROSS];
            case CLOSING_CALL -> times[CLOSING_CALL];
            case CLOSING_UNCROSS -> times[CLOSING_UNCROSS];
            case RANDOM_END_MILLIS -> randomEndMillis;
            case VOLATILITY_BAND_BASIS_POINTS -> bandBasisPoints;
            case INTERRUPTION_MILLIS -> interruptionMillis;
            case TIME_ZONE -> 0;
        };
    }

    /** Sets the schedule's time zone; false (nothing changes) if the id names none or is the same. */
    boolean zone(String id) {
        if (id.equals(zoneId)) {
            return false;
        }
        try {
            zone = ZoneId.of(id);
        } catch (RuntimeException e) {
            return false; // the server validated it; a journal of another release's zone data keeps the old one
        }
        zoneId = id;
        return true;
    }

    /** The phase the schedule gives at {@code nanos}: after the latest scheduled point at or before it. */
    TradingPhase scheduledPhaseAt(long nanos) {
        long latest = Long.MIN_VALUE;
        int kind = CLOSING_UNCROSS;
        LocalDate day = dayOf(nanos);
        for (int d = -1; d <= 1; d++) {
            for (int k = 0; k < 4; k++) {
                long point = pointOn(day.plusDays(d), k);
                if (point <= nanos && point > latest) {
                    latest = point;
                    kind = k;
                }
            }
        }
        return phaseAfter(kind);
    }

    /** Sets the next scheduled point: the first strictly after {@code nanos} (NONE without a schedule). */
    void scheduleAfter(long nanos) {
        nextPoint = NONE;
        if (!scheduled()) {
            return;
        }
        LocalDate day = dayOf(nanos);
        for (int d = -1; d <= 1; d++) {
            for (int k = 0; k < 4; k++) {
                long point = pointOn(day.plusDays(d), k);
                if (point > nanos && point < nextPoint) {
                    nextPoint = point;
                    nextPointKind = k;
                }
            }
        }
    }

    /** The phase a scheduled point of this kind begins. */
    static TradingPhase phaseAfter(int kind) {
        return switch (kind) {
            case OPENING_CALL -> TradingPhase.OPENING_CALL;
            case OPENING_UNCROSS -> TradingPhase.CONTINUOUS;
            case CLOSING_CALL -> TradingPhase.CLOSING_CALL;
            default -> TradingPhase.CLOSED;
        };
    }

    private LocalDate dayOf(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L)).atZone(zone).toLocalDate();
    }

    /** The point of this kind on this day (epoch ns): its time in the zone, plus the day's random end (uncrosses). */
    private long pointOn(LocalDate day, int kind) {
        long millis = times[kind];
        long seconds = day.atTime(LocalTime.ofSecondOfDay(millis / 1000)).atZone(zone).toEpochSecond();
        long nanos = seconds * 1_000_000_000L + (millis % 1000) * NANOS_PER_MILLI;
        if ((kind == OPENING_UNCROSS || kind == CLOSING_UNCROSS) && randomEndMillis > 0) {
            nanos += randomMillis(day.toEpochDay(), kind) * NANOS_PER_MILLI;
        }
        return nanos;
    }

    /** The random end of an uncross: 0..randomEndMillis, the same for the same symbol, day and kind everywhere. */
    long randomMillis(long epochDay, int kind) {
        long x = symbolId * 0x9E3779B97F4A7C15L + epochDay * 0xBF58476D1CE4E5B9L + kind * 0x94D049BB133111EBL;
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        x ^= x >>> 27;
        x *= 0x94D049BB133111EBL;
        x ^= x >>> 31;
        return Math.floorMod(x, randomEndMillis + 1);
    }
}
