package io.fixmatch.loadgen;

import io.fixmatch.loadgen.report.Json;
import io.fixmatch.loadgen.report.MachineInfo;
import io.fixmatch.loadgen.report.PercentilePlot;
import io.fixmatch.loadgen.report.ProbeStats;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a load run produced, written to the output folder: {@code summary.json} (the stable interface release
 * checks read), one HdrHistogram log per probe (one interval per measured run), and {@code percentiles.html}.
 */
final class Report {
    static final String END_TO_END = "end_to_end";
    static final String LOOPBACK_ECHO = "loopback_echo";

    private final LoadgenOptions options;
    private final Map<String, List<Histogram>> runs;
    private final Map<String, Histogram> totals = new LinkedHashMap<>();
    private final Map<String, ProbeStats> stats = new LinkedHashMap<>();
    private final double achievedRate;
    private final long errors;
    private final Map<String, Object> errorDetails;

    Report(LoadgenOptions options, Map<String, List<Histogram>> runs, List<Double> runRates, long errors,
           Map<String, Object> errorDetails) {
        this.options = options;
        this.runs = runs;
        this.errors = errors;
        this.errorDetails = errorDetails;
        for (String probe : List.of("new_ack", "cancel", "fill", "replace", END_TO_END, LOOPBACK_ECHO)) {
            Histogram total = new Histogram(1, 60_000_000_000L, 3);
            for (Histogram run : runs.getOrDefault(probe, List.of())) {
                total.add(run);
            }
            totals.put(probe, total);
            stats.put(probe, ProbeStats.of(total));
        }
        this.achievedRate = runRates.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    ProbeStats stats(String probe) {
        return stats.get(probe);
    }

    Map<String, ProbeStats> allStats() {
        return stats;
    }

    double achievedRate() {
        return achievedRate;
    }

    void write() throws IOException {
        Files.createDirectories(options.out());
        Files.writeString(options.out().resolve("summary.json"), Json.write(summary()), StandardCharsets.UTF_8);
        for (Map.Entry<String, List<Histogram>> probe : runs.entrySet()) {
            try (PrintStream log = new PrintStream(Files.newOutputStream(options.out().resolve(probe.getKey()
                + ".hlog")), true, StandardCharsets.UTF_8)) {
                HistogramLogWriter writer = new HistogramLogWriter(log);
                writer.outputComment("fixmatch loadgen probe " + probe.getKey() + ", values in ns, one interval per run");
                writer.outputLogFormatVersion();
                writer.outputLegend();
                for (Histogram run : probe.getValue()) {
                    writer.outputIntervalHistogram(run);
                }
            }
        }
        Files.writeString(options.out().resolve("percentiles.html"), PercentilePlot.html(String.format(Locale.ROOT,
                "fixmatch loadgen: %,d orders/s target, %,.0f achieved, %d s measured, %d errors", options.rate(),
                achievedRate, options.durationSeconds(), errors), totals, stats), StandardCharsets.UTF_8);
    }

    private Map<String, Object> summary() {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("target_rate", options.rate());
        summary.put("achieved_rate", achievedRate);
        summary.put("errors", errors);
        Map<String, Object> probes = new LinkedHashMap<>();
        for (Map.Entry<String, ProbeStats> entry : stats.entrySet()) {
            ProbeStats s = entry.getValue();
            Map<String, Object> probe = new LinkedHashMap<>();
            probe.put("count", s.count());
            probe.put("p50_us", s.p50());
            probe.put("p90_us", s.p90());
            probe.put("p99_us", s.p99());
            probe.put("p999_us", s.p999());
            probe.put("p9999_us", s.p9999());
            probe.put("worst_us", s.worst());
            List<Object> perRun = new ArrayList<>();
            for (Histogram run : runs.getOrDefault(entry.getKey(), List.of())) {
                ProbeStats r = ProbeStats.of(run);
                perRun.add(Map.of("p50_us", r.p50(), "p99_us", r.p99(), "worst_us", r.worst()));
            }
            probe.put("runs", perRun);
            probes.put(entry.getKey(), probe);
        }
        summary.put("probes", probes);
        summary.put("error_details", errorDetails);
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
        summary.put("settings", settings);
        summary.put("machine", MachineInfo.describe());
        return summary;
    }

    /** The compact table printed after JLBH's own: every probe, and the server's distance from the floor. */
    void print(PrintStream out) {
        out.println();
        out.printf(Locale.ROOT, "%-14s %10s %9s %9s %9s %9s %9s %10s%n", "probe (µs)", "count", "p50", "p90", "p99",
            "p99.9", "p99.99", "worst");
        for (Map.Entry<String, ProbeStats> entry : stats.entrySet()) {
            ProbeStats s = entry.getValue();
            out.printf(Locale.ROOT, "%-14s %,10d %9.1f %9.1f %9.1f %9.1f %9.1f %10.1f%n", entry.getKey(), s.count(),
                s.p50(), s.p90(), s.p99(), s.p999(), s.p9999(), s.worst());
        }
        ProbeStats ack = stats.get("new_ack");
        ProbeStats echo = stats.get(LOOPBACK_ECHO);
        if (ack.count() > 0 && echo.count() > 0 && echo.p50() > 0 && echo.p99() > 0) {
            out.printf(Locale.ROOT, "new_ack vs loopback echo: p50 %.2fx, p99 %.2fx%n", ack.p50() / echo.p50(),
                ack.p99() / echo.p99());
        }
        out.printf(Locale.ROOT, "target %,d orders/s, achieved %,.0f orders/s, errors %d%n", options.rate(),
            achievedRate, errors);
        out.println("report: " + options.out().toAbsolutePath().resolve("summary.json") + ", percentiles.html, *.hlog");
    }
}
