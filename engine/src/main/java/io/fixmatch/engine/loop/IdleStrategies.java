package io.fixmatch.engine.loop;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * What a polling thread does when it finds no work, chosen by name in config:
 * <ul>
 *   <li>{@code busy-spin}: never yields the CPU; lowest latency, for a thread pinned to a dedicated core.</li>
 *   <li>{@code backoff} (default): spins briefly, then yields, then parks; on a small machine shared with other busy
 *       threads it gives the CPU away when idle. Where the producer can wake the consumer (the matching thread's
 *       inbound ring) it is a {@link WakeableBackoffIdleStrategy}; elsewhere Agrona's backoff, parking 1 µs to
 *       1 ms.</li>
 *   <li>{@code yield}: spins with Thread.yield().</li>
 *   <li>{@code sleep}: sleeps 1 ms; for tests and idle environments.</li>
 * </ul>
 */
public final class IdleStrategies {
    public static final String DEFAULT = "backoff";

    private IdleStrategies() {
    }

    public static IdleStrategy byName(String name) {
        return switch (name) {
            case "busy-spin" -> new BusySpinIdleStrategy();
            case "backoff" -> new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1),
                TimeUnit.MILLISECONDS.toNanos(1));
            case "yield" -> new YieldingIdleStrategy();
            case "sleep" -> new SleepingMillisIdleStrategy(1);
            default -> throw new IllegalArgumentException(
                "unknown idle strategy '" + name + "' (busy-spin, backoff, yield, sleep)");
        };
    }
}
