package io.fixmatch.loadgen;

import io.fixmatch.feed.codec.Channel;
import io.fixmatch.feed.handler.HandlerSettings;
import io.fixmatch.loadgen.client.EchoServer;
import io.fixmatch.loadgen.client.FeedProbe;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.loadgen.client.FixClient;
import io.fixmatch.loadgen.client.MarketDataProbe;
import io.fixmatch.loadgen.client.Probes;
import io.fixmatch.loadgen.client.RequestTracker;
import io.fixmatch.loadgen.client.ServerLogon;
import io.fixmatch.loadgen.client.TraceStages;
import io.fixmatch.loadgen.flow.RequestSource;
import io.fixmatch.loadgen.flow.SeededSource;
import io.fixmatch.loadgen.flow.replay.RecordedFlow;
import io.fixmatch.loadgen.flow.replay.ReplaySource;
import io.fixmatch.loadgen.phase.LoadPhase;
import io.fixmatch.loadgen.phase.PhasePlan;
import io.fixmatch.loadgen.phase.PhaseResult;
import io.fixmatch.loadgen.report.RunContext;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The load generator: logs on as LOADGEN, measures the floor (the same byte stream at the same rate through a bare
 * loopback echo, alone), then replays the flow to the server at the same rate under JLBH, writes the report and
 * judges it (see {@link Verdict} for the exit status).
 */
public final class LoadgenMain {
    public static final int EXIT_OK = Verdict.EXIT_OK;
    public static final int EXIT_ERRORS = Verdict.EXIT_ERRORS;
    public static final int EXIT_USAGE = Verdict.EXIT_USAGE;
    public static final int EXIT_THRESHOLD = Verdict.EXIT_FAIL;
    public static final int EXIT_INVALID = Verdict.EXIT_INVALID;

    private LoadgenMain() {
    }

    public static void main(String[] args) throws Exception {
        LoadgenOptions options;
        try {
            options = LoadgenOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("loadgen: " + e.getMessage() + " (see --help)");
            System.exit(EXIT_USAGE);
            return;
        }
        if (options == null) {
            System.out.println(LoadgenOptions.usage());
            return;
        }
        System.exit(run(options));
    }

    /** Runs both phases and writes the report; returns the exit status. */
    public static int run(LoadgenOptions options) throws Exception {
        return run(options, System.out);
    }

    /** As {@link #run(LoadgenOptions)}, JLBH's tables and the report printed to {@code out}. */
    public static int run(LoadgenOptions options, PrintStream out) throws Exception {
        String startedAt = RunContext.now();
        Supplier<RequestSource> sources;
        RequestTracker.Mode mode;
        Map<String, Object> flowInfo = new LinkedHashMap<>();
        if (options.flow() != null) {
            RecordedFlow recorded = RecordedFlow.load(options.flow());
            int rescaleTo = options.rateGiven() ? options.rate() : 0;
            sources = () -> new ReplaySource(recorded, rescaleTo);
            mode = RequestTracker.Mode.REPLAY;
            flowInfo.put("kind", "recorded");
            flowInfo.putAll(recorded.describe(options.flow()));
            flowInfo.put("pacing", rescaleTo > 0 ? "recorded gaps rescaled to " + rescaleTo + "/s" : "as recorded");
        } else {
            sources = () -> new SeededSource(options.seed(), options.symbols(), options.priceScale(), options.rate());
            mode = RequestTracker.Mode.SEEDED;
            flowInfo.put("kind", "seeded");
            flowInfo.put("seed", options.seed());
        }
        RequestSource serverSource = sources.get();
        Probes serverProbes = Probes.perKind(serverSource.kinds(), Report.END_TO_END);
        TraceStages stages = new TraceStages();
        RequestTracker tracker = new RequestTracker(mode, serverProbes, stages);
        MarketDataProbe marketData = null;
        if (options.marketData()) {
            serverProbes.withProbe(MarketDataProbe.PROBE);
            marketData = new MarketDataProbe(tracker, serverProbes);
        }
        FeedProbe feed = null;
        if (options.feed() != null) {
            serverProbes.withProbe(FeedProbe.PROBE);
            try {
                feed = new FeedProbe(feedSettings(options.feed()), serverProbes, options.symbols(),
                    options.priceScale());
            } catch (RuntimeException e) {
                out.println("loadgen: cannot listen to the binary market data feed: " + e.getMessage());
                return Verdict.EXIT_USAGE;
            }
        }
        try {
            return run(options, out, startedAt, sources, mode, flowInfo, serverSource, serverProbes, stages, tracker,
                marketData, feed);
        } finally {
            if (feed != null) {
                feed.close();
            }
        }
    }

