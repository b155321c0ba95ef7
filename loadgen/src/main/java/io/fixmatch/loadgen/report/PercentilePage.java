package io.fixmatch.loadgen.report;

import org.HdrHistogram.Histogram;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The page a person reads after a run: the verdict and its reasons, the percentile chart ({@link PercentileChart}),
 * when, on which commit and machine, a table of every probe, stage and the send lag, and each probe's full
 * percentile distribution as HdrHistogram prints it
 * (value, percentile, count, 1/(1-percentile): the format HdrHistogram's own plotter reads). No scripts, no external
 * files: it opens anywhere.
 */
public final class PercentilePage {
    private PercentilePage() {
    }

    public static String html(String title, String verdict, List<String> reasons, String startedAt, String commit,
                              Map<String, String> machine, Map<String, Histogram> probes,
                              Map<String, ProbeStats> stats, Map<String, ProbeStats> stages, ProbeStats sendLag,
                              ProbeStats floorSendLag) {
        StringBuilder page = new StringBuilder();
        String colour = switch (verdict) {
            case "PASS" -> "#2ca02c";
            case "INVALID" -> "#ff7f0e";
            default -> "#d62728";
        };
        page.append("<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>").append(escape(title))
            .append("</title>\n<style>body{font-family:sans-serif;margin:20px}table{border-collapse:collapse;"
                + "margin-bottom:16px}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
                + "th:first-child,td:first-child{text-align:left}pre{font-size:12px}</style></head><body>\n")
            .append("<h1 style='color:").append(colour).append("'>").append(escape(verdict)).append("</h1>\n<ul>\n");
        for (String reason : reasons) {
            page.append("<li>").append(escape(reason)).append("</li>\n");
        }
        page.append("</ul>\n<h2>").append(escape(title)).append("</h2>\n").append(chart(title, probes))
            .append("<p>Started ").append(escape(startedAt))
            .append(", commit ").append(escape(commit)).append("<br>Machine: ");
        machine.forEach((key, value) -> page.append(escape(key)).append(" ").append(escape(value)).append("; "));
        page.append("</p>\n<table><tr><th>probe (µs)</th><th>count</th><th>mean</th><th>p50</th><th>p90</th>"
            + "<th>p99</th><th>p99.9</th><th>p99.99</th><th>worst</th></tr>\n");
        stats.forEach((name, s) -> row(page, name.equals("loopback_echo") ? "loopback_echo (the floor, measured alone)"
            : name, s));
        stages.forEach((name, s) -> row(page, "stage " + name, s));
        row(page, "send lag (server phase)", sendLag);
        row(page, "send lag (floor phase)", floorSendLag);
        page.append("</table>\n<h2>Percentile distributions (µs)</h2>\n");
        for (Map.Entry<String, Histogram> probe : probes.entrySet()) {
            if (probe.getValue().getTotalCount() == 0) {
                continue;
            }
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
                probe.getValue().outputPercentileDistribution(out, 5, 1000.0);
            }
            page.append("<details><summary>").append(escape(probe.getKey())).append("</summary><pre>")
                .append(escape(text.toString(StandardCharsets.UTF_8))).append("</pre></details>\n");
        }
        page.append("</body></html>\n");
        return page.toString();
    }

    /** The chart as an embedded PNG; a note instead if it cannot be drawn here (no fonts, say). */
    private static String chart(String title, Map<String, Histogram> probes) {
        try {
            return "<img alt='round trip by percentile' src='data:image/png;base64,"
                + Base64.getEncoder().encodeToString(PercentileChart.png(title, probes)) + "'>\n";
        } catch (IOException | RuntimeException | LinkageError | java.awt.AWTError e) {
            return "<p>(chart unavailable: " + escape(String.valueOf(e)) + "; the numbers are below)</p>\n";
        }
    }

    private static void row(StringBuilder page, String name, ProbeStats s) {
        page.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%,d</td><td>%.1f</td><td>%.1f</td><td>%.1f</td>"
                + "<td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td></tr>%n", escape(name), s.count(), s.mean(),
            s.p50(), s.p90(), s.p99(), s.p999(), s.p9999(), s.worst()));
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
