package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.loadgen.LoadgenMain;
import io.fixmatch.loadgen.report.Json;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.ServerProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load generator started before its server is ready (issue 21: a script that starts both at once, a run right
 * after a restart): it says it waits, retries the connection and the Logon until {@code --timeout}, and runs once
 * the server answers; with no server at all it ends at the timeout with exit 1, the reason on its output and in
 * summary.json, and no stack trace. The load generator runs as a process of its own, as scripts/loadgen.sh runs it.
 */
class LoadgenWaitsForTheServerTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aLoadRunStartedBeforeTheServerWaitsForItAndRuns() throws Exception {
        int port = TestServers.freePort();
        Path out = dir.resolve("report");
        try (ServerProcesses processes = new ServerProcesses(dir)) {
            Process loadgen = processes.startMain(LoadgenMain.class.getName(), Map.of(), "--port",
                Integer.toString(port), "--rate", "300", "--duration", "1", "--warmup", "0", "--timeout", "180",
                "--out", out.toString());
            processes.awaitOutput(loadgen, "waiting for the server at 127.0.0.1:" + port);
            try (FixmatchServer server = TestServers.start(dir.resolve("data"), port, Map.of())) {
                int exit = processes.awaitExit(loadgen);
                String output = processes.output(loadgen);
                // A 1-second run on a busy machine may be judged FAIL (3) or INVALID (4); errors (1) fail the test.
                assertTrue(Set.of(0, 3, 4).contains(exit), "exit " + exit + ": " + output);
                assertTrue(output.contains("logged on to 127.0.0.1:" + port), output);
                assertFalse(output.contains("\tat "), "no stack trace: " + output);
                assertEquals(0, Json.read(out.resolve("summary.json")).get("errors").asLong());
                assertTrue(server.port() == port);
            }
        }
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void withNoServerItGivesUpAtTheTimeoutWithTheReasonAndNoStackTrace() throws Exception {
        int port = TestServers.freePort();
        Path out = dir.resolve("report");
        try (ServerProcesses processes = new ServerProcesses(dir)) {
            long started = System.nanoTime();
            Process loadgen = processes.startMain(LoadgenMain.class.getName(), Map.of(), "--port",
                Integer.toString(port), "--timeout", "3", "--out", out.toString());
            assertEquals(1, processes.awaitExit(loadgen), processes.output(loadgen));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            String output = processes.output(loadgen);
            assertTrue(output.contains("waiting for the server at 127.0.0.1:" + port), output);
            assertTrue(output.contains("no fixmatch server answered at 127.0.0.1:" + port + " within 3 s"), output);
            assertFalse(output.contains("\tat ") || output.contains("Exception"), "no stack trace: " + output);
            assertTrue(tookMs >= 3000, "it retried until the timeout: " + tookMs + " ms");

            JsonNode summary = Json.read(out.resolve("summary.json"));
            assertEquals("FAIL", summary.get("verdict").asText());
            assertTrue(summary.get("reasons").get(0).asText().contains("no fixmatch server answered"),
                summary.toString());
        }
    }
}
