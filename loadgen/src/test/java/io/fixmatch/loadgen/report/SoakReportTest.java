package io.fixmatch.loadgen.report;

import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soak's checks, the short version of the soak in CI: a real Flight Recorder recording of this JVM in which a
 * thread named like the server's gateway thread allocates (caught) and another thread allocates (not the server's
 * concern), and hand-written load summaries with flat and drifting percentiles and errors.
 */
class SoakReportTest {
    @TempDir
    Path folder;

    @Test
    void allocationOnAGatewayThreadFailsAndOnOtherThreadsDoesNot() throws Exception {
        Path recording = record("gateway-0", "some-worker");
        SoakReport report = SoakReport.judge(Json.parse(summary(100, 100, 0)), recording);
        assertTrue(report.failures().stream().anyMatch(f -> f.startsWith("gateway-0 allocated")), report.text());
        assertFalse(report.failures().stream().anyMatch(f -> f.startsWith("some-worker")), report.text());
        assertTrue(report.text().contains("allocation by thread"), report.text());
    }

    @Test
    void percentilesThatDriftAndErrorsFail() throws Exception {
        Path recording = record("idle-a", "idle-b");
        SoakReport flat = SoakReport.judge(Json.parse(summary(100, 140, 0)), recording);
        assertFalse(flat.failures().stream().anyMatch(f -> f.contains("drifted") || f.contains("errors")),
            flat.text());
        SoakReport drifting = SoakReport.judge(Json.parse(summary(100, 160, 0)), recording);
        assertTrue(drifting.failures().stream().anyMatch(f -> f.contains("new_ack p99 drifted")), drifting.text());
        SoakReport errors = SoakReport.judge(Json.parse(summary(100, 100, 2)), recording);
        assertTrue(errors.failures().stream().anyMatch(f -> f.startsWith("2 errors")), errors.text());
    }

    @Test
    void noRecordingFails() throws Exception {
        SoakReport report = SoakReport.judge(Json.parse(summary(1, 1, 0)), folder.resolve("missing.jfr"));
        assertTrue(report.failures().stream().anyMatch(f -> f.startsWith("no recording")), report.text());
    }

    /** Records this JVM while a thread of each name allocates about 64 MB (the first) or nothing much (others). */
    private Path record(String allocating, String quiet) throws IOException, InterruptedException {
        Path file = folder.resolve(allocating + ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ObjectAllocationSample").with("throttle", "10000/s");
            recording.enable("jdk.GCHeapSummary");
            recording.enable("jdk.GCPhasePause");
            recording.start();
            List<Thread> threads = new ArrayList<>();
            threads.add(new Thread(() -> allocate(64 << 20), allocating));
            threads.add(new Thread(() -> allocate(1024), quiet));
            threads.forEach(Thread::start);
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(30).toMillis());
            }
            recording.stop();
            recording.dump(file);
        }
        return file;
    }

    private static volatile Object sink;

    private static void allocate(long bytes) {
        for (long done = 0; done < bytes; done += 4096) {
            sink = new byte[4096];
        }
    }

    /** A summary.json of two one-minute runs of probe new_ack with these p99s, and the error count. */
    private static String summary(double firstP99, double lastP99, int errors) {
        return """
            {"verdict": "PASS", "achieved_rate": 45000.0, "target_rate": 45000, "errors": %d, "error_details": [],
             "probes": {"new_ack": {"runs": [
               {"p50_us": 50.0, "p99_us": %s, "worst_us": 900.0},
               {"p50_us": 51.0, "p99_us": %s, "worst_us": 950.0}]}}}
            """.formatted(errors, firstP99, lastP99);
    }
}
