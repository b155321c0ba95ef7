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

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped recorded flow (loadgen/src/main/resources/flows/sample-journal.jsonl, a journal dump of two sessions
 * trading three symbols: crossing orders, replaces, IOC and market orders, cancels, orders of both sessions under
 * one ClOrdID, and records that cannot be replayed) replayed at its recorded pacing through the loadgen's one session against a fresh server. Every request
 * must be answered and none refused: the sessions' colliding ClOrdIDs and the cancels and replaces of replaced orders
 * are mapped right, and each pass leaves the books as it found them.
 */
class FlowReplayTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theShippedFlowReplaysAgainstAFreshServerWithoutErrorsOrRefusals() throws Exception {
        Path flow = Path.of("..", "loadgen", "src", "main", "resources", "flows", "sample-journal.jsonl");
        Path out = dir.resolve("out");
        int exit;
        try (FixmatchServer server = FixmatchServer.start(ServerConfig.embedded().withPort(0)
            .withAdmin(AdminSettings.off())
            .withDataDirectory(dir.resolve("data")))) {
            exit = LoadgenMain.run(LoadgenOptions.parse(new String[] {"--flow", flow.toString(), "--duration", "2",
                "--warmup", "1", "--runs", "1", "--floor-duration", "1", "--port", Integer.toString(server.port()),
                "--out", out.toString()}));
        }
        assertTrue(Set.of(LoadgenMain.EXIT_OK, LoadgenMain.EXIT_THRESHOLD, LoadgenMain.EXIT_INVALID).contains(exit),
            "errors in the replay (exit " + exit + "): see its output");
        JsonNode summary = Json.read(out.resolve("summary.json"));
        assertEquals(0, summary.get("errors").asLong(), summary.get("error_details").toString());
        assertEquals(0, summary.at("/error_details/refused").asLong(), "a refused request: a mapping went wrong");
        JsonNode recorded = summary.get("flow");
        assertEquals(84, recorded.get("requests").asInt(), recorded.toString());
        assertEquals(1, recorded.at("/skipped/CANCEL of an order placed before the recording").asLong());
        assertEquals(1, recorded.at("/skipped/not a client request: ORDER_STATUS").asLong());
        assertEquals(1, recorded.at("/skipped/not a client request: CANCEL_ALL_FOR_OWNER").asLong());
        // Recorded pacing: 84 requests over 76.8 ms, about 1,080/s; two measured seconds.
        long measured = summary.at("/probes/end_to_end/count").asLong();
        assertTrue(measured > 1500 && measured < 2600, "measured " + measured);
        for (String probe : new String[] {"new_ack", "cancel", "replace"}) {
            assertTrue(summary.at("/probes/" + probe + "/count").asLong() > 0, probe);
        }
    }
}