    private static int run(LoadgenOptions options, PrintStream out, String startedAt, Supplier<RequestSource> sources,
                           RequestTracker.Mode mode, Map<String, Object> flowInfo, RequestSource serverSource,
                           Probes serverProbes, TraceStages stages, RequestTracker tracker,
                           MarketDataProbe marketData, FeedProbe feed) throws Exception {
        double rate = serverSource.meanRate();
        Probes floorProbes = Probes.single(Report.LOOPBACK_ECHO);
        RequestTracker floorTracker = new RequestTracker(RequestTracker.Mode.ECHO, floorProbes, null);
        PhaseResult floor;
        PhaseResult server;
        long sequenceGaps;
        long lastSentId;
        FixClient client;
        try {
            client = ServerLogon.open(new ServerLogon.Target(options.host(), options.port(), options.senderCompId(),
                options.targetCompId(), options.sendBufferBytes(), 30), marketData == null ? tracker : marketData,
                options.timeoutSeconds(), out);
        } catch (ServerLogon.Unavailable e) {
            out.println("loadgen: " + e.getMessage());
            Report.writeNoRun(options, startedAt, RunContext.gitCommit(), e.getMessage());
            return Verdict.EXIT_ERRORS;
        }
        try (client) {
            if (marketData != null) {
                subscribe(client, marketData, options, out);
            }
            if (feed != null) {
                // before any order: every update the handler applies from here on is one of the flow's requests'
                if (!feed.awaitBooks(options.timeoutSeconds() * 1000L)) {
                    out.println("loadgen: no snapshot of the binary market data feed within " + options.timeoutSeconds()
                        + " s at " + options.feed() + "; is the server's feed on and sent there?");
                    return Verdict.EXIT_ERRORS;
                }
                out.printf(Locale.ROOT, "listening to the binary market data feed at %s (probe %s)%n",
                    options.feed().stream(), FeedProbe.PROBE);
            }
            out.printf(Locale.ROOT, "logged on to %s:%d as %s; %,.0f requests/s, %d s warm-up, %d runs: first the "
                    + "floor (%d s, loopback echo, the server idle), then the server (%d s)%n", options.host(),
                options.port(), options.senderCompId(), rate, options.warmupSeconds(), options.runs(),
                options.floorDurationSeconds(), options.durationSeconds());
            try (EchoServer echo = new EchoServer();
                 FixClient echoClient = new FixClient("127.0.0.1", echo.port(), options.senderCompId(),
                     options.targetCompId(), floorTracker, 0)) {
                echoClient.logon(30, options.timeoutSeconds());
                out.println("phase 1 of 2: the floor (loopback echo, alone)");
                floor = new LoadPhase(sources.get(), echoClient, floorTracker, floorProbes, null,
                    plan(options, rate, options.floorIterationsPerRun(rate))).run(out);
                echoClient.logout(5);
            }
            out.println("phase 2 of 2: the server");
            LoadPhase phase = new LoadPhase(serverSource, client, tracker, serverProbes, stages,
                plan(options, rate, options.iterationsPerRun(rate)));
            if (feed != null) {
                phase.sendListener(feed);
            }
            server = phase.run(out);
            lastSentId = phase.lastSentId();
            if (feed != null && !feed.endOfFlow(options.timeoutSeconds() * 1000L)) {
                out.println("loadgen: the binary market data feed did not bring every level change of the flow within "
                    + options.timeoutSeconds() + " s");
            }
            client.logout(5);
            sequenceGaps = client.sequenceGaps();
        }
        long missing = tracker.reportMissing(lastSentId);
        long floorErrors = floorTracker.unexpectedCount() + floorTracker.rejectedCount();
        long errors = missing + tracker.rejectedCount() + tracker.unexpectedCount() + floorErrors;
        Map<String, Object> errorDetails = new LinkedHashMap<>();
        errorDetails.put("missing", missing);
        errorDetails.put("rejected", tracker.rejectedCount());
        errorDetails.put("unexpected", tracker.unexpectedCount());
        errorDetails.put("sequence_gaps", sequenceGaps);
        errorDetails.put("refused", tracker.refusedCount());
        errorDetails.put("floor_errors", floorErrors);
        List<String> first = new ArrayList<>(tracker.errorDescriptions());
        floorTracker.errorDescriptions().forEach(d -> first.add("floor: " + d));
        errorDetails.put("first", first);
        flowInfo.put("traced_answers", tracker.tracedCount());
        if (marketData != null) {
            flowInfo.put("market_data", marketData.describe());
        }
        if (feed != null) {
            flowInfo.put("feed", feed.describe());
        }

        Report report = new Report(options, new Report.Context(startedAt, RunContext.gitCommit(),
            RunContext.serverConfig(options.serverConfig(), options.serverLog(), options.host(), options.port()),
            flowInfo), floor, server, errors, errorDetails);
        List<String> breaches = new ArrayList<>(Thresholds.ceilings(options.thresholds(), report.allStats()));
        if (options.baseline() != null) {
            breaches.addAll(Thresholds.againstBaseline(options.baseline(), options.baselinePercentile(),
                options.maxRatio(), report.probeStats()));
        }
        Verdict verdict = Verdict.judge(options, report, errors, breaches);
        report.write(verdict);
        report.print(out, verdict);
        if (errors > 0) {
            first.forEach(d -> out.println("  " + d));
        }
        return verdict.exitCode();
    }

