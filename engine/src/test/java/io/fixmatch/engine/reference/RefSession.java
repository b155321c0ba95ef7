package io.fixmatch.engine.reference;

import io.fixmatch.engine.api.TradingPhase;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * One symbol's trading day as docs/MATCHING.md ("Trading phases and auctions") describes it, written from the text:
 * the schedule's points are listed day by day and searched, nothing cached but the phase, the next point and the
 * interruption's end.
 */
final class RefSession {
    static final long NONE = Long.MAX_VALUE;
    /** Point kinds, in the document's order. */
    static final int OPENING_CALL = 0;
    static final int OPENING_UNCROSS = 1;
    static final int CLOSING_CALL = 2;
    static final int CLOSING_UNCROSS = 3;

    final int symbolId;
    TradingPhase phase = TradingPhase.CONTINUOUS;
    long[] times = {-1, -1, -1, -1};
    long randomEnd;
    long band;
    long interruption;
    String zone = "UTC";
    long nextPoint = NONE;
    int nextKind;
    long interruptionEnd = NONE;

    RefSession(int symbolId) {
        this.symbolId = symbolId;
    }

    boolean scheduled() {
        return times[0] >= 0 && times[0] < times[1] && times[1] <= times[2] && times[2] < times[3];
    }

    long deadline() {
        return Math.min(nextPoint, interruptionEnd);
    }

    /** Every scheduled point of the days around {@code nanos}: {instant, kind}, in no particular order. */
    private List<long[]> pointsAround(long nanos) {
        List<long[]> points = new ArrayList<>();
        ZoneId id = ZoneId.of(zone);
        LocalDate day = Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L)).atZone(id).toLocalDate();
        for (LocalDate d = day.minusDays(1); !d.isAfter(day.plusDays(1)); d = d.plusDays(1)) {
            for (int kind = 0; kind < 4; kind++) {
                long ms = times[kind];
                ZonedDateTime at = d.atTime((int) (ms / 3_600_000), (int) (ms / 60_000 % 60), (int) (ms / 1000 % 60))
                    .atZone(id);
                long instant = at.toEpochSecond() * 1_000_000_000L + (ms % 1000) * 1_000_000L;
                if ((kind == OPENING_UNCROSS || kind == CLOSING_UNCROSS) && randomEnd > 0) {
                    instant += draw(symbolId, d.toEpochDay(), kind, randomEnd) * 1_000_000L;
                }
                points.add(new long[] {instant, kind});
            }
        }
        return points;
    }

    /** The first point strictly after {@code nanos}. */
    void scheduleAfter(long nanos) {
        nextPoint = NONE;
        if (!scheduled()) {
            return;
        }
        for (long[] point : pointsAround(nanos)) {
            if (point[0] > nanos && point[0] < nextPoint) {
                nextPoint = point[0];
                nextKind = (int) point[1];
            }
        }
    }

    /** The phase after the latest point at or before {@code nanos}. */
    TradingPhase scheduledPhase(long nanos) {
        long latest = Long.MIN_VALUE;
        int kind = CLOSING_UNCROSS;
        for (long[] point : pointsAround(nanos)) {
            if (point[0] <= nanos && point[0] > latest) {
                latest = point[0];
                kind = (int) point[1];
            }
        }
        return switch (kind) {
            case OPENING_CALL -> TradingPhase.OPENING_CALL;
            case OPENING_UNCROSS -> TradingPhase.CONTINUOUS;
            case CLOSING_CALL -> TradingPhase.CLOSING_CALL;
            default -> TradingPhase.CLOSED;
        };
    }

    /** The documented draw of a random end: splitmix64's finalizer of the mixed symbol, day and kind, mod N + 1. */
    static long draw(int symbolId, long epochDay, int kind, long n) {
        long z = symbolId * 0x9E3779B97F4A7C15L + epochDay * 0xBF58476D1CE4E5B9L + kind * 0x94D049BB133111EBL;
        z = (z ^ (z >>> 31)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return Math.floorMod(z, n + 1);
    }
}
