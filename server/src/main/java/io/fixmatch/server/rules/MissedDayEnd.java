package io.fixmatch.server.rules;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.matching.MatchingEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Optional;

/**
 * The end of day a stopped server slept through: at start, after recovery, if the first end of day
 * ({@code engine.endOfDay} in {@code engine.timeZone}) after the last journaled command is not after now, the day
 * ended while the server was down and its DAY orders must not trade into the next one: one EXPIRE_DAY_ORDERS, queued
 * ahead of every client's command. Decided once, at start, from the wall clock and the recovered engine; the command
 * is journaled like the timer's, so a replay expires the same orders at the same place without deciding again.
 *
 * <p>Nothing when the journal holds no command (or its time is not known: a snapshot older than state format 3 with
 * nothing after it), and nothing when the journal already holds an EXPIRE_DAY_ORDERS stamped at or after that end
 * of day (it was ended already; only a clock set back could make the last command older than it): the end of day
 * looked for is the first after the later of the last command's and the last EXPIRE_DAY_ORDERS' stamps.
 */
public final class MissedDayEnd {
    private static final Logger LOG = LoggerFactory.getLogger(MissedDayEnd.class);
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private MissedDayEnd() {
    }

    /**
     * The end of day (epoch ms) missed since the engine's last journaled command, if it is not after
     * {@code nowMs} and no EXPIRE_DAY_ORDERS of the journal is stamped at or after it: the first end of day after
     * the later of the two stamps.
     */
    public static Optional<Long> since(MatchingEngine engine, LocalTime endOfDay, ZoneId zone, long nowMs) {
        long lastCommandNanos = engine.lastCommandNanos();
        if (lastCommandNanos == 0) {
            return Optional.empty();
        }
        // Normally the last day end is no later than the last command; only a clock set back makes it so.
        long sinceNanos = Math.max(lastCommandNanos, engine.lastDayEndNanos());
        long dayEndMs = EndOfDayTimer.nextAfter(endOfDay, zone, Math.floorDiv(sinceNanos, NANOS_PER_MILLI));
        if (dayEndMs > nowMs) {
            return Optional.empty();
        }
        return Optional.of(dayEndMs);
    }

    /** The command that ends the missed day, stamped {@code nowMs} (the matching loop stamps it again as it takes it). */
    public static Command command(long nowMs) {
        return new Command().expireDayOrders().timestampNanos(nowMs * NANOS_PER_MILLI);
    }

    /** The one line that says why DAY orders expire at start. */
    public static void log(MatchingEngine engine, long dayEndMs, ZoneId zone) {
        LOG.warn("the trading day ended at {} ({}) while the server was down (last journaled command at {}): day"
                + " orders expire now, before any client's command", Instant.ofEpochMilli(dayEndMs).atZone(zone),
            Instant.ofEpochMilli(dayEndMs), Instant.ofEpochMilli(Math.floorDiv(engine.lastCommandNanos(),
                NANOS_PER_MILLI)));
    }
}