    /** Subscribes the session to the flow's symbols; a venue that refuses leaves the run without the probe. */
    private static void subscribe(FixClient client, MarketDataProbe marketData, LoadgenOptions options,
                                  PrintStream out) throws InterruptedException {
        client.send(MsgTypes.MARKET_DATA_REQUEST, MarketDataProbe.request(options.symbols()));
        if (marketData.awaitSnapshots(options.symbols().size(), options.timeoutSeconds() * 1000L)) {
            out.printf(Locale.ROOT, "subscribed to market data of %s (probe %s)%n", options.symbols(),
                MarketDataProbe.PROBE);
        } else {
            out.println("market data not available: " + marketData.describe().getOrDefault("refused", "no snapshot")
                + "; running without the " + MarketDataProbe.PROBE + " probe");
        }
    }

    private static HandlerSettings feedSettings(LoadgenOptions.FeedAddresses addresses) {
        return HandlerSettings.of(address(addresses.stream()), address(addresses.snapshots()),
            address(addresses.retransmit()));
    }

    private static InetSocketAddress address(String text) {
        List<InetSocketAddress> addresses = Channel.parse(text);
        if (addresses.size() != 1) {
            throw new IllegalArgumentException("not one host:port: " + text);
        }
        return addresses.get(0);
    }

    private static PhasePlan plan(LoadgenOptions options, double rate, long iterationsPerRun) {
        return new PhasePlan((int) Math.max(1, Math.round(rate)), options.warmupIterations(rate), iterationsPerRun,
            options.runs(), options.cpu(), options.timeoutSeconds(), options.parkMarginMicros() * 1000L,
            options.waitMode(), options.timerSlackNanos());
    }
}
