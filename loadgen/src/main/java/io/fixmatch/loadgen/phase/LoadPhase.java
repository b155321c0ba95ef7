package io.fixmatch.loadgen.phase;

import io.fixmatch.loadgen.client.FixClient;
import io.fixmatch.loadgen.client.Probes;
import io.fixmatch.loadgen.client.RequestTracker;
import io.fixmatch.loadgen.client.TraceStages;
import io.fixmatch.loadgen.flow.RequestSource;
import io.fixmatch.loadgen.pacing.Pacer;
import net.openhft.affinity.AffinityLock;
import net.openhft.chronicle.jlbh.JLBH;
import net.openhft.chronicle.jlbh.JLBHOptions;

import java.io.PrintStream;

/**
 * One measured phase: JLBH drives a {@link SendTask} over a logged-on {@link FixClient} (to the server, or to the
 * loopback echo for the floor), paced by a {@link Pacer}, with a watchdog that aborts when answers stop coming.
 */
public final class LoadPhase {
    private final RequestSource source;
    private final FixClient client;
    private final RequestTracker tracker;
    private final Probes probes;
    private final TraceStages stages;
    private final PhasePlan plan;
    private SendListener sendListener = SendListener.NONE;
    private long lastSentId;

    /** @param stages where the server's latency trace is split, or null */
    public LoadPhase(RequestSource source, FixClient client, RequestTracker tracker, Probes probes, TraceStages stages,
                     PhasePlan plan) {
        this.source = source;
        this.client = client;
        this.tracker = tracker;
        this.probes = probes;
        this.stages = stages;
        this.plan = plan;
    }

    /** Before {@link #run}: told of every request as it is sent (the binary feed's probe). */
    public LoadPhase sendListener(SendListener listener) {
        sendListener = listener;
        return this;
    }

    /** Runs the warm-up and the measured runs, waits for the last answers; JLBH's tables go to {@code out}. */
    public PhaseResult run(PrintStream out) throws InterruptedException {
        Pacer pacer = new Pacer(source::advance, plan.parkMarginNanos(), plan.waitMode());
        SendTask task = new SendTask(source, client, tracker, probes, stages, pacer, plan.timerSlackNanos(),
            sendListener);
        JLBHOptions options = new JLBHOptions()
            .warmUpIterations(plan.warmupIterations())
            .iterations(plan.iterationsPerRun())
            .runs(plan.runs())
            .throughput(plan.rate())
            .latencyDistributor(pacer)
            .accountForCoordinatedOmission(true)
            .recordOSJitter(false)
            // JLBH's own sample timeout compares counts it resets between runs, and so aborts healthy runs longer
            // than it; the watchdog below watches the answers instead.
            .timeout(Long.MAX_VALUE / 2)
            .acquireLock(plan.cpu() < 0 ? () -> AffinityLock.acquireLock(false)
                : () -> AffinityLock.acquireLock(plan.cpu()))
            .jlbhTask(task);
        JLBH jlbh = new JLBH(options, out, null);
        Watchdog watchdog = new Watchdog(tracker, jlbh, plan.timeoutSeconds());
        watchdog.start();
        try {
            jlbh.start();
        } finally {
            watchdog.interrupt();
        }
        lastSentId = task.lastSentId();
        awaitStragglers();
        return task.result(watchdog.fired);
    }

    /** The ClOrdID number of the last request sent. */
    public long lastSentId() {
        return lastSentId;
    }

    /** Gives the last answers (those JLBH does not wait for: trailing fills) a moment to arrive. */
    private void awaitStragglers() throws InterruptedException {
        long deadline = System.nanoTime() + plan.timeoutSeconds() * 1_000_000_000L;
        while (tracker.missing(lastSentId) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(200);
    }

    /** Aborts the run when no answer has arrived for the timeout (an acceptor that stopped answering). */
    private static final class Watchdog extends Thread {
        private final RequestTracker tracker;
        private final JLBH jlbh;
        private final int timeoutSeconds;
        private volatile boolean fired;

        Watchdog(RequestTracker tracker, JLBH jlbh, int timeoutSeconds) {
            super("stall-watchdog");
            setDaemon(true);
            this.tracker = tracker;
            this.jlbh = jlbh;
            this.timeoutSeconds = timeoutSeconds;
        }

        @Override
        public void run() {
            long lastAnswered = -1;
            long lastProgressNanos = System.nanoTime();
            try {
                while (true) {
                    Thread.sleep(200);
                    long answered = tracker.answeredCount();
                    if (answered != lastAnswered) {
                        lastAnswered = answered;
                        lastProgressNanos = System.nanoTime();
                    } else if (System.nanoTime() - lastProgressNanos > timeoutSeconds * 1_000_000_000L) {
                        System.out.println("no answer for " + timeoutSeconds + " s: aborting the run");
                        tracker.unexpected("no answer for " + timeoutSeconds + " s: run aborted");
                        fired = true;
                        jlbh.abort();
                        return;
                    }
                }
            } catch (InterruptedException e) {
                // the run ended
            }
        }
    }
}
