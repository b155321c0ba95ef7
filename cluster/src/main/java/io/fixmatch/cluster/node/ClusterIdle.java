package io.fixmatch.cluster.node;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * What Aeron's threads (a node's driver, archive, consensus module and service; a gateway's driver and link) do when
 * idle: back off (spin a little, yield, then park, the parks growing up to {@code maxParkMicros}) on a machine they
 * share, or busy-spin on dedicated cores. The longest park bounds how late an idle thread sees new work at each hop
 * of a command's way through the cluster, so it trades idle CPU for latency at low rates (docs/PERFORMANCE.md).
 */
public record ClusterIdle(boolean busySpin, long maxParkMicros) {
    public static final long DEFAULT_MAX_PARK_MICROS = 1_000;

    public static ClusterIdle backoff() {
        return new ClusterIdle(false, DEFAULT_MAX_PARK_MICROS);
    }

    public ClusterIdle {
        if (maxParkMicros < 1) {
            throw new IllegalArgumentException("the longest park must be at least 1 us, was " + maxParkMicros);
        }
    }

    public IdleStrategy newStrategy() {
        return busySpin ? new BusySpinIdleStrategy() : new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1),
            TimeUnit.MICROSECONDS.toNanos(maxParkMicros));
    }
}
