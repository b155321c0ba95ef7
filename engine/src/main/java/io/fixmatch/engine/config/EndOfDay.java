package io.fixmatch.engine.config;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * The end of the trading day: a time of day in a zone, when resting DAY orders expire. Pure calculation on the
 * instants it is given (no clock of its own), so the standalone server's timer and the cluster's timer agree.
 */
public record EndOfDay(LocalTime time, ZoneId zone) {

    /** The first end of day strictly after {@code epochMs} (DST: a time that does not exist that day moves on). */
    public long nextAfter(long epochMs) {
        ZonedDateTime now = Instant.ofEpochMilli(epochMs).atZone(zone);
        ZonedDateTime candidate = now.toLocalDate().atTime(time).atZone(zone);
        if (!candidate.isAfter(now)) {
            candidate = now.toLocalDate().plusDays(1).atTime(time).atZone(zone);
        }
        return candidate.toInstant().toEpochMilli();
    }
}
