package io.fixmatch.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The distribution as ops get it: the archive unpacked into an empty folder, run with a JDK alone. The server
 * starts from bin/ with the archive's config file (an edit there applies at the next start), serves the demo and
 * the terminal client, stops cleanly on SIGTERM; the journal tools read what it journaled.
 */
class DistributionIT {
    /** A server small enough for a test machine, through the documented overrides. */
    private static final Map<String, String> SMALL = Map.of("FIXMATCH_JAVA_OPTS", "-Xms256m -Xmx256m",
        "FIXMATCH_ENGINE_MAX_ORDERS", "10000", "FIXMATCH_ENGINE_MAX_PRICE_LEVELS", "10000");

    /** The archive unpacked once for all tests (only the server test edits it: its config file). */
    @TempDir
    static Path unpacked;
    private static Path home;

    @TempDir
    Path dir;

    @BeforeAll
    static void unpack() throws IOException, InterruptedException {
        Path archive = Path.of(System.getProperty("fixmatch.archive"));
        Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", unpacked.toString()).inheritIO()
            .start();
        assertTrue(tar.waitFor(Processes.WAIT.toMillis(), TimeUnit.MILLISECONDS) && tar.exitValue() == 0,
            "tar failed on " + archive);
        home = unpacked.resolve(archive.getFileName().toString().replace(".tar.gz", ""));
    }

    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void theArchiveHoldsTheCommandsJarsConfigAndDocs() throws Exception {
        for (String command : List.of("fixmatch-server", "fixmatch-loadgen", "fixmatch-journal", "fixmatch-book-at")) {
            assertTrue(Files.isExecutable(home.resolve("bin").resolve(command)), command);
        }
        for (String file : List.of("bin/lib/runtime.sh", "config/fixmatch.properties", "config/logback.xml",
            "docs/CONFIG.md", "docs/OPERATIONS.md", "README.md")) {
            assertTrue(Files.isRegularFile(home.resolve(file)), file);
        }
        List<String> jars;
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            jars = lib.map(jar -> jar.getFileName().toString()).toList();
        }
        assertTrue(jars.stream().anyMatch(jar -> jar.startsWith("fixmatch-server-")), jars.toString());
        assertTrue(jars.stream().anyMatch(jar -> jar.startsWith("fixmatch-loadgen-")), jars.toString());
        assertFalse(jars.stream().anyMatch(jar -> jar.startsWith("quickfixj") || jar.startsWith("chronicle-analytics")
            || jar.startsWith("async-profiler")), "no QuickFIX/J, analytics or profiler at run time: " + jars);

