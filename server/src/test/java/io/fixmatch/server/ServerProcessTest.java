package io.fixmatch.server;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server as ops run it: a separate process started through its main. SIGTERM stops it cleanly with exit
 * status 0; a taken port or an unreadable journal stop it at once with a clear message and status 1; bad
 * arguments or configuration with one line and status 2. Flags beat environment variables, which beat the file.
 */
class ServerProcessTest {
    @TempDir
    Path dir;

    private ServerProcesses processes;

    @AfterEach
    void killLeftovers() throws InterruptedException {
        if (processes != null) {
            processes.close();
        }
    }

    private ServerProcesses processes() {
        if (processes == null) {
            processes = new ServerProcesses(dir);
        }
        return processes;
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aTakenPortStopsTheStartWithStatusOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Process server = processes().start("--config", config("fix.port=" + taken.getLocalPort()).toString());
            assertEquals(1, processes().awaitExit(server), processes().output(server));
            String output = processes().output(server);
            assertTrue(output.contains("cannot start") && output.contains(":" + taken.getLocalPort()), output);
            assertFalse(output.contains("\tat "), "no stack trace: " + output);
        }
    }

    /**
     * Start-up order (issue #14): the port is bound before recovery touches the data folder, so a taken port stops
     * the start with nothing read or written there: no journal, no session store, no snapshot.
     */
    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aTakenPortStopsTheStartBeforeRecoveryTouchesTheDataFolder() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Process server = processes().start("--config", config("fix.port=" + taken.getLocalPort()).toString());
            assertEquals(1, processes().awaitExit(server), processes().output(server));
            String output = processes().output(server);
            assertFalse(output.contains("recovered"), output);
        }
        Path data = dir.resolve("data");
        assertFalse(Files.exists(data.resolve("journal")), "no journal opened");
        assertFalse(Files.exists(data.resolve("sessions")), "no session store opened");
    }

    /**
     * One server per data folder (issue #14): a second server on the same folder (on another port) exits at once
     * with status 1, naming the folder and the first one's pid; the first keeps running; after it stops (even
     * killed) the folder is free again.
     */
    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aSecondServerOnTheSameDataFolderExitsNamingTheFolderAndTheHolder() throws Exception {
        Path config = config("fix.port=0");
        Process first = processes().start("--config", config.toString());
        processes().awaitReady(first);
        Process second = processes().start("--config", config.toString());
        assertEquals(1, processes().awaitExit(second), processes().output(second));
        String output = processes().output(second);
        assertTrue(output.contains("the data folder " + dir.resolve("data").toAbsolutePath() + " is in use")
            && output.contains("pid " + first.pid()), output);
        assertFalse(output.contains("recovered"), "it touched nothing: " + output);
        assertTrue(first.isAlive(), processes().output(first));

        first.destroyForcibly(); // kill -9: the kernel releases the lock
        first.waitFor(WaitBounds.PROCESS.toMillis(), TimeUnit.MILLISECONDS);
        Process third = processes().start("--config", config.toString());
        processes().awaitReady(third);
        assertEquals(0, processes().stop(third), processes().output(third));
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aBadConfigurationStopsTheStartWithOneLineAndStatusTwo() throws Exception {
        Path config = config("fix.port=not-a-number");
        Process server = processes().start("--config", config.toString());
        assertEquals(2, processes().awaitExit(server), processes().output(server));
        assertEquals("fixmatch-server: bad configuration: fix.port must be a whole number, was not-a-number (in "
            + config + ")\n", processes().output(server));

        Path typo = config("fix.prot=9999");
        Process mistyped = processes().start("--config", typo.toString());
        assertEquals(2, processes().awaitExit(mistyped), processes().output(mistyped));
        assertEquals("fixmatch-server: bad configuration: unknown key fix.prot in " + typo
            + " (did you mean fix.port?)\n", processes().output(mistyped));
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aMistypedFlagIsNamedWithTheFlagMeantAndStatusTwo() throws Exception {
        Process server = processes().start("--prot", "9999");
        assertEquals(2, processes().awaitExit(server), processes().output(server));
        String output = processes().output(server);
        assertTrue(output.startsWith("fixmatch-server: Unknown options: '--prot', '9999' (did you mean --port?)"),
            output);
        assertEquals(1, output.lines().count(), output);
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void flagsBeatTheEnvironmentWhichBeatsTheFileTheStartLineSaysWhoSetWhatAndSigtermStopsWithStatusZero()
        throws Exception {
        Path data = dir.resolve("flagged-data");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Process server = processes().start(Map.of("FIXMATCH_FIX_PORT", Integer.toString(taken.getLocalPort()),
                    "FIXMATCH_ENGINE_MAX_ORDERS", "5000"), "--config", config("fix.port=1").toString(),
                "--port", "0", "--data", data.toString(), "--admin-port", "0");
            int port = processes().awaitReady(server);
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
                assertTrue(client.isConnected());
            }
            String output = processes().output(server);
            assertTrue(output.contains("starting: FIX 127.0.0.1:0 as FIXMATCH, admin off, sessions "
                + "CLIENT1,CLIENT2,LOADGEN, 10 symbols AAPL,MSFT,GOOG,AMZN,NVDA,META,TSLA,JPM,V,XOM, data " + data
                + ", logs " + data.resolve("logs") + ", config " + dir.resolve("server.properties") + "; set: "
                + "fix.port=0 (--port), engine.maxOrders=5000 (FIXMATCH_ENGINE_MAX_ORDERS), engine.maxPriceLevels=1000"
                + " (" + dir.resolve("server.properties") + "), data.dir=" + data + " (--data), admin.port=0"
                + " (--admin-port)"), output);
            assertEquals(0, processes().stop(server), processes().output(server)); // SIGTERM: a clean stop
            assertTrue(processes().output(server).contains("stopped: "), processes().output(server));
        }
        assertTrue(Files.isDirectory(data.resolve("journal")), "the journal is where --data says");
        assertFalse(Files.exists(dir.resolve("data")), "not where the file says");
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void anUnreadableJournalStopsTheStartWithStatusOne() throws Exception {
        Path journal = dir.resolve("data").resolve("journal");
        Files.createDirectories(journal);
        Files.writeString(journal.resolve("20261123F.cq4"), "this is not a chronicle queue file");
        Process server = processes().start("--config", config("fix.port=0").toString());
        assertEquals(1, processes().awaitExit(server), processes().output(server));
        assertTrue(processes().output(server).contains("cannot start: unreadable journal"),
            processes().output(server));
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void helpListsTheOptionsDefaultsAndExitCodes() throws Exception {
        Process server = processes().start("--help");
        assertEquals(0, processes().awaitExit(server), processes().output(server));
        String output = processes().output(server);
        for (String expected : new String[] {"--config=FILE", "--port=PORT", "--data=DIR", "--admin-port=PORT",
            "127.0.0.1:9878", "Exit status:", "0   stopped cleanly", "1   cannot start",
            "2   bad arguments or configuration"}) {
            assertTrue(output.contains(expected), expected + " in " + output);
        }
    }

    private Path config(String extra) throws IOException {
        Path config = dir.resolve("server.properties");
        Files.writeString(config, "data.dir=" + dir.resolve("data") + "\n" + extra + "\nengine.maxOrders=10000\n"
            + "engine.maxPriceLevels=1000\nadmin.port=0\n");
        return config;
    }
}
