package io.fixmatch.loadgen;

import io.fixmatch.loadgen.client.FixClient;
import io.fixmatch.loadgen.client.LoopbackEcho;
import io.fixmatch.loadgen.client.OrderRequestBody;
import io.fixmatch.loadgen.client.RequestTracker;
import io.fixmatch.loadgen.flow.OrderFlow;
import io.fixmatch.loadgen.flow.RequestKind;
import net.openhft.chronicle.jlbh.JLBH;
import net.openhft.chronicle.jlbh.JLBHTask;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What JLBH runs at each scheduled moment: send the next request of the flow (recording when it was due) and one
 * loopback echo of the same size. Responses are sampled by the reader threads, so requests are pipelined like a
 * trader's, and every round trip counts from when the request was due (coordinated omission corrected).
 *
 * <p>JLBH sends the warm-up as fast as it can; this task paces it at the target rate itself, so the server is
 * never flooded.
 */
final class LoadTask implements JLBHTask {
    private final OrderFlow flow;
    private final OrderRequestBody body;
    private final FixClient client;
    private final LoopbackEcho echo;
    private final RequestTracker tracker;
    private final RequestTracker.Probes probes;
    private final Recorder echoRecorder;
    private final long intervalNanos;
    private long warmupDueNanos;
    private volatile boolean warmedUp;
    private long runStartNanos;
    private long lastSentId;

    /** Per probe name, the histogram of each measured run; and the achieved rate of each run. */
    private final Map<String, List<Histogram>> runHistograms = new LinkedHashMap<>();
    private final List<Double> runRates = new ArrayList<>();
    private final long iterationsPerRun;

    LoadTask(OrderFlow flow, OrderRequestBody body, FixClient client, LoopbackEcho echo, RequestTracker tracker,
             RequestTracker.Probes probes, Recorder echoRecorder, int rate, long iterationsPerRun) {
        this.flow = flow;
        this.body = body;
        this.client = client;
        this.echo = echo;
        this.tracker = tracker;
        this.probes = probes;
        this.echoRecorder = echoRecorder;
        this.intervalNanos = 1_000_000_000L / rate;
        this.iterationsPerRun = iterationsPerRun;
    }

    @Override
    public void init(JLBH jlbh) {
        for (RequestKind kind : RequestKind.values()) {
            probes.attach(kind, jlbh.addProbe(kind.probe()));
        }
        probes.attachEndToEnd(jlbh);
        echo.attach(jlbh.addProbe(Report.LOOPBACK_ECHO));
        warmupDueNanos = System.nanoTime();
    }

    @Override
    public void run(long startTimeNs) {
        long due = startTimeNs;
        if (!warmedUp) {
            warmupDueNanos += intervalNanos;
            while (System.nanoTime() < warmupDueNanos) {
                Thread.onSpinWait();
            }
            due = warmupDueNanos;
        }
        RequestKind kind = flow.next();
        tracker.sending(flow.id(), kind, due);
        if (kind == RequestKind.AGGRESSIVE) {
            for (int i = 0; i < flow.consumedCount(); i++) {
                tracker.targeting(flow.consumedId(i));
            }
        }
        client.send(body.msgType(), body);
        echo.send(due);
        lastSentId = flow.id();
    }

    @Override
    public void warmedUp() {
        // Discard what warm-up recorded; measured runs start clean.
        for (RequestKind kind : RequestKind.values()) {
            probes.recorder(kind).reset();
        }
        probes.endToEnd().reset();
        echoRecorder.reset();
        warmedUp = true;
        runStartNanos = System.nanoTime();
    }

    @Override
    public void runComplete() {
        long now = System.nanoTime();
        runRates.add(iterationsPerRun * 1e9 / (now - runStartNanos));
        runStartNanos = now;
        for (RequestKind kind : RequestKind.values()) {
            keep(kind.probe(), probes.recorder(kind).getIntervalHistogram());
        }
        keep(Report.END_TO_END, probes.endToEnd().getIntervalHistogram());
        keep(Report.LOOPBACK_ECHO, echoRecorder.getIntervalHistogram());
    }

    private void keep(String probe, Histogram histogram) {
        runHistograms.computeIfAbsent(probe, p -> new ArrayList<>()).add(histogram);
    }

    Map<String, List<Histogram>> runHistograms() {
        return runHistograms;
    }

    List<Double> runRates() {
        return runRates;
    }

    long lastSentId() {
        return lastSentId;
    }
}
