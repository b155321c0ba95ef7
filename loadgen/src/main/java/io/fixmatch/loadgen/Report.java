package io.fixmatch.loadgen;

import io.fixmatch.loadgen.phase.PhaseResult;
import io.fixmatch.loadgen.report.Json;
import io.fixmatch.loadgen.report.MachineInfo;
import io.fixmatch.loadgen.report.PercentilePage;
import io.fixmatch.loadgen.report.ProbeStats;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a load run produced, written to the output folder: {@code summary.json} (the stable interface release
 * checks read), one HdrHistogram log per probe, stage and send lag (one interval per measured run), and
 * {@code percentiles.html}.
 */
final class Report {
    static final String END_TO_END = "end_to_end";
    static final String LOOPBACK_ECHO = "loopback_echo";
    static final String SEND_LAG = "send_lag";
    static final String FLOOR_SEND_LAG = "floor_send_lag";
    /** The probes summary.json always has, in this order; others (status) follow when they have samples. */
    static final List<String> STABLE_PROBES = List.of("new_ack", "cancel", "fill", "replace", END_TO_END,
        LOOPBACK_ECHO);

    private final LoadgenOptions options;
    private final Context context;
    private final PhaseResult floor;
    private final PhaseResult server;
    private final long errors;
    private final Map<String, Object> errorDetails;
    private final Map<String, List<Histogram>> probeRuns = new LinkedHashMap<>();
    private final Map<String, Histogram> totals = new LinkedHashMap<>();
    private final Map<String, ProbeStats> stats = new LinkedHashMap<>();
    private final Map<String, ProbeStats> stageStats = new LinkedHashMap<>();

    /**
     * Where and how the run was made.
     *
     * @param startedAt    ISO-8601 UTC
     * @param gitCommit    the working tree's commit
     * @param serverConfig the server's configuration as far as known
     * @param flow         what was replayed
     */
    record Context(String startedAt, String gitCommit, Map<String, Object> serverConfig, Map<String, Object> flow) {
    }

    Report(LoadgenOptions options, Context context, PhaseResult floor, PhaseResult server, long errors,
           Map<String, Object> errorDetails) {
        this.options = options;
        this.context = context;
        this.floor = floor;
        this.server = server;
        this.errors = errors;
        this.errorDetails = errorDetails;
        probeRuns.putAll(server.probes());
        probeRuns.put(LOOPBACK_ECHO, floor.probes().getOrDefault(LOOPBACK_ECHO, List.of()));
        List<String> names = new ArrayList<>(STABLE_PROBES);
        server.probes().keySet().stream().filter(name -> !names.contains(name)).forEach(names::add);
        for (String probe : names) {
            Histogram total = total(probeRuns.getOrDefault(probe, List.of()));
            if (STABLE_PROBES.contains(probe) || total.getTotalCount() > 0) {
                totals.put(probe, total);
                stats.put(probe, ProbeStats.of(total));
            }
        }
        server.stages().forEach((stage, runs) -> stageStats.put(stage, ProbeStats.of(total(runs))));
    }

    private static Histogram total(List<Histogram> runs) {
        Histogram total = new Histogram(1, 60_000_000_000L, 3);
        runs.forEach(total::add);
        return total;
    }

    ProbeStats stats(String probe) {
        return stats.getOrDefault(probe, ProbeStats.EMPTY);
    }

    /** Everything a threshold can name: the probes, the stages, the generator's send lag in either phase. */
    Map<String, ProbeStats> allStats() {
        Map<String, ProbeStats> all = new LinkedHashMap<>(stats);
        all.putAll(stageStats);
        all.put(SEND_LAG, sendLag());
        all.put(FLOOR_SEND_LAG, floorSendLag());
        return all;
    }

    Map<String, ProbeStats> probeStats() {
        return stats;
    }

    ProbeStats sendLag() {
        return ProbeStats.of(server.totalSendLag());
    }

    ProbeStats floorSendLag() {
        return ProbeStats.of(floor.totalSendLag());
    }

    PhaseResult server() {
        return server;
    }

    PhaseResult floor() {
        return floor;
    }

    void write(Verdict verdict) throws IOException {
        Files.createDirectories(options.out());
        Files.writeString(options.out().resolve("summary.json"), Json.write(summary(verdict)), StandardCharsets.UTF_8);
        for (Map.Entry<String, List<Histogram>> probe : probeRuns.entrySet()) {
            writeLog(probe.getKey(), "round trips from the due time", probe.getValue());
        }
        for (Map.Entry<String, List<Histogram>> stage : server.stages().entrySet()) {
            writeLog("stage_" + stage.getKey(), "latency trace stage", stage.getValue());
        }
        writeLog(SEND_LAG, "the generator's send lag, server phase", server.sendLag());
        writeLog(FLOOR_SEND_LAG, "the generator's send lag, floor phase", floor.sendLag());
        Files.writeString(options.out().resolve("percentiles.html"), PercentilePage.html(title(), verdict.verdict(),
            verdict.reasons(), context.startedAt(), context.gitCommit(), MachineInfo.describe(), totals, stats,
            stageStats, sendLag(), floorSendLag()), StandardCharsets.UTF_8);
    }

