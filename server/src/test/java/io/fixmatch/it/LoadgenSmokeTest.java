package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.loadgen.LoadgenMain;
import io.fixmatch.loadgen.LoadgenOptions;
import io.fixmatch.loadgen.report.Json;
import io.fixmatch.server.AdminSettings;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short JLBH report CI runs: the real load generator against a real server over loopback, a few seconds at a
 * rate this 2-core machine sustains beside the build, floor phase first. It fails on any error (a missing,
 * unexpected or rejected response: exit 1) and on an incomplete or inconsistent report, never on latency: on a
 * loaded 2-core CI machine the generator may be late (INVALID, exit 4) or the gate breached (FAIL, exit 3) through
 * no fault of the server, so CI accepts those verdicts as long as the report states them with their reasons. The
 * verdicts' logic has its own tests in the loadgen module; the JLBH tables are in the test output.
 */
class LoadgenSmokeTest {
    private static final Map<Integer, String> VERDICT_OF_EXIT = Map.of(LoadgenMain.EXIT_OK, "PASS",
        LoadgenMain.EXIT_THRESHOLD, "FAIL", LoadgenMain.EXIT_INVALID, "INVALID");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aShortRunAgainstTheServerHasNoErrorsAndWritesTheReport() throws Exception {
        Path out = Path.of("target", "loadgen-ci");
        int exit;
        try (FixmatchServer server = FixmatchServer.start(ServerConfig.embedded().withPort(0)
            .withAdmin(AdminSettings.off())
            .withDataDirectory(dir.resolve("data")))) {
            LoadgenOptions options = LoadgenOptions.parse(new String[] {
                "--rate", "2000", "--duration", "2", "--warmup", "1", "--runs", "2", "--port",
                Integer.toString(server.port()), "--out", out.toString()});
            exit = LoadgenMain.run(options);
        }
        assertTrue(VERDICT_OF_EXIT.containsKey(exit), "the load run had errors (exit " + exit + "): see its output");

        JsonNode summary = Json.read(out.resolve("summary.json"));
        assertEquals(VERDICT_OF_EXIT.get(exit), summary.get("verdict").asText(), "verdict and exit status disagree");
        assertEquals(exit != LoadgenMain.EXIT_OK, summary.get("reasons").size() > 0,
            "a verdict other than PASS gives its reasons, PASS none: " + summary.get("reasons"));
        assertEquals(2000, summary.get("target_rate").asInt());
        assertEquals(0, summary.get("errors").asLong());
        assertTrue(summary.get("achieved_rate").asDouble() > 1000, "achieved rate " + summary.get("achieved_rate"));
        for (String key : List.of("started_at", "git_commit", "server_config", "send_lag", "floor", "generator_cpu",
            "settings", "machine", "error_details")) {
            assertTrue(summary.has(key), "summary.json lacks " + key);
        }
        JsonNode probes = summary.get("probes");
        for (String probe : List.of("new_ack", "cancel", "fill", "replace", "end_to_end", "loopback_echo")) {
            JsonNode stats = probes.get(probe);
            assertTrue(stats.get("count").asLong() > 0, probe + " has no samples");
            for (String key : List.of("p50_us", "p90_us", "p99_us", "p999_us", "p9999_us", "worst_us")) {
                assertTrue(stats.get(key).asDouble() > 0, probe + "." + key);
            }
            assertTrue(stats.get("p50_us").asDouble() <= stats.get("worst_us").asDouble(), probe);
        }
        assertEquals(4000, probes.get("end_to_end").get("count").asLong());
        // The session subscribed to market data: the X after each visible change is a sample of its own probe.
        assertTrue(summary.get("flow").get("market_data").get("subscribed").asBoolean(), summary.get("flow").toString());
        assertTrue(probes.get("md_update").get("count").asLong() > 1000, "md_update: " + probes.get("md_update"));
        assertEquals(4000, probes.get("loopback_echo").get("count").asLong(), "the floor sends the same stream");
        assertTrue(summary.get("floor").get("measured_alone").asBoolean());
        assertEquals(4000, summary.get("send_lag").get("server_phase").get("count").asLong());
        assertTrue(summary.get("generator_cpu").get("process_us_per_order").asDouble() > 0);
        String page = Files.readString(out.resolve("percentiles.html"));
        assertTrue(page.contains(summary.get("verdict").asText()) && page.contains(summary.get("git_commit").asText()));
        assertFalse(page.contains("99.900000000"), "readable percentile labels");
        assertTrue(Files.readString(out.resolve("new_ack.hlog")).contains("#[Histogram log format version"));
        assertTrue(Files.readString(out.resolve("send_lag.hlog")).contains("#[Histogram log format version"));
    }

    /**
     * {@code --feed}: the loadgen hears the binary market data feed with the reference handler and attributes every
     * level update to the request that made it (the seeded flow knows which levels each request changes): one
     * feed_update sample per request, no update left unexplained.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void withTheFeedEveryRequestsLevelUpdateIsASampleOfTheFeedProbe() throws Exception {
        Path out = Path.of("target", "loadgen-ci-feed");
        int stream = TestServers.freeUdpPort();
        int snapshots = TestServers.freeUdpPort();
        int retransmit = TestServers.freeUdpPort();
        int exit;
        try (FixmatchServer server = TestServers.start(dir.resolve("data"), 0,
            FeedBooks.overrides(retransmit, List.of(stream), List.of(snapshots)))) {
            exit = LoadgenMain.run(LoadgenOptions.parse(new String[] {
                "--rate", "2000", "--duration", "2", "--warmup", "1", "--runs", "2", "--port",
                Integer.toString(server.port()), "--out", out.toString(), "--feed-channel", "127.0.0.1:" + stream,
                "--feed-snapshot-channel", "127.0.0.1:" + snapshots, "--feed-retransmit", "127.0.0.1:" + retransmit}));
        }
        assertTrue(VERDICT_OF_EXIT.containsKey(exit), "the load run had errors (exit " + exit + "): see its output");
        JsonNode summary = Json.read(out.resolve("summary.json"));
        JsonNode feed = summary.get("flow").get("feed");
        assertTrue(feed.get("synced").asBoolean(), feed.toString());
        assertEquals(0, feed.get("unmatched_updates").asLong(), "every level update was a request's: " + feed);
        assertEquals(0, feed.get("unmeasured_requests").asLong(), feed.toString());
        JsonNode probe = summary.get("probes").get("feed_update");
        assertTrue(probe.get("count").asLong() > 3_500, "a sample per measured request (4,000): " + probe);
        assertTrue(probe.get("p50_us").asDouble() > 0 && probe.get("p50_us").asDouble() <= probe.get("worst_us")
            .asDouble(), probe.toString());
    }
}