        String runtime = Files.readString(home.resolve("bin/lib/runtime.sh"));
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (flag.startsWith("--add-") || flag.startsWith("-Dchronicle")) { // the build's own chronicle.jvm.args
                assertTrue(runtime.contains("\n  " + flag + "\n"), flag + " missing from bin/lib/runtime.sh");
            }
        }
    }

    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void theServerRunsFromTheUnpackedArchiveServesClientsAndStopsCleanly() throws Exception {
        Path config = home.resolve("config/fixmatch.properties");
        Files.writeString(config, Files.readString(config).replace("symbols=AAPL,MSFT,GOOG,AMZN,NVDA,META,TSLA,JPM,V,"
            + "XOM", "symbols=AAPL,MSFT,GOOG"));
        Path work = Files.createDirectories(dir.resolve("work"));
        try (Processes processes = new Processes(dir)) {
            Process server = processes.start(work, SMALL, home.resolve("bin/fixmatch-server").toString(),
                "--port", "0", "--admin-port", "0");
            int port = Integer.parseInt(processes.await(server, "fixmatch ready: FIX 4.4 on 127.0.0.1:(\\d+)"));
            String output = processes.output(server);
            // The script exec'd the JVM, with the servers' JIT setting (bin/lib/runtime.sh): a Logon must not send
            // the compiled order path back to the interpreter (docs/PERFORMANCE.md, "Cost per order").
            List<String> jvmArguments = server.info().arguments().map(List::of).orElseThrow();
            assertTrue(jvmArguments.contains("-XX:PerMethodTrapLimit=0"), "JVM arguments: " + jvmArguments);
            assertTrue(output.contains(" 3 symbols AAPL,MSFT,GOOG, data " + work.resolve("data") + ", logs "
                + work.resolve("data/logs") + ", config " + config), "config read from the archive's file: " + output);
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                assertTrue(socket.isConnected());
            }

            Process demo = processes.start(Processes.REPOSITORY, Map.of(), "scripts/demo.sh", "--port",
                Integer.toString(port));
            assertEquals(0, processes.exitStatus(demo), processes.output(demo));
            assertFalse(processes.output(demo).contains("starting a server"), "uses the running one");
            assertTrue(processes.output(demo).contains("CLIENT2  order 1 TRADE: bought 100 @ 150.1"),
                processes.output(demo));

            Process client = processes.runWithInput("sell MSFT 10 300.50\nsell MSFT 5 300.55\ncancel 2\n", Map.of(),
                "scripts/client.sh", "--port", Integer.toString(port), "--sender", "CLIENT2");
            assertEquals(0, client.exitValue(), processes.output(client));
            assertTrue(processes.output(client).contains("order 2 CANCELED"), processes.output(client));

            server.destroy(); // SIGTERM
            assertEquals(0, processes.exitStatus(server), processes.output(server));
            assertTrue(processes.output(server).contains("stopped: "), processes.output(server));

            Process dump = processes.start(work, Map.of(), home.resolve("bin/fixmatch-journal").toString(), "--json");
            assertEquals(0, processes.exitStatus(dump), processes.output(dump));
            String journal = processes.output(dump);
            assertTrue(journal.contains("\"session\":\"CLIENT1\",\"symbol\":\"AAPL\",\"side\":\"SELL\",\"ordType\":"
                + "\"LIMIT\",\"tif\":\"DAY\",\"price\":\"150.10\",\"qty\":100"), journal);
            assertTrue(journal.contains("\"type\":\"CANCEL\",\"session\":\"CLIENT2\",\"symbol\":\"MSFT\""), journal);

            // the book now (a time after the last command), with the server's configuration and overrides
            Process book = processes.start(work, SMALL, home.resolve("bin/fixmatch-book-at").toString(), "MSFT",
                "--at", "2100-01-01T00:00:00Z");
            assertEquals(0, processes.exitStatus(book), processes.output(book));
            assertTrue(processes.output(book).contains("\nASKS  1 order, 1 price, 10 open\n"), processes.output(book));
            assertTrue(processes.output(book).matches("(?s).*\n  300.50      10  CLIENT2 .*"), processes.output(book));
        }
    }

    /** As docker compose stop or a supervisor's restart do while the server starts: exit 0, then it starts again. */
    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void sigtermDuringTheStartStopsCleanlyWithStatusZero() throws Exception {
        Path work = Files.createDirectories(dir.resolve("stopped-while-starting"));
        try (Processes processes = new Processes(dir)) {
            Process starting = processes.start(work, SMALL, home.resolve("bin/fixmatch-server").toString(),
                "--port", "0", "--admin-port", "0");
            processes.await(starting, "starting: FIX");
            starting.destroy(); // SIGTERM, to the JVM the script exec'd
            assertEquals(0, processes.exitStatus(starting), processes.output(starting));
            assertFalse(processes.output(starting).contains("fixmatch ready"), "stopped during the start: "
                + processes.output(starting));

            Process again = processes.start(work, SMALL, home.resolve("bin/fixmatch-server").toString(),
                "--port", "0", "--admin-port", "0");
            processes.await(again, "fixmatch ready");
            again.destroy();
            assertEquals(0, processes.exitStatus(again), processes.output(again));
        }
    }

    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void theLoadGeneratorAndTheJournalToolsRunFromTheArchive() throws Exception {
        try (Processes processes = new Processes(dir)) {
            Process loadgen = processes.start(dir, Map.of(), home.resolve("bin/fixmatch-loadgen").toString(), "--help");
            assertEquals(0, processes.exitStatus(loadgen), processes.output(loadgen));
            assertTrue(processes.output(loadgen).contains("--rate"), processes.output(loadgen));

            Process journal = processes.start(dir, Map.of(), home.resolve("bin/fixmatch-journal").toString(),
                dir.resolve("none").toString());
            assertEquals(1, processes.exitStatus(journal), processes.output(journal));
            assertEquals("fixmatch-journal: no journal at " + dir.resolve("none") + "\n", processes.output(journal));

            Process book = processes.start(dir, Map.of(), home.resolve("bin/fixmatch-book-at").toString(), "AAPL",
                "--at", "5", "--data", "none");
            assertEquals(1, processes.exitStatus(book), processes.output(book));
            assertEquals("fixmatch-book-at: no data folder at none\n", processes.output(book));
        }
    }
}
