package io.fixmatch.loadgen.pacing;

import io.fixmatch.loadgen.flow.RequestSource;
import net.openhft.chronicle.jlbh.LatencyDistributor;

import java.util.concurrent.locks.LockSupport;

/**
 * Keeps the generator on schedule without burning a core. JLBH asks its {@link LatencyDistributor} for the gap to
 * the next request right before it waits for it, on its own thread; as that distributor, the pacer takes the gap
 * from the {@link RequestSource} (fixed for the seeded flow, recorded for a replay) and parks the thread until
 * {@code margin} before the due time, so that JLBH, which would otherwise spin the whole gap, only waits out the
 * last bit. In {@link Wait#YIELD} mode (the default) the pacer also waits out that last bit itself, yielding the
 * core to any thread that wants it (the server's, the reader's: on two cores, spinning starves them); in
 * {@link Wait#SPIN} mode JLBH spins it. JLBH's coordinated-omission accounting is untouched: it still charges each
 * request from its due time however late the thread wakes.
 *
 * <p>A park overshoots by the thread's timer slack (50 µs by default on Linux) plus the wake-up latency, so the
 * margin must exceed both: see {@link TimerSlack}.
 */
public final class Pacer implements LatencyDistributor {
    /** How the last {@code margin} before each due time is waited out. */
    public enum Wait { YIELD, SPIN }

    private final RequestSource source;
    private final long marginNanos;
    private final Wait wait;
    private long lastDue;
    private boolean advanced;

    public Pacer(RequestSource source, long marginNanos, Wait wait) {
        this.source = source;
        this.marginNanos = marginNanos;
        this.wait = wait;
    }

    /** JLBH's thread, before each measured request but the first: the gap to it, waited for but the last bit. */
    @Override
    public long apply(long averageLatencyNanos) {
        long gap = source.advance();
        advanced = true;
        if (lastDue != 0) {
            waitUntil(lastDue + gap, wait == Wait.YIELD);
        }
        return gap;
    }

    /**
     * The sending thread, for each request: moves the source to it unless {@link #apply} already did (JLBH does not
     * ask for the first request of a run's gap), and notes its due time, from which the next gap counts.
     */
    public void sendingAt(long dueNanos) {
        if (!advanced) {
            source.advance();
        }
        advanced = false;
        lastDue = dueNanos;
    }

    /** Moves the source to the next request without waiting; returns its gap (the warm-up paces itself). */
    public long advanceForWarmup() {
        advanced = true;
        return source.advance();
    }

    /** Parks until {@code margin} before {@code dueNanos}, then, if {@code toTheEnd}, yields or spins until it. */
    public void waitUntil(long dueNanos, boolean toTheEnd) {
        long remaining;
        while ((remaining = dueNanos - System.nanoTime()) > marginNanos) {
            LockSupport.parkNanos(remaining - marginNanos);
        }
        if (toTheEnd) {
            while (System.nanoTime() < dueNanos) {
                if (wait == Wait.YIELD) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    }
}
