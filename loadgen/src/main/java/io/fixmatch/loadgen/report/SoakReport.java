package io.fixmatch.loadgen.report;

import com.fasterxml.jackson.databind.JsonNode;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The soak run's report (scripts/soak.sh), from the load report's {@code summary.json} (one JLBH run per minute)
 * and the server's Flight Recorder recording: errors, each probe's percentiles minute by minute, heap after GC
 * minute by minute, GC pauses, and what the server's own threads (gateway, matching) allocated. Then the checks of
 * a soak: no errors, last minute's p99 within 1.5x of the first's, heap after GC not growing (last minute within
 * 10% or 16 MB of the second), and, within the measured minutes (the recording's last {@code duration_s} seconds,
 * less its final 5 s: the generator's report and the server's stop; the whole recording when the summary does not
 * say), the gateway and matching threads allocating under 1 MB a minute (allocation samples are statistical: a few
 * small samples are the recorder's noise floor) and no GC pause over 1 ms. Start-up (recovery allocates the books)
 * and the warm-up (classes loading, buffers growing to their size) come before that window.
 *
 * <pre>usage: SoakReport OUT_DIR   (reads OUT_DIR/summary.json and OUT_DIR/server.jfr; exit 0 PASS, 3 FAIL)</pre>
 */
public final class SoakReport {
    private static final double P99_DRIFT = 1.5;
    private static final double HEAP_GROWTH = 0.10;
    private static final long HEAP_SLACK_BYTES = 16L << 20;
    private static final long ALLOCATION_PER_MINUTE = 1L << 20;
    private static final Duration LONGEST_PAUSE = Duration.ofMillis(1);
    private static final Duration STOP_MARGIN = Duration.ofSeconds(5);

    private final List<String> failures = new ArrayList<>();
    /** Measured seconds, from the summary (0: unknown, judge the whole recording). */
    private long measuredSeconds;
    private final StringBuilder out = new StringBuilder();

    private SoakReport() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: SoakReport OUT_DIR");
            System.exit(2);
        }
        SoakReport report = judge(Json.read(Path.of(args[0], "summary.json")), Path.of(args[0], "server.jfr"));
        System.out.print(report.text());
        System.exit(report.failures().isEmpty() ? 0 : 3);
    }

    /** The report of a load summary and the server's recording. */
    static SoakReport judge(JsonNode summary, Path recording) throws IOException {
        SoakReport report = new SoakReport();
        report.summary(summary);
        if (Files.exists(recording)) {
            report.recording(recording);
        } else {
            report.failures.add("no recording " + recording);
        }
        report.verdict();
        return report;
    }

    /** What failed the checks (empty: PASS). */
    List<String> failures() {
        return failures;
    }

    String text() {
        return out.toString();
    }

    private void summary(JsonNode summary) {
        long errors = summary.path("errors").asLong();
        line("load: verdict %s, %,.0f orders/s achieved of %,d, %d errors", summary.path("verdict").asText(),
            summary.path("achieved_rate").asDouble(), summary.path("target_rate").asLong(), errors);
        if (errors != 0) {
            failures.add(errors + " errors: " + summary.path("error_details"));
        }
        measuredSeconds = summary.path("settings").path("duration_s").asLong(0);
        line("round trip by minute (us): p50 / p99 / worst");
        summary.path("probes").fields().forEachRemaining(probe -> {
            JsonNode runs = probe.getValue().path("runs");
            if (runs.size() < 2 || probe.getValue().path("measured_alone").asBoolean()) {
                return;
            }
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-16s", probe.getKey()));
            for (JsonNode run : runs) {
                row.append(String.format(Locale.ROOT, " %.0f/%.0f/%.0f", run.path("p50_us").asDouble(),
                    run.path("p99_us").asDouble(), run.path("worst_us").asDouble()));
            }
            line("%s", row);
            double first = runs.get(0).path("p99_us").asDouble();
            double last = runs.get(runs.size() - 1).path("p99_us").asDouble();
            if (last > first * P99_DRIFT) {
                failures.add(String.format(Locale.ROOT, "%s p99 drifted from %.0f us (first minute) to %.0f us (last)",
                    probe.getKey(), first, last));
            }
        });
    }

    private void recording(Path recording) throws IOException {
        Instant start = null;
        Map<Long, long[]> heapByMinute = new TreeMap<>(); // minute -> {sum, count}
        Map<String, Long> allocationByThread = new TreeMap<>();
        Map<String, Long> measuredAllocationByThread = new TreeMap<>();
        long pauses = 0;
        long longPauses = 0;
        Duration longest = Duration.ZERO;
        Instant end = null;
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (start == null || event.getStartTime().isBefore(start)) {
                start = event.getStartTime();
            }
            if (end == null || event.getEndTime().isAfter(end)) {
                end = event.getEndTime();
            }
        }
        if (start == null) {
            failures.add("the recording is empty");
            return;
        }
        Instant from = measuredSeconds == 0 ? start : end.minus(STOP_MARGIN.plusSeconds(measuredSeconds))
            .plus(STOP_MARGIN);
        Instant to = measuredSeconds == 0 ? end : end.minus(STOP_MARGIN);
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            switch (event.getEventType().getName()) {
                case "jdk.GCHeapSummary" -> {
                    if ("After GC".equals(event.getString("when"))) {
                        long minute = Duration.between(start, event.getStartTime()).toMinutes();
                        long[] sum = heapByMinute.computeIfAbsent(minute, m -> new long[2]);
                        sum[0] += event.getLong("heapUsed");
                        sum[1]++;
                    }
                }
                case "jdk.GCPhasePause" -> {
                    if (within(event, from, to)) {
                        pauses++;
                        if (event.getDuration().compareTo(LONGEST_PAUSE) > 0) {
                            longPauses++;
                        }
                        if (event.getDuration().compareTo(longest) > 0) {
                            longest = event.getDuration();
                        }
                    }
                }
                case "jdk.ObjectAllocationSample" -> {
                    String thread = event.getThread("eventThread") == null ? "?"
                        : event.getThread("eventThread").getJavaName();
                    allocationByThread.merge(thread, event.getLong("weight"), Long::sum);
                    if (within(event, from, to)) {
                        measuredAllocationByThread.merge(thread, event.getLong("weight"), Long::sum);
                    }
                }
                default -> { }
            }
        }
        double minutes = Math.max(1, Duration.between(from, to).toSeconds() / 60.0);
        line("recording: %.1f minutes; measured window %s to %s (%.1f minutes)",
            Duration.between(start, end).toSeconds() / 60.0, from, to, Duration.between(from, to).toSeconds() / 60.0);
        StringBuilder heap = new StringBuilder("heap after GC by minute (MB):");
        heapByMinute.forEach((minute, sum) -> heap.append(String.format(Locale.ROOT, " %d:%.0f", minute,
            sum[0] / (double) sum[1] / (1 << 20))));
        line("%s", heapByMinute.isEmpty() ? "heap after GC: no collection in the recording" : heap);
        if (heapByMinute.size() >= 3) {
            // The first minute holds start-up (recovery, class loading): the second is the baseline.
            List<long[]> values = new ArrayList<>(heapByMinute.values());
            double baseline = values.get(1)[0] / (double) values.get(1)[1];
            double last = values.get(values.size() - 1)[0] / (double) values.get(values.size() - 1)[1];
            if (last > baseline * (1 + HEAP_GROWTH) && last - baseline > HEAP_SLACK_BYTES) {
                failures.add(String.format(Locale.ROOT, "heap after GC grew from %.0f MB to %.0f MB", baseline / (1 << 20),
                    last / (1 << 20)));
            }
        }
        line("GC pauses in the measured window: %d, longest %.3f ms, %d over %d ms", pauses, longest.toNanos() / 1e6,
            longPauses, LONGEST_PAUSE.toMillis());
        if (longPauses > 0) {
            failures.add(longPauses + " GC pauses over " + LONGEST_PAUSE.toMillis() + " ms (longest "
                + longest.toNanos() / 1e6 + " ms)");
        }
        line("allocation by thread (sampled, MB: whole recording / measured window):");
        allocationByThread.forEach((thread, bytes) -> line("  %10.2f %10.2f  %s", bytes / 1e6,
            measuredAllocationByThread.getOrDefault(thread, 0L) / 1e6, thread));
        measuredAllocationByThread.forEach((thread, bytes) -> {
            if ((thread.startsWith("gateway") || thread.equals("matching"))
                && bytes / minutes > ALLOCATION_PER_MINUTE) {
                failures.add(String.format(Locale.ROOT, "%s allocated %.2f MB a minute", thread,
                    bytes / minutes / 1e6));
            }
        });
    }

    private static boolean within(RecordedEvent event, Instant from, Instant to) {
        return !event.getStartTime().isBefore(from) && !event.getStartTime().isAfter(to);
    }

    private void verdict() {
        line("soak: %s", failures.isEmpty() ? "PASS" : "FAIL");
        failures.forEach(failure -> line("  %s", failure));
    }

    private void line(String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
