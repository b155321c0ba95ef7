package io.fixmatch.loadgen.pacing;

import net.openhft.chronicle.jlbh.LatencyDistributor;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Keeps the generator on schedule without burning a core. JLBH asks its {@link LatencyDistributor} for the gap to
 * the next request right before it waits for it, on its own thread; as that distributor, the pacer takes the gap
 * from the {@code RequestSource} (fixed for the seeded flow, recorded for a replay) and parks the thread until
 * {@code margin} before the due time, so that JLBH, which would otherwise spin the whole gap, only waits out the
 * last bit. In {@link Wait#YIELD} mode (the default) the pacer also waits out that last bit itself, yielding the
 * core to any thread that wants it (the server's, the reader's: on two cores, spinning starves them); in
 * {@link Wait#SPIN} mode JLBH spins it.
 *
 * <p>The schedule is the pacer's, not JLBH's: each due time is the previous one plus the source's gap, and
 * {@link #sendingAt} gives it to the sending task, which charges the request's round trip from it however late the
 * thread wakes (coordinated omission corrected). JLBH's own start times are not that schedule: JLBH 1.27 resets its
 * schedule to "now" when it prints its progress line (every 5 s), which would forgive a late generator, or a server that
 * held it back, all the lateness at that moment; and after a spin it takes the time the spin ended as the start time,
 * so the schedule drifts by each overshoot. JLBH's start time is used only for a run's first request (JLBH starts each
 * run's schedule itself), and the gap returned to JLBH brings its next start time back to the pacer's due time.
 *
 * <p>A park overshoots by the thread's timer slack (50 µs by default on Linux) plus the wake-up latency, so the
 * margin must exceed both: see {@link TimerSlack}.
 */
public final class Pacer implements LatencyDistributor {
    /** How the last {@code margin} before each due time is waited out. */
    public enum Wait { YIELD, SPIN }

    /** Moves the request source to the next request and returns its gap ({@code RequestSource.advance}). */
    private final LongSupplier advance;
    private final long marginNanos;
    private final Wait wait;
    /** The due time of the request last sent; 0 when a run is about to start (its first due time is JLBH's). */
    private long lastDue;
    /** The start time JLBH gave the request last sent: JLBH's next one is it plus what {@link #apply} returns. */
    private long lastJlbhStart;
    /** The next request's due time once {@link #apply} has waited for it; 0 otherwise. */
    private long nextDue;
    private boolean advanced;

    /**
     * @param advance moves the requests to the next one and returns the nanoseconds from the previous one's due time
     *                ({@code RequestSource::advance}); called once per request
     */
    public Pacer(LongSupplier advance, long marginNanos, Wait wait) {
        this.advance = advance;
        this.marginNanos = marginNanos;
        this.wait = wait;
    }

    /**
     * JLBH's thread, before each measured request but the first of the first run: waits for the next request's due
     * time but the last bit, and returns what brings JLBH's start time to it.
     */
    @Override
    public long apply(long averageLatencyNanos) {
        long gap = advance.getAsLong();
        advanced = true;
        if (lastDue == 0) {
            return gap; // a run's first request: JLBH starts the run's schedule
        }
        nextDue = lastDue + gap;
        waitUntil(nextDue, wait == Wait.YIELD);
        return nextDue - lastJlbhStart;
    }

    /**
     * The sending thread, for each request, with the start time JLBH gave it: moves the source to it unless
     * {@link #apply} already did (JLBH does not ask for the first request of the first run), and returns its due time
     * on the pacer's schedule, from which its round trip counts and the next gap counts.
     */
    public long sendingAt(long jlbhStartNanos) {
        if (!advanced) {
            advance.getAsLong();
        }
        advanced = false;
        long due = nextDue != 0 ? nextDue : jlbhStartNanos;
        nextDue = 0;
        lastDue = due;
        lastJlbhStart = jlbhStartNanos;
        return due;
    }

    /** A measured run ended: JLBH starts the next one's schedule (after waiting for the last answers). */
    public void runEnded() {
        lastDue = 0;
        nextDue = 0;
    }

    /** Moves the source to the next request without waiting; returns its gap (the warm-up paces itself). */
    public long advanceForWarmup() {
        advanced = true;
        return advance.getAsLong();
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
