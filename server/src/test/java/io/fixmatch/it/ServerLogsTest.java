package io.fixmatch.it;

import io.fixmatch.server.ServerProcesses;
import io.fixmatch.server.WaitBounds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a server run leaves in its log file (data/logs/fixmatch.log by default), across restarts: the start line
 * with the settings, the recovery line with what was restored and replayed, the ready line.
 */
class ServerLogsTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void everyStartLogsItsSettingsAndWhatItRecoveredToTheConsoleAndTheLogFile() throws Exception {
        Path config = dir.resolve("server.properties");
        Files.writeString(config, "data.dir=" + dir.resolve("data") + "\nfix.port=0\nadmin.port=0\n"
            + "engine.maxOrders=10000\nengine.maxPriceLevels=1000\n");
        try (ServerProcesses processes = new ServerProcesses(dir)) {
            Process first = processes.start("--config", config.toString());
            try (QfjClient client = QfjClient.logOn("CLIENT1", processes.awaitReady(first),
                new QfjClient.Options().resetOnLogon(true))) {
                for (String[] order : new String[][] {{"a1", "AAPL"}, {"a2", "AAPL"}, {"m1", "MSFT"}}) {
                    client.send(Orders.limit(order[0], order[1], Orders.BUY, 10, "100.00"));
                    client.nextApp("8");
                }
            }
            assertTrue(processes.output(first).contains("recovered: 0 resting orders in 0 books, 0 commands replayed"),
                processes.output(first));
            first.destroyForcibly().waitFor(WaitBounds.PROCESS.toMillis(), TimeUnit.MILLISECONDS); // no snapshot

            Process second = processes.start("--config", config.toString());
            processes.awaitReady(second);
            assertTrue(processes.output(second).contains("recovered: 3 resting orders in 2 books, 3 commands"
                + " replayed"), "the whole journal replayed: " + processes.output(second));
            assertEquals(0, processes.stop(second), processes.output(second));

            // After a clean stop the stores are marked as holding every report: the stop's snapshot is used.
            Process third = processes.start("--config", config.toString());
            processes.awaitReady(third);
            assertTrue(processes.output(third).contains("recovered: 3 resting orders in 2 books, 0 commands"
                + " replayed"), "from the clean stop's snapshot: " + processes.output(third));
            assertEquals(0, processes.stop(third), processes.output(third));
        }

        String log = Files.readString(dir.resolve("data").resolve("logs").resolve("fixmatch.log"));
        assertEquals(3, count(log, "INFO  [main] io.fixmatch.server.ServerMain - fixmatch "), log);
        assertEquals(3, count(log, " starting: FIX 127.0.0.1:0 as FIXMATCH, admin off, sessions "
            + "CLIENT1,CLIENT2,LOADGEN, 10 symbols AAPL,MSFT,GOOG,AMZN,NVDA,META,TSLA,JPM,V,XOM, data "
            + dir.resolve("data") + ", logs " + dir.resolve("data").resolve("logs") + ", config " + config
            + "; set: fix.port=0 ("), log);
        assertEquals(3, count(log, "fixmatch ready: FIX 4.4 on 127.0.0.1:"), log);
        assertTrue(log.contains("recovered: 3 resting orders in 2 books, 3 commands replayed"), log);
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
