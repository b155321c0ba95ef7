package io.fixmatch.server.rules;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.config.EndOfDay;
import io.fixmatch.fix.gateway.PendingCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.function.LongConsumer;

/**
 * The end of the trading day on gateway 0's timer: when the wall clock passes the configured time
 * ({@code engine.endOfDay} in {@code engine.timeZone}), hands the engine an EXPIRE_DAY_ORDERS command through the
 * gateway's pending commands (journaled, so a replay expires at the same place in the command stream), then waits
 * for the next day's. Checked once per timer tick: a comparison; the next time is computed once a day.
 */
public final class EndOfDayTimer implements LongConsumer {
    private static final Logger LOG = LoggerFactory.getLogger(EndOfDayTimer.class);

    private final LocalTime endOfDay;
    private final ZoneId zone;
    private final PendingCommands pending;
    private long nextMs;

    /** @param startMs the wall clock now: the first expiry is the first end of day after it */
    public EndOfDayTimer(LocalTime endOfDay, ZoneId zone, PendingCommands pending, long startMs) {
        this.endOfDay = endOfDay;
        this.zone = zone;
        this.pending = pending;
        this.nextMs = nextAfter(startMs);
        LOG.info("day orders expire at {} {}; next at {}", endOfDay, zone, Instant.ofEpochMilli(nextMs));
    }

    /** Gateway thread, once per timer tick. */
    @Override
    public void accept(long nowMs) {
        if (nowMs < nextMs) {
            return;
        }
        pending.submit(new Command().expireDayOrders().timestampNanos(nowMs * 1_000_000L));
        long due = nextMs;
        nextMs = nextAfter(nowMs);
        LOG.info("end of the trading day (due {}): day orders expire; next at {}", Instant.ofEpochMilli(due),
            Instant.ofEpochMilli(nextMs));
    }

    /** The first end of day strictly after {@code epochMs} (DST: a time that does not exist that day moves on). */
    long nextAfter(long epochMs) {
        return nextAfter(endOfDay, zone, epochMs);
    }

    /** The first {@code endOfDay} in {@code zone} strictly after {@code epochMs}. */
    static long nextAfter(LocalTime endOfDay, ZoneId zone, long epochMs) {
        return new EndOfDay(endOfDay, zone).nextAfter(epochMs);
    }

    /** The wall-clock time of the next expiry (ms since the epoch). */
    public long nextMs() {
        return nextMs;
    }
}
