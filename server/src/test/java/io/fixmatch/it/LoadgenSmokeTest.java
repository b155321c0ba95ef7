package io.fixmatch.it;

import io.fixmatch.loadgen.LoadgenMain;
import io.fixmatch.loadgen.LoadgenOptions;
import io.fixmatch.loadgen.report.Json;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short JLBH report CI runs: the real load generator against a real server over loopback, a few seconds at a
 * rate this 2-core machine sustains beside the build. It fails on any error (a missing, unexpected or rejected
 * response) and on a grossly breached sanity ceiling, never on noise; the JLBH table is in the test output.
 */
class LoadgenSmokeTest {
    /** Far above any healthy run here, far below a broken one (a lost response waits for the 10 s timeout). */
    private static final double SANITY_P99_MICROS = 250_000;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    @SuppressWarnings("unchecked")
    void aShortRunAgainstTheServerHasNoErrorsAndWritesTheReport() throws Exception {
        Path out = Path.of("target", "loadgen-ci");
        try (FixmatchServer server = FixmatchServer.start(ServerConfig.embedded().withPort(0)
            .withDataDirectory(dir.resolve("data")))) {
            LoadgenOptions options = LoadgenOptions.parse(new String[] {
                "--rate", "2000", "--duration", "4", "--warmup", "2", "--runs", "2", "--port",
                Integer.toString(server.port()), "--out", out.toString(), "--threshold",
                "end_to_end.p99=" + SANITY_P99_MICROS});
            assertEquals(LoadgenMain.EXIT_OK, LoadgenMain.run(options), "the load run failed: see its output");
        }

        Map<String, Object> summary = (Map<String, Object>) Json.parse(Files.readString(out.resolve("summary.json")));
        assertEquals(2000.0, summary.get("target_rate"));
        assertEquals(0.0, summary.get("errors"));
        assertTrue((Double) summary.get("achieved_rate") > 1000, "achieved rate " + summary.get("achieved_rate"));
        Map<String, Object> probes = (Map<String, Object>) summary.get("probes");
        for (String probe : List.of("new_ack", "cancel", "fill", "replace", "end_to_end", "loopback_echo")) {
            Map<String, Object> stats = (Map<String, Object>) probes.get(probe);
            assertTrue((Double) stats.get("count") > 0, probe + " has no samples");
            for (String key : List.of("p50_us", "p90_us", "p99_us", "p999_us", "p9999_us", "worst_us")) {
                assertTrue((Double) stats.get(key) > 0, probe + "." + key);
            }
            assertTrue((Double) stats.get("p50_us") <= (Double) stats.get("worst_us"), probe);
        }
        assertEquals(8000.0, ((Map<String, Object>) probes.get("end_to_end")).get("count"));
        assertTrue(Files.size(out.resolve("percentiles.html")) > 1000);
        assertTrue(Files.readString(out.resolve("new_ack.hlog")).contains("#[Histogram log format version"));
    }
}
