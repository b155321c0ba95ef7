package io.fixmatch.it;

import io.fixmatch.server.ServerProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM at any moment of the start (issue 21: `docker compose stop` or a supervisor's restart while the server
 * starts): real server processes, signalled at growing delays after their first log line (locking the folder,
 * opening the journal, recovering), after recovery, and while serving a client. Each stops with exit status 0, and
 * the next start on the same folder recovers the same books: the folder is left as a clean stop leaves it.
 */
class StopDuringStartTest {
    private static final Pattern RECOVERED = Pattern.compile("recovered: (\\d+ resting orders in \\d+ books)");
    /** When the SIGTERMs come: after the first log line, in shares of the time the start takes from it. */
    private static final double[] SHARES_OF_THE_START = {0, 0.1, 0.3, 0.5, 0.7, 0.85, 0.95, 1.05};

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void sigtermAtAnyMomentOfTheStartExitsZeroAndTheNextStartRecoversTheSameBooks() throws Exception {
        Path config = dir.resolve("server.properties");
        Files.writeString(config, "data.dir=" + dir.resolve("data") + "\nfix.port=0\nadmin.port=0\n"
            + "engine.maxOrders=10000\nengine.maxPriceLevels=1000\n");
        try (ServerProcesses processes = new ServerProcesses(dir)) {
            String books = seed(processes, config);
            long startMs = timeToReady(processes, config);
            List<String> phases = new ArrayList<>();
            for (double share : SHARES_OF_THE_START) {
                long delay = Math.round(share * startMs);
                Process server = processes.start("--config", config.toString());
                processes.awaitOutput(server, "starting: FIX");
                Thread.sleep(delay);
                server.destroy(); // SIGTERM
                assertEquals(0, processes.awaitExit(server), "SIGTERM " + delay + " ms after the first line: "
                    + processes.output(server));
                phases.add(phase(processes.output(server)));
                assertEquals(books, restartAndStop(processes, config), "after SIGTERM at " + delay + " ms");
            }
            Process serving = processes.start("--config", config.toString());
            int port = processes.awaitReady(serving);
            RawFixClient client = RawFixClient.loggedOn(port, "CLIENT2", 30);
            serving.destroy();
            assertEquals(0, processes.awaitExit(serving), processes.output(serving));
            assertTrue(processes.output(serving).contains("SIGTERM: stopping"), processes.output(serving));
            client.close();
            assertEquals(books, restartAndStop(processes, config), "after SIGTERM while serving");
            System.out.println("StopDuringStartTest: a start takes " + startMs + " ms from its first line; the SIGTERMs "
                + "landed " + phases);
            assertTrue(phases.contains("before recovery"), "one SIGTERM landed before recovery: " + phases);
        }
    }

    /** Three resting orders, entered through a served session; the books as the next start recovers them. */
    private String seed(ServerProcesses processes, Path config) throws Exception {
        Process server = processes.start("--config", config.toString());
        int port = processes.awaitReady(server);
        RawFixClient client = RawFixClient.loggedOn(port, "CLIENT1", 30);
        client.send(client.newOrder("B1", "AAPL", "1", 10, "100.00"));
        client.send(client.newOrder("B2", "AAPL", "1", 20, "99.00"));
        client.send(client.newOrder("S1", "MSFT", "2", 30, "300.00"));
        for (int i = 0; i < 3; i++) {
            assertEquals("0", client.expect("8").get(150));
        }
        client.close();
        assertEquals(0, processes.stop(server), processes.output(server));
        String books = restartAndStop(processes, config);
        assertEquals("3 resting orders in 2 books", books);
        return books;
    }

    /** How long a start takes from its first log line to ready, in ms. */
    private static long timeToReady(ServerProcesses processes, Path config) throws Exception {
        Process server = processes.start("--config", config.toString());
        processes.awaitOutput(server, "starting: FIX");
        long firstLine = System.nanoTime();
        processes.awaitOutput(server, "fixmatch ready");
        long startMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - firstLine);
        assertEquals(0, processes.stop(server), processes.output(server));
        return startMs;
    }

    /** Starts on the same folder until ready (the lock free, the journal readable), stops it; the books recovered. */
    private static String restartAndStop(ServerProcesses processes, Path config) throws Exception {
        Process server = processes.start("--config", config.toString());
        processes.awaitReady(server);
        String output = processes.output(server);
        assertEquals(0, processes.stop(server), processes.output(server));
        Matcher recovered = RECOVERED.matcher(output);
        assertTrue(recovered.find(), output);
        return recovered.group(1);
    }

    /** How far the start had come when the signal stopped it. */
    private static String phase(String output) {
        assertFalse(output.contains("\tat "), "no stack trace: " + output);
        if (output.contains("fixmatch ready")) {
            return "serving";
        }
        return output.contains("recovered: ") ? "after recovery" : "before recovery";
    }
}
