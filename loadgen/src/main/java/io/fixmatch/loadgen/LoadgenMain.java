package io.fixmatch.loadgen;

import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.loadgen.client.FixClient;
import io.fixmatch.loadgen.client.LoopbackEcho;
import io.fixmatch.loadgen.client.OrderRequestBody;
import io.fixmatch.loadgen.client.RequestTracker;
import io.fixmatch.loadgen.flow.OrderFlow;
import net.openhft.affinity.AffinityLock;
import net.openhft.chronicle.jlbh.JLBH;
import net.openhft.chronicle.jlbh.JLBHOptions;
import org.HdrHistogram.Recorder;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The load generator: logs on as LOADGEN, replays the flow at the target rate under JLBH, then writes and checks
 * the report. Exit status: 0 ok, 1 errors, 2 bad options, 3 a latency threshold or the baseline breached.
 */
public final class LoadgenMain {
    public static final int EXIT_OK = 0;
    public static final int EXIT_ERRORS = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_THRESHOLD = 3;

    private LoadgenMain() {
    }

    public static void main(String[] args) throws Exception {
        LoadgenOptions options;
        try {
            options = LoadgenOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("loadgen: " + e.getMessage() + "\n" + LoadgenOptions.usage());
            System.exit(EXIT_USAGE);
            return;
        }
        if (options == null) {
            System.out.println(LoadgenOptions.usage());
            return;
        }
        System.exit(run(options));
    }

    /** Runs the load and writes the report; returns the exit status. */
    public static int run(LoadgenOptions options) throws Exception {
        RequestTracker.Probes probes = new RequestTracker.Probes();
        RequestTracker tracker = new RequestTracker(probes);
        Recorder echoRecorder = RequestTracker.Probes.newRecorder();
        OrderFlow flow = new OrderFlow(options.seed(), options.symbols().size(), startMid(options.priceScale()));
        OrderRequestBody body = new OrderRequestBody(flow, options.symbols(), options.priceScale());
        LoadTask task;
        long sequenceGaps;
        try (FixClient client = new FixClient(options.host(), options.port(), options.senderCompId(),
                 options.targetCompId(), tracker);
             LoopbackEcho echo = new LoopbackEcho(sampleOrderLength(options), echoRecorder)) {
            client.logon(30, options.timeoutSeconds());
            System.out.printf("logged on to %s:%d as %s; %,d orders/s, %d s warm-up, %d runs of %,d orders%n",
                options.host(), options.port(), options.senderCompId(), options.rate(), options.warmupSeconds(),
                options.runs(), options.iterationsPerRun());
            task = new LoadTask(flow, body, client, echo, tracker, probes, echoRecorder, options.rate(),
                options.iterationsPerRun());
            JLBHOptions jlbhOptions = new JLBHOptions()
                .warmUpIterations(options.warmupIterations())
                .iterations(options.iterationsPerRun())
                .runs(options.runs())
                .throughput(options.rate())
                .accountForCoordinatedOmission(true)
                .recordOSJitter(false)
                // JLBH's own sample timeout compares counts across runs it resets between runs, and so aborts
                // healthy runs longer than it; the watchdog below watches the answers instead.
                .timeout(Long.MAX_VALUE / 2)
                .acquireLock(options.cpu() < 0 ? () -> AffinityLock.acquireLock(false)
                    : () -> AffinityLock.acquireLock(options.cpu()))
                .jlbhTask(task);
            JLBH jlbh = new JLBH(jlbhOptions);
            Thread watchdog = stallWatchdog(tracker, jlbh, options.timeoutSeconds());
            try {
                jlbh.start();
            } finally {
                watchdog.interrupt();
            }
            awaitStragglers(tracker, task.lastSentId(), options.timeoutSeconds());
            client.logout(5);
            sequenceGaps = client.sequenceGaps();
        }
        long missing = tracker.reportMissing(task.lastSentId());
        long errors = missing + tracker.rejectedCount() + tracker.unexpectedCount();
        Map<String, Object> errorDetails = new LinkedHashMap<>();
        errorDetails.put("missing", missing);
        errorDetails.put("rejected", tracker.rejectedCount());
        errorDetails.put("unexpected", tracker.unexpectedCount());
        errorDetails.put("sequence_gaps", sequenceGaps);
        errorDetails.put("first", tracker.errorDescriptions());

        Report report = new Report(options, task.runHistograms(), task.runRates(), errors, errorDetails);
        report.write();
        report.print(System.out);
        if (errors > 0) {
            System.out.println("FAILED: " + errors + " errors");
            tracker.errorDescriptions().forEach(d -> System.out.println("  " + d));
            return EXIT_ERRORS;
        }
        List<String> breaches = Thresholds.breaches(options, report.allStats());
        if (!breaches.isEmpty()) {
            System.out.println("FAILED: latency thresholds breached");
            breaches.forEach(b -> System.out.println("  " + b));
            return EXIT_THRESHOLD;
        }
        System.out.println("PASSED");
        return EXIT_OK;
    }

    /** Aborts the run when no answer has arrived for {@code timeoutSeconds} (a server that stopped answering). */
    private static Thread stallWatchdog(RequestTracker tracker, JLBH jlbh, int timeoutSeconds) {
        Thread watchdog = new Thread(() -> {
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
                        jlbh.abort();
                        return;
                    }
                }
            } catch (InterruptedException e) {
                // the run ended
            }
        }, "stall-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        return watchdog;
    }

    /** Gives the last responses (those JLBH does not wait for: trailing fills) a moment to arrive. */
    private static void awaitStragglers(RequestTracker tracker, long lastId, int timeoutSeconds)
        throws InterruptedException {
        long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        while (tracker.missing(lastId) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(200);
    }

    /** 100.00 in price units: a mid far enough from zero for the flow's random walk. */
    private static long startMid(int priceScale) {
        long mid = 100;
        for (int i = 0; i < priceScale; i++) {
            mid *= 10;
        }
        return mid;
    }

    /** The length of a typical NewOrderSingle of ours: the loopback echo sends messages this long. */
    private static int sampleOrderLength(LoadgenOptions options) {
        OrderFlow sample = new OrderFlow(1, options.symbols().size(), startMid(options.priceScale()));
        sample.next();
        FixWriter writer = new FixWriter(8192);
        writer.begin('D').field(49, options.senderCompId()).field(56, options.targetCompId()).field(34, 1_000_000L)
            .timestamp(52, System.currentTimeMillis() * 1_000_000L);
        new OrderRequestBody(sample, options.symbols(), options.priceScale()).writeBody(writer);
        return writer.finish();
    }
}