    /**
     * The summary of a run that never started (no server answered): verdict FAIL and the reason, with the keys that
     * still mean something (no probes, nothing measured).
     */
    static void writeNoRun(LoadgenOptions options, String startedAt, String gitCommit, String reason)
        throws IOException {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("verdict", Verdict.FAIL);
        summary.put("reasons", List.of(reason));
        summary.put("started_at", startedAt);
        summary.put("git_commit", gitCommit);
        summary.put("target_rate", options.rate());
        summary.put("achieved_rate", 0.0);
        summary.put("errors", 1);
        summary.put("error_details", Map.of("first", List.of(reason)));
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("host", options.host());
        settings.put("port", options.port());
        settings.put("sender_comp_id", options.senderCompId());
        summary.put("settings", settings);
        Files.createDirectories(options.out());
        Files.writeString(options.out().resolve("summary.json"), Json.write(summary), StandardCharsets.UTF_8);
    }

    private void writeLog(String name, String what, List<Histogram> runs) throws IOException {
        try (PrintStream log = new PrintStream(Files.newOutputStream(options.out().resolve(name + ".hlog")), true,
            StandardCharsets.UTF_8)) {
            HistogramLogWriter writer = new HistogramLogWriter(log);
            writer.outputComment("fixmatch loadgen " + name + ": " + what + ", values in ns, one interval per run");
            writer.outputLogFormatVersion();
            writer.outputLegend();
            for (Histogram run : runs) {
                writer.outputIntervalHistogram(run);
            }
        }
    }

    private String title() {
        return String.format(Locale.ROOT, "fixmatch loadgen: %,.0f orders/s scheduled, %,.0f achieved, %d s measured, "
            + "%d errors", server.scheduledRate(), server.achievedRate(), options.durationSeconds(), errors);
    }

