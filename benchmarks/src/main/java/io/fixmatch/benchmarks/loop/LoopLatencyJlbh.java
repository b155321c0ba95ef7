package io.fixmatch.benchmarks.loop;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.loadgen.pacing.Pacer;
import net.openhft.affinity.AffinityLock;
import net.openhft.chronicle.jlbh.JLBH;
import net.openhft.chronicle.jlbh.JLBHOptions;
import net.openhft.chronicle.jlbh.JLBHTask;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Latency of one command through the matching loop, from the moment it was due to be offered to the inbound ring
 * to the moment its event is taken off the outbound ring, at a fixed rate (JLBH, coordinated omission corrected).
 * The JLBH thread offers the command and waits for its event itself, so no third thread competes for the CPUs. The
 * due times are the load generator's {@link Pacer}'s, not JLBH's start times, which forgive the lateness at each of
 * JLBH's progress lines and drift by each spin's overshoot (docs/PERFORMANCE.md, "How the load generator measures").
 * With {@code roll=TEST_SECONDLY} the journal rolls to a new file every second: the worst case then includes
 * the rolls.
 *
 * <pre>usage: LoopLatencyJlbh [rate=45000] [seconds=20] [runs=3] [journal=on|off] [idle=backoff|busy-spin]
 *                        [roll=FAST_DAILY|TEST_SECONDLY]</pre>
 */
public final class LoopLatencyJlbh implements JLBHTask {
    /** Gaps longer than this are parked through but the last of it (none at the default rate). */
    private static final long PARK_MARGIN_NANOS = 2_000_000;
    private final MatchingRuntime runtime;
    private final Command[] commands;
    private long eventsSeen;
    private final EventSink counter = event -> eventsSeen++;
    private final Pacer pacer;
    private long sent;
    private JLBH jlbh;

    private LoopLatencyJlbh(MatchingRuntime runtime, int rate) {
        this.runtime = runtime;
        this.commands = LoopFixture.restAndCancel(1 << 16);
        long interval = 1_000_000_000L / rate;
        this.pacer = new Pacer(() -> interval, PARK_MARGIN_NANOS, Pacer.Wait.SPIN); // as JLBH alone: spins the gap
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of("rate", "45000", "seconds", "20", "runs", "3",
            "journal", "on", "idle", "backoff", "roll", "FAST_DAILY"));
        for (String arg : args) {
            String[] pair = arg.split("=", 2);
            if (pair.length != 2 || !options.containsKey(pair[0])) {
                System.err.println("unknown argument " + arg + "; options: " + options.keySet());
                System.exit(2);
            }
            options.put(pair[0], pair[1]);
        }
        int rate = Integer.parseInt(options.get("rate"));
        int seconds = Integer.parseInt(options.get("seconds"));
        int runs = Integer.parseInt(options.get("runs"));
        Path directory = Files.createTempDirectory("fixmatch-loop-latency");
        System.out.println("loop latency: " + options);
        MatchingRuntime runtime = LoopFixture.runtime(options.get("journal").equals("on"), options.get("idle"),
            options.get("roll"), directory);
        LoopLatencyJlbh task = new LoopLatencyJlbh(runtime, rate);
        try {
            new JLBH(new JLBHOptions()
                .warmUpIterations(Math.min(rate * 5, 200_000))
                .iterations((long) rate * seconds / runs)
                .runs(runs)
                .throughput(rate)
                .accountForCoordinatedOmission(true)
                .latencyDistributor(task.pacer)
                .recordOSJitter(false)
                .acquireLock(() -> AffinityLock.acquireLock(false))
                .jlbhTask(task)).start();
        } finally {
            runtime.close();
            LoopFixture.deleteRecursively(directory);
        }
    }

    @Override
    public void init(JLBH jlbh) {
        this.jlbh = jlbh;
    }

    @Override
    public void run(long startTimeNs) {
        long due = pacer.sendingAt(startTimeNs);
        Command command = commands[(int) (sent++ & (commands.length - 1))];
        long expected = eventsSeen + 1;
        while (!runtime.inbound().offer(command)) {
            Thread.onSpinWait();
        }
        while (eventsSeen < expected) {
            if (runtime.outbound().poll(counter, 16) == 0) {
                Thread.onSpinWait();
            }
        }
        jlbh.sample(System.nanoTime() - due);
    }

    @Override
    public void runComplete() {
        pacer.runEnded();
    }
}
