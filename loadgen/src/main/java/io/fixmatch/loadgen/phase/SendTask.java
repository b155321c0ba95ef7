package io.fixmatch.loadgen.phase;

import io.fixmatch.loadgen.client.FixClient;
import io.fixmatch.loadgen.client.Probes;
import io.fixmatch.loadgen.client.RequestTracker;
import io.fixmatch.loadgen.client.TraceStages;
import io.fixmatch.loadgen.flow.RequestSource;
import io.fixmatch.loadgen.pacing.Pacer;
import io.fixmatch.loadgen.pacing.TimerSlack;
import net.openhft.chronicle.jlbh.JLBH;
import net.openhft.chronicle.jlbh.JLBHTask;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What JLBH runs at each due time: send the source's next request, recording when it was due (the {@link Pacer}'s
 * schedule) and how late its send began. Answers are sampled by the reader thread, so requests are pipelined like a
 * trader's, and every round trip counts from when its request was due (coordinated omission corrected).
 *
 * <p>JLBH sends the warm-up as fast as it can; this task paces it on the same schedule itself, so the acceptor is
 * never flooded.
 */
final class SendTask implements JLBHTask {
    private final RequestSource source;
    private final FixClient client;
    private final RequestTracker tracker;
    private final Probes probes;
    private final TraceStages stages;
    private final Pacer pacer;
    private final long timerSlackNanos;
    private final SendListener sendListener;
    private final SendLog sendLog = new SendLog();
    private long warmupDue;
    private boolean warmedUp;
    private long lastSentId;
    private String timerSlack = "not applied";
    private long processCpuStart;
    private long senderCpuStart;
    private long wallStart;
    private long processCpu = -1;
    private long senderCpu = -1;
    private long wall;
    private long orders;

    private final Map<String, List<Histogram>> probeRuns = new LinkedHashMap<>();
    private final Map<String, List<Histogram>> stageRuns = new LinkedHashMap<>();
    private final List<Histogram> sendLagRuns = new ArrayList<>();
    private final List<Double> achievedRates = new ArrayList<>();
    private final List<Double> scheduledRates = new ArrayList<>();

    /** @param stages the latency trace's stages, or null */
    SendTask(RequestSource source, FixClient client, RequestTracker tracker, Probes probes, TraceStages stages,
             Pacer pacer, long timerSlackNanos, SendListener sendListener) {
        this.sendListener = sendListener;
        this.source = source;
        this.client = client;
        this.tracker = tracker;
        this.probes = probes;
        this.stages = stages;
        this.pacer = pacer;
        this.timerSlackNanos = timerSlackNanos;
    }

    @Override
    public void init(JLBH jlbh) {
        probes.attach(jlbh);
        timerSlack = TimerSlack.apply(timerSlackNanos); // JLBH's thread sends: its parks are the ones that matter
    }

    @Override
    public void run(long startTimeNs) {
        long due;
        if (warmedUp) {
            due = pacer.sendingAt(startTimeNs);
        } else {
            long gap = pacer.advanceForWarmup();
            warmupDue = warmupDue == 0 ? System.nanoTime() : warmupDue + gap;
            pacer.waitUntil(warmupDue, true);
            due = pacer.sendingAt(warmupDue);
        }
        long start = System.nanoTime();
        long id = source.id();
        tracker.sending(id, source.kind(), due);
        sendListener.sending(source, due);
        for (int i = 0; i < source.consumedCount(); i++) {
            tracker.targeting(source.consumedId(i));
        }
        client.sendRequest(source.msgType(), source.body(), tracker);
        if (warmedUp) {
            sendLog.record(due, start, System.nanoTime(), client.lastBackpressureNanos());
            orders++;
        }
        lastSentId = id;
    }

    @Override
    public void warmedUp() {
        probes.reset(); // measured runs start clean
        if (stages != null) {
            stages.reset();
        }
        warmedUp = true;
        processCpuStart = CpuClock.processNanos();
        senderCpuStart = CpuClock.threadNanos();
        wallStart = System.nanoTime();
    }

    @Override
    public void runComplete() {
        pacer.runEnded();
        for (String name : probes.names()) {
            keep(probeRuns, name, probes.recorder(name).getIntervalHistogram());
        }
        if (stages != null) {
            for (int stage = 0; stage < TraceStages.NAMES.size(); stage++) {
                keep(stageRuns, TraceStages.NAMES.get(stage), stages.recorder(stage).getIntervalHistogram());
            }
        }
        achievedRates.add(sendLog.achievedRate());
        scheduledRates.add(sendLog.scheduledRate());
        sendLagRuns.add(sendLog.endRun());
    }

    @Override
    public void complete() {
        if (warmedUp) {
            wall = System.nanoTime() - wallStart;
            long process = CpuClock.processNanos();
            long sender = CpuClock.threadNanos();
            processCpu = process < 0 || processCpuStart < 0 ? -1 : process - processCpuStart;
            senderCpu = sender < 0 || senderCpuStart < 0 ? -1 : sender - senderCpuStart;
        }
    }

    private static void keep(Map<String, List<Histogram>> runs, String name, Histogram histogram) {
        runs.computeIfAbsent(name, n -> new ArrayList<>()).add(histogram);
    }

    long lastSentId() {
        return lastSentId;
    }

    PhaseResult result(boolean aborted) {
        boolean traced = stageRuns.values().stream().flatMap(List::stream).anyMatch(h -> h.getTotalCount() > 0);
        return new PhaseResult(probeRuns, traced ? stageRuns : Map.of(), sendLagRuns, achievedRates, scheduledRates,
            sendLog.backpressureSends(), sendLog.backpressureNanos(), orders, processCpu, senderCpu, wall, timerSlack,
            aborted);
    }
}
