package io.fixmatch.cluster.service;

import org.agrona.concurrent.EpochNanoClock;

/**
 * The time of the log message being applied (epoch ns, the cluster's clock as the leader stamped it): the only clock
 * the service reads, so a follower and a replay compute exactly what the leader did. Set before each message.
 */
final class LogClock implements EpochNanoClock {
    private long nanos;

    void set(long epochNanos) {
        nanos = epochNanos;
    }

    @Override
    public long nanoTime() {
        return nanos;
    }
}
