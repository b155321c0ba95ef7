package io.fixmatch.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.loadgen.report.Json;
import io.fixmatch.loadgen.report.ProbeStats;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The latency verdicts of a run: ceilings from the command line, and regression against a stored baseline. */
final class Thresholds {
    private Thresholds() {
    }

    /** Every breach, described; empty when the run passes. */
    static List<String> breaches(LoadgenOptions options, Map<String, ProbeStats> stats) throws IOException {
        List<String> breaches = new ArrayList<>(ceilings(options.thresholds(), stats));
        if (options.baseline() != null) {
            breaches.addAll(againstBaseline(options.baseline(), options.baselinePercentile(), options.maxRatio(),
                stats));
        }
        return breaches;
    }

    /** A ceiling on a probe without samples is breached: nothing was shown to be under it. */
    static List<String> ceilings(List<LoadgenOptions.Threshold> thresholds, Map<String, ProbeStats> stats) {
        List<String> breaches = new ArrayList<>();
        for (LoadgenOptions.Threshold threshold : thresholds) {
            ProbeStats probe = stats.get(threshold.probe());
            if (probe == null) {
                breaches.add("threshold names an unknown probe: " + threshold.probe() + " (known: " + stats.keySet()
                    + ")");
            } else if (probe.count() == 0) {
                breaches.add("threshold " + threshold.probe() + "." + threshold.percentile() + ": the probe has no "
                    + "samples");
            } else if (probe.get(threshold.percentile()) > threshold.maxMicros()) {
                breaches.add(String.format(Locale.ROOT, "%s %s = %.1f µs exceeds the ceiling of %.1f µs",
                    threshold.probe(), threshold.percentile(), probe.get(threshold.percentile()),
                    threshold.maxMicros()));
            }
        }
        return breaches;
    }

    static List<String> againstBaseline(Path file, String percentile, double maxRatio, Map<String, ProbeStats> stats)
        throws IOException {
        JsonNode probes = Json.read(file).path("probes");
        if (!probes.isObject()) {
            throw new IllegalArgumentException(file + " has no \"probes\": not a loadgen summary.json");
        }
        List<String> breaches = new ArrayList<>();
        for (Map.Entry<String, ProbeStats> entry : stats.entrySet()) {
            if (entry.getKey().equals(Report.LOOPBACK_ECHO) || entry.getValue().count() == 0) {
                continue; // the echo measures the machine, not the server
            }
            JsonNode before = probes.path(entry.getKey()).path(percentile + "_us");
            if (!before.isNumber() || before.asDouble() <= 0) {
                continue;
            }
            double baselineMicros = before.asDouble();
            double now = entry.getValue().get(percentile);
            if (now > baselineMicros * maxRatio) {
                breaches.add(String.format(Locale.ROOT, "%s %s = %.1f µs is %.2fx the baseline's %.1f µs (limit %.2fx)",
                    entry.getKey(), percentile, now, now / baselineMicros, baselineMicros, maxRatio));
            }
        }
        return breaches;
    }
}