    private Map<String, Object> summary(Verdict verdict) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("verdict", verdict.verdict());
        summary.put("reasons", verdict.reasons());
        summary.put("started_at", context.startedAt());
        summary.put("git_commit", context.gitCommit());
        summary.put("target_rate", options.flow() == null || options.rateGiven() ? options.rate()
            : Math.round(server.scheduledRate()));
        summary.put("achieved_rate", server.achievedRate());
        summary.put("errors", errors);
        Map<String, Object> probes = new LinkedHashMap<>();
        for (Map.Entry<String, ProbeStats> entry : stats.entrySet()) {
            Map<String, Object> probe = entry.getValue().toJson();
            List<Object> perRun = new ArrayList<>();
            for (Histogram run : probeRuns.getOrDefault(entry.getKey(), List.of())) {
                ProbeStats r = ProbeStats.of(run);
                perRun.add(Map.of("p50_us", r.p50(), "p99_us", r.p99(), "worst_us", r.worst()));
            }
            probe.put("runs", perRun);
            if (entry.getKey().equals(LOOPBACK_ECHO)) {
                probe.put("measured_alone", true);
            }
            probes.put(entry.getKey(), probe);
        }
        summary.put("probes", probes);
        summary.put("error_details", errorDetails);
        summary.put("floor", floorSection());
        summary.put("send_lag", sendLagSection());
        summary.put("generator_cpu", cpuSection());
        Map<String, Object> stages = new LinkedHashMap<>();
        stageStats.forEach((stage, s) -> stages.put(stage, s.toJson()));
        summary.put("stages", stages);
        summary.put("server_config", context.serverConfig());
        summary.put("flow", context.flow());
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("duration_s", options.durationSeconds());
        settings.put("warmup_s", options.warmupSeconds());
        settings.put("runs", options.runs());
        settings.put("host", options.host());
        settings.put("port", options.port());
        settings.put("symbols", String.join(",", options.symbols()));
        settings.put("sender_comp_id", options.senderCompId());
        settings.put("seed", options.seed());
        settings.put("cpu", options.cpu());
        settings.put("floor_duration_s", options.floorDurationSeconds());
        settings.put("park_margin_us", options.parkMarginMicros());
        settings.put("wait", options.waitMode().name().toLowerCase(Locale.ROOT));
        settings.put("timer_slack_ns", options.timerSlackNanos());
        settings.put("timer_slack", server.timerSlack());
        settings.put("max_send_lag_us", options.maxSendLagMicros());
        settings.put("floor_ratio", options.floorRatio());
        summary.put("settings", settings);
        summary.put("machine", MachineInfo.describe());
        return summary;
    }

    private Map<String, Object> floorSection() {
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("measured_alone", true);
        section.put("when", "before the server phase, the server idle: the same byte stream at the same rate through "
            + "a bare loopback TCP echo in the generator's process");
        section.put("probe", LOOPBACK_ECHO);
        section.put("stats", stats(LOOPBACK_ECHO).toJson());
        section.put("scheduled_rate", floor.scheduledRate());
        section.put("achieved_rate", floor.achievedRate());
        section.put("duration_s", options.floorDurationSeconds());
        section.put("send_lag", floorSendLag().toJson());
        return section;
    }

    private Map<String, Object> sendLagSection() {
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("definition", "when each request's send began minus when it was due (while catching up after "
            + "the acceptor's back-pressure: minus when the previous send ended)");
        section.put("bound_p99_us", options.maxSendLagMicros());
        section.put("server_phase", sendLag().toJson());
        section.put("floor_phase", floorSendLag().toJson());
        Map<String, Object> backpressure = new LinkedHashMap<>();
        backpressure.put("sends", server.backpressureSends());
        backpressure.put("wait_ms", server.backpressureNanos() / 1e6);
        section.put("server_backpressure", backpressure);
        return section;
    }

    private Map<String, Object> cpuSection() {
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("orders", server.orders());
        section.put("process_us_per_order", perOrder(server.processCpuNanos(), server.orders()));
        section.put("sender_thread_us_per_order", perOrder(server.senderCpuNanos(), server.orders()));
        section.put("process_cores", cores(server.processCpuNanos(), server.wallNanos()));
        section.put("sender_thread_cores", cores(server.senderCpuNanos(), server.wallNanos()));
        section.put("floor_process_cores", cores(floor.processCpuNanos(), floor.wallNanos()));
        return section;
    }

    private static double perOrder(long cpuNanos, long orders) {
        return cpuNanos < 0 || orders == 0 ? -1 : cpuNanos / 1000.0 / orders;
    }

    private static double cores(long cpuNanos, long wallNanos) {
        return cpuNanos < 0 || wallNanos <= 0 ? -1 : (double) cpuNanos / wallNanos;
    }

    /** The report printed after JLBH's tables; its first line is the verdict. */
    void print(PrintStream out, Verdict verdict) {
        out.println();
        out.println(verdict.headline());
        verdict.reasons().forEach(reason -> out.println("  " + reason));
        out.printf(Locale.ROOT, "%-16s %10s %9s %9s %9s %9s %9s %10s%n", "probe (µs)", "count", "p50", "p90", "p99",
            "p99.9", "p99.99", "worst");
        stats.forEach((name, s) -> row(out, name.equals(LOOPBACK_ECHO) ? "loopback_echo*" : name, s));
        stageStats.forEach((name, s) -> row(out, "  " + name, s));
        row(out, SEND_LAG, sendLag());
        row(out, FLOOR_SEND_LAG, floorSendLag());
        out.println("* the floor: measured alone, before the server phase, same byte stream and rate");
        ProbeStats ack = stats("new_ack");
        ProbeStats echo = stats(LOOPBACK_ECHO);
        if (ack.count() > 0 && echo.count() > 0 && echo.p50() > 0 && echo.p99() > 0) {
            out.printf(Locale.ROOT, "new_ack vs the floor: p50 %.2fx, p99 %.2fx%n", ack.p50() / echo.p50(),
                ack.p99() / echo.p99());
        }
        out.printf(Locale.ROOT, "scheduled %,.0f orders/s, achieved %,.0f orders/s, errors %d; generator CPU %.1f µs "
                + "per order (%.2f cores), sender thread %.1f µs per order%n", server.scheduledRate(),
            server.achievedRate(), errors, perOrder(server.processCpuNanos(), server.orders()),
            cores(server.processCpuNanos(), server.wallNanos()), perOrder(server.senderCpuNanos(), server.orders()));
        out.println("report: " + options.out().toAbsolutePath().resolve("summary.json") + ", percentiles.html, *.hlog");
    }

    private static void row(PrintStream out, String name, ProbeStats s) {
        out.printf(Locale.ROOT, "%-16s %,10d %9.1f %9.1f %9.1f %9.1f %9.1f %10.1f%n", name, s.count(), s.p50(),
            s.p90(), s.p99(), s.p999(), s.p9999(), s.worst());
    }
}
