package io.fixmatch.loadgen.pacing;

import io.fixmatch.loadgen.flow.SeededSource;
import net.openhft.affinity.AffinityLock;
import net.openhft.chronicle.jlbh.JLBH;
import net.openhft.chronicle.jlbh.JLBHOptions;
import net.openhft.chronicle.jlbh.JLBHTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The due times the pacer gives the sending task are its schedule, one every 1/rate from the run's first, whatever
 * JLBH does with its own start times: on real JLBH, with a task that uses the pacer as the load generator's does.
 * JLBH resets its schedule to "now" when it prints its progress line (5 s into a run): a task held back at that
 * moment (as a server's back-pressure holds the generator) would see every later due time shifted by its lateness,
 * and its round trips shortened by it. In spin mode JLBH takes the end of each spin as the start time: the schedule
 * would drift by each overshoot. Each case fails when the task takes JLBH's start time as the due time.
 */
class PacerScheduleTest {
    private static final int RATE = 2_000;
    private static final long INTERVAL = 1_000_000_000L / RATE;
    /** How long the task is held before each of JLBH's progress checks. */
    private static final long HELD_MS = 30;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLateGeneratorKeepsItsScheduleThroughJlbhsProgressLine() throws Exception {
        // 6.5 s: JLBH checks its progress every 2,000 requests here (multiples of both 16 and 1,000), and prints it
        // (and resets its start time) at the first check 5 s in: request 12,000.
        RecordingTask task = new RecordingTask(Pacer.Wait.YIELD, RATE * 13 / 2, true);
        String jlbhOutput = run(task);
        assertTrue(jlbhOutput.contains("... run "), "precondition: JLBH printed its progress line (and reset its"
            + " start time) while the task was late; else this test cannot fail. JLBH said: " + jlbhOutput);
        task.assertOnSchedule();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void spinningLeavesNoDrift() throws Exception {
        RecordingTask task = new RecordingTask(Pacer.Wait.SPIN, RATE / 2, false);
        run(task);
        task.assertOnSchedule();
    }

    /** Runs JLBH on the task; returns what JLBH printed to the standard output (its progress line goes there). */
    private static String run(RecordingTask task) {
        JLBHOptions options = new JLBHOptions()
            .warmUpIterations(100)
            .iterations(task.dues.length)
            .runs(1)
            .throughput(RATE)
            .latencyDistributor(task.pacer)
            .accountForCoordinatedOmission(true)
            .recordOSJitter(false)
            .timeout(Long.MAX_VALUE / 2)
            .acquireLock(() -> AffinityLock.acquireLock(false))
            .jlbhTask(task);
        PrintStream standardOut = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            new JLBH(options, new PrintStream(OutputStream.nullOutputStream()), null).start();
        } finally {
            System.setOut(standardOut);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    /** Sends nothing: takes each request's due time from the pacer, as the generator's sending task does. */
    private static final class RecordingTask implements JLBHTask {
        final Pacer pacer;
        final long[] dues;
        private final boolean heldBeforeChecks;
        private JLBH jlbh;
        private boolean warmedUp;
        private int sent;

        RecordingTask(Pacer.Wait wait, int requests, boolean heldBeforeChecks) {
            this.pacer = new Pacer(new SeededSource(7, List.of("AAPL"), 2, RATE)::advance, 300_000, wait);
            this.dues = new long[requests];
            this.heldBeforeChecks = heldBeforeChecks;
        }

        @Override
        public void init(JLBH jlbh) {
            this.jlbh = jlbh;
        }

        @Override
        public void run(long startTimeNs) {
            if (!warmedUp) {
                pacer.advanceForWarmup();
                pacer.sendingAt(startTimeNs);
                jlbh.sample(1);
                return;
            }
            long due = pacer.sendingAt(startTimeNs);
            dues[sent++] = due;
            jlbh.sample(Math.max(1, System.nanoTime() - due));
            if (heldBeforeChecks && sent % 2000 == 0) {
                try {
                    Thread.sleep(HELD_MS); // late at the top of JLBH's next loop, where it checks its progress
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void warmedUp() {
            warmedUp = true;
        }

        @Override
        public void runComplete() {
            pacer.runEnded();
        }

        void assertOnSchedule() {
            assertEquals(dues.length, sent, "every request sent");
            for (int i = 1; i < sent; i++) {
                assertEquals(dues[0] + i * INTERVAL, dues[i], "request " + i + "'s due time is "
                    + (dues[i] - dues[0] - i * INTERVAL) + " ns off the schedule");
            }
        }
    }
}
