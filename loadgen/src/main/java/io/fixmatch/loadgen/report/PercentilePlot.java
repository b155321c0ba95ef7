package io.fixmatch.loadgen.report;

import org.HdrHistogram.Histogram;

import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML page with one SVG chart: latency (log scale, µs) against percentile (on the usual
 * "number of nines" scale), one line per probe, and the table of the numbers under it. No scripts, no external
 * files: it opens anywhere.
 */
public final class PercentilePlot {
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#7f7f7f",
        "#17becf", "#8c564b"};
    private static final int WIDTH = 900;
    private static final int HEIGHT = 500;
    private static final int LEFT = 70;
    private static final int RIGHT = 180;
    private static final int TOP = 30;
    private static final int BOTTOM = 50;
    /** The x axis goes to 99.999% (five nines). */
    private static final double MAX_NINES = 5;

    private PercentilePlot() {
    }

    public static String html(String title, Map<String, Histogram> probes, Map<String, ProbeStats> stats) {
        double maxMicros = 1;
        double minMicros = Double.MAX_VALUE;
        for (Histogram h : probes.values()) {
            if (h.getTotalCount() > 0) {
                maxMicros = Math.max(maxMicros, h.getMaxValue() / 1000.0);
                minMicros = Math.min(minMicros, Math.max(0.1, h.getMinValue() / 1000.0));
            }
        }
        if (minMicros == Double.MAX_VALUE) {
            minMicros = 0.1;
        }
        double logMin = Math.floor(Math.log10(minMicros));
        double logMax = Math.ceil(Math.log10(maxMicros));
        if (logMax <= logMin) {
            logMax = logMin + 1;
        }
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
            + "font-family='sans-serif' font-size='12'>%n", WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect width='%d' height='%d' fill='white'/>%n", WIDTH, HEIGHT));
        for (int nines = 0; nines <= MAX_NINES; nines++) {
            double x = x(nines);
            String label = nines == 0 ? "0%" : String.format(Locale.ROOT, "%s%%",
                new java.math.BigDecimal(100 - 100 / Math.pow(10, nines)).stripTrailingZeros().toPlainString());
            svg.append(String.format(Locale.ROOT, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#ddd'/>%n", x,
                TOP, x, HEIGHT - BOTTOM));
            svg.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' text-anchor='middle'>%s</text>%n", x,
                HEIGHT - BOTTOM + 18, label));
        }
        for (double decade = logMin; decade <= logMax; decade++) {
            double y = y(decade, logMin, logMax);
            svg.append(String.format(Locale.ROOT, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/>%n",
                LEFT, y, WIDTH - RIGHT, y));
            svg.append(String.format(Locale.ROOT, "<text x='%d' y='%.1f' text-anchor='end'>%s µs</text>%n",
                LEFT - 6, y + 4, new java.math.BigDecimal(Math.pow(10, decade)).stripTrailingZeros()
                    .toPlainString()));
        }
        svg.append(String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='middle'>percentile</text>%n",
            (LEFT + WIDTH - RIGHT) / 2, HEIGHT - 8));
        int colour = 0;
        for (Map.Entry<String, Histogram> probe : probes.entrySet()) {
            Histogram h = probe.getValue();
            if (h.getTotalCount() == 0) {
                continue;
            }
            String color = COLORS[colour % COLORS.length];
            StringBuilder points = new StringBuilder();
            for (int step = 0; step <= MAX_NINES * 20; step++) {
                double nines = step / 20.0;
                double percentile = 100 - 100 / Math.pow(10, nines);
                double micros = Math.max(minMicros, h.getValueAtPercentile(percentile) / 1000.0);
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(nines),
                    y(Math.log10(micros), logMin, logMax)));
            }
            svg.append(String.format(Locale.ROOT, "<polyline fill='none' stroke='%s' stroke-width='2' "
                + "points='%s'/>%n", color, points.toString().trim()));
            int legendY = TOP + 16 + colour * 18;
            svg.append(String.format(Locale.ROOT, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s' "
                + "stroke-width='3'/>%n", WIDTH - RIGHT + 12, legendY - 4, WIDTH - RIGHT + 32, legendY - 4, color));
            svg.append(String.format(Locale.ROOT, "<text x='%d' y='%d'>%s</text>%n", WIDTH - RIGHT + 38, legendY,
                escape(probe.getKey())));
            colour++;
        }
        svg.append("</svg>\n");

        StringBuilder page = new StringBuilder();
        page.append("<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>").append(escape(title))
            .append("</title>\n<style>body{font-family:sans-serif;margin:20px}table{border-collapse:collapse}"
                + "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th:first-child,td:first-child"
                + "{text-align:left}</style></head><body>\n<h2>").append(escape(title)).append("</h2>\n")
            .append(svg)
            .append("<table><tr><th>probe</th><th>count</th><th>p50 µs</th><th>p90 µs</th><th>p99 µs</th>"
                + "<th>p99.9 µs</th><th>p99.99 µs</th><th>worst µs</th></tr>\n");
        for (Map.Entry<String, ProbeStats> entry : stats.entrySet()) {
            ProbeStats s = entry.getValue();
            page.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%.1f</td><td>%.1f</td>"
                    + "<td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td></tr>%n", escape(entry.getKey()),
                s.count(), s.p50(), s.p90(), s.p99(), s.p999(), s.p9999(), s.worst()));
        }
        page.append("</table>\n</body></html>\n");
        return page.toString();
    }

    private static double x(double nines) {
        return LEFT + (WIDTH - LEFT - RIGHT) * nines / MAX_NINES;
    }

    private static double y(double logMicros, double logMin, double logMax) {
        return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * (logMicros - logMin) / (logMax - logMin);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
