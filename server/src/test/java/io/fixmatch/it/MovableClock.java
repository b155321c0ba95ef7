package io.fixmatch.it;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test sets: the server's session schedules read it, so a test moves to a session's end without waiting. */
final class MovableClock extends Clock {
    private volatile long millis;

    MovableClock(Instant start) {
        millis = start.toEpochMilli();
    }

    void set(Instant instant) {
        millis = instant.toEpochMilli();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a movable clock stays in UTC");
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }
}
