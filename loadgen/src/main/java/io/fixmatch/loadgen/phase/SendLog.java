package io.fixmatch.loadgen.phase;

import io.fixmatch.loadgen.client.Probes;
import org.HdrHistogram.Histogram;

/**
 * The generator's own punctuality, per measured run, kept by the sending thread: the send lag of each request (when
 * its send began minus when it was due), the acceptor's back-pressure, and the achieved rate.
 *
 * <p>Send lag is the generator's lateness, not the server's: when the acceptor stops reading, the socket refuses
 * bytes and the sender waits (back-pressure, timed apart); the requests that fell due meanwhile then go out as fast
 * as they can, and for those the lag counts from when the previous send finished, not from their due time. Their
 * round trips still count from their due times (coordinated omission is the server's, charged to the server).
 */
final class SendLog {
    private Histogram lag = newHistogram();
    private long backpressureSends;
    private long backpressureNanos;
    private boolean catchingUp;
    private long previousEnd;
    private long count;
    private long firstDue;
    private long lastDue;
    private long lastStart;

    static Histogram newHistogram() {
        return new Histogram(1, Probes.MAX_NANOS, 3);
    }

    /** One request: due, its send began and ended, and how long of that it waited for the socket. */
    void record(long dueNanos, long startNanos, long endNanos, long backpressure) {
        long ready = dueNanos;
        if (catchingUp) {
            if (dueNanos < previousEnd) {
                ready = previousEnd;
            } else {
                catchingUp = false;
            }
        }
        lag.recordValue(Math.min(Probes.MAX_NANOS, Math.max(0, startNanos - ready)));
        if (backpressure > 0) {
            catchingUp = true;
            backpressureSends++;
            backpressureNanos += backpressure;
        }
        previousEnd = endNanos;
        if (count++ == 0) {
            firstDue = dueNanos;
        }
        lastDue = dueNanos;
        lastStart = startNanos;
    }

    /** Requests per second the sender kept in this run: from the first due time to the start of the last send. */
    double achievedRate() {
        return count < 2 ? 0 : (count - 1) * 1e9 / Math.max(1, lastStart - firstDue);
    }

    /** Requests per second the schedule asked for in this run. */
    double scheduledRate() {
        return count < 2 ? 0 : (count - 1) * 1e9 / Math.max(1, lastDue - firstDue);
    }

    long backpressureSends() {
        return backpressureSends;
    }

    long backpressureNanos() {
        return backpressureNanos;
    }

    /** The lag of the run just finished; starts the next run's. */
    Histogram endRun() {
        Histogram run = lag;
        lag = newHistogram();
        count = 0;
        catchingUp = false;
        return run;
    }
}
