package io.fixmatch.loadgen.report;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A short text summary of a Flight Recorder recording, for the profile report: GC pauses, allocation by class and
 * by thread (from allocation samples, weighted), and the hottest methods (top frames of execution samples).
 *
 * <pre>usage: JfrSummary RECORDING.jfr</pre>
 */
public final class JfrSummary {
    private static final int TOP = 15;

    private JfrSummary() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: JfrSummary RECORDING.jfr");
            System.exit(2);
        }
        System.out.print(summarize(Path.of(args[0])));
    }

    static String summarize(Path recording) throws IOException {
        long pauses = 0;
        Duration longestPause = Duration.ZERO;
        Duration totalPause = Duration.ZERO;
        Map<String, Long> allocationByClass = new HashMap<>();
        Map<String, Long> allocationByThread = new HashMap<>();
        Map<String, Long> hotMethods = new HashMap<>();
        long executionSamples = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            switch (event.getEventType().getName()) {
                case "jdk.GCPhasePause" -> {
                    pauses++;
                    totalPause = totalPause.plus(event.getDuration());
                    if (event.getDuration().compareTo(longestPause) > 0) {
                        longestPause = event.getDuration();
                    }
                }
                case "jdk.ObjectAllocationSample" -> {
                    long weight = event.getLong("weight");
                    allocationByClass.merge(event.getClass("objectClass").getName(), weight, Long::sum);
                    allocationByThread.merge(threadName(event), weight, Long::sum);
                }
                case "jdk.ExecutionSample" -> {
                    executionSamples++;
                    RecordedStackTrace stack = event.getStackTrace();
                    if (stack != null && !stack.getFrames().isEmpty()) {
                        RecordedFrame top = stack.getFrames().get(0);
                        hotMethods.merge(top.getMethod().getType().getName() + "." + top.getMethod().getName(), 1L,
                            Long::sum);
                    }
                }
                default -> { }
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("recording: ").append(recording).append('\n');
        out.append(String.format("GC pauses: %d, longest %.3f ms, total %.3f ms%n", pauses,
            longestPause.toNanos() / 1e6, totalPause.toNanos() / 1e6));
        out.append("allocation by thread (sampled, MB):\n");
        top(allocationByThread, out, 1e-6);
        out.append("allocation by class (sampled, MB):\n");
        top(allocationByClass, out, 1e-6);
        out.append("hot methods (share of ").append(executionSamples).append(" execution samples, %):\n");
        top(hotMethods, out, executionSamples == 0 ? 0 : 100.0 / executionSamples);
        return out.toString();
    }

    private static String threadName(RecordedEvent event) {
        return event.getThread("eventThread") == null ? "?" : event.getThread("eventThread").getJavaName();
    }

    private static void top(Map<String, Long> values, StringBuilder out, double scale) {
        List<Map.Entry<String, Long>> sorted = values.entrySet().stream()
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(TOP).toList();
        if (sorted.isEmpty()) {
            out.append("  (none)\n");
        }
        for (Map.Entry<String, Long> entry : sorted) {
            out.append(String.format("  %10.2f  %s%n", entry.getValue() * scale, entry.getKey()));
        }
    }
}
