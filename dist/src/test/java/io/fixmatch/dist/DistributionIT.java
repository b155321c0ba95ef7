package io.fixmatch.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fixmatch.cluster.testing.LoopbackMembers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The distribution as ops get it: built by {@code scripts/dist.sh} in a fresh clone, unpacked into an empty folder,
 * run with a JDK alone. The server starts from bin/ with the archive's config file (an edit there applies at the next
 * start), reports ready (its log line, {@code GET /health} 200), serves the demo and the terminal client, stops
 * cleanly on SIGTERM; the journal tools read what it journaled. And {@code mvn install} in that clone installs every
 * module, the parent pom and the archive.
 */
class DistributionIT {
    /** A server small enough for a test machine, through the documented overrides. */
    private static final Map<String, String> SMALL = Map.of("FIXMATCH_JAVA_OPTS", Processes.SMALL_JVM,
        "FIXMATCH_ENGINE_MAX_ORDERS", "10000", "FIXMATCH_ENGINE_MAX_PRICE_LEVELS", "10000");
    /** A FIX server's ready line: its port. */
    private static final String READY = "fixmatch ready: FIX 4.4 on 127.0.0.1:(\\d+)";

    /** The clean clone, its Maven repository, and the archive unpacked once for all tests (only the server test
     *  edits it: its config file). */
    @TempDir
    static Path built;
    private static Path clone;
    private static Path repository;
    private static Path home;

    @TempDir
    Path dir;

    /**
     * {@code scripts/dist.sh} in a fresh clone, with nothing built and no fixmatch artifact in its Maven repository
     * (a module that needed another's test classes, or a file left out of the commit, fails here), offline: the
     * dependencies are those this build already fetched. It prints the archive's path last.
     */
    @BeforeAll
    static void buildInACleanCloneAndUnpack() throws IOException, InterruptedException {
        clone = CleanClone.of(built.resolve("clone"));
        repository = CleanClone.localRepository(built.resolve("repository"));
        Path archive;
        try (Processes processes = new Processes(built)) {
            Process dist = processes.start(clone, Map.of(), "scripts/dist.sh", "-o",
                "-Dmaven.repo.local=" + repository);
            assertEquals(0, processes.exitStatus(dist, Duration.ofSeconds(900)), processes.output(dist));
            List<String> lines = processes.output(dist).lines().toList();
            archive = Path.of(lines.get(lines.size() - 1));
            assertEquals(clone.resolve("dist/target"), archive.getParent(), processes.output(dist));
            assertTrue(Files.isRegularFile(archive), processes.output(dist));
        }
        Path unpacked = Files.createDirectories(built.resolve("unpacked"));
        Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", unpacked.toString()).inheritIO()
            .start();
        assertTrue(tar.waitFor(Processes.WAIT.toMillis(), TimeUnit.MILLISECONDS) && tar.exitValue() == 0,
            "tar failed on " + archive);
        home = unpacked.resolve(archive.getFileName().toString().replace(".tar.gz", ""));
    }

    /**
     * In the clone dist.sh built (what it compiled is reused; the tests are this build's own, and CI compiles them from
     * a fresh clone), into the clone's own local repository, so no other build sees these snapshots. Online: the
     * install plugin is one this build's own verify never fetched.
     */
    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void mvnInstallInstallsEveryModuleTheParentPomAndTheArchive() throws Exception {
        Path log = built.resolve("install.log");
        Process maven = new ProcessBuilder("mvn", "-B", "-ntp", "-q", "-Dmaven.repo.local=" + repository,
            "-Dmaven.test.skip=true", "install").directory(clone.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        assertTrue(maven.waitFor(9, TimeUnit.MINUTES), "mvn install still running: " + Files.readString(log));
        assertEquals(0, maven.exitValue(), "mvn install failed: " + Files.readString(log));

        Path installed = repository.resolve("io/fixmatch");
        for (String module : List.of("fix-testing", "cluster-testing", "fix-codec", "engine", "journal", "cluster",
            "fix-gateway", "loadgen", "server", "client", "benchmarks")) {
            String artifact = "fixmatch-" + module;
            assertTrue(Files.isRegularFile(installed.resolve(artifact + "/0.1.0-SNAPSHOT/" + artifact
                + "-0.1.0-SNAPSHOT.jar")), artifact);
        }
        assertTrue(Files.isRegularFile(installed.resolve("fixmatch-dist/0.1.0-SNAPSHOT/"
            + "fixmatch-dist-0.1.0-SNAPSHOT.tar.gz")), "the distribution archive");
        assertTrue(Files.isRegularFile(installed.resolve("fixmatch-parent/0.1.0-SNAPSHOT/"
            + "fixmatch-parent-0.1.0-SNAPSHOT.pom")), "the parent pom");
    }

    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void theArchiveHoldsTheCommandsJarsConfigAndDocs() throws Exception {
        for (String command : List.of("fixmatch-server", "fixmatch-node", "fixmatch-gateway", "fixmatch-loadgen",
            "fixmatch-journal", "fixmatch-book-at", "fixmatch-md-listen")) {
            assertTrue(Files.isExecutable(home.resolve("bin").resolve(command)), command);
        }
        for (String file : List.of("bin/lib/runtime.sh", "config/fixmatch.properties", "config/logback.xml",
            "docs/CONFIG.md", "docs/OPERATIONS.md", "docs/FEED.md", "docs/fixmatch-feed.xml", "README.md")) {
            assertTrue(Files.isRegularFile(home.resolve(file)), file);
        }
        List<String> jars;
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            jars = lib.map(jar -> jar.getFileName().toString()).toList();
        }
        assertTrue(jars.stream().anyMatch(jar -> jar.startsWith("fixmatch-server-")), jars.toString());
        assertTrue(jars.stream().anyMatch(jar -> jar.startsWith("fixmatch-loadgen-")), jars.toString());
        assertTrue(jars.stream().anyMatch(jar -> jar.startsWith("fixmatch-feed-handler-")), jars.toString());
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
        int adminPort = Processes.freePort();
        try (Processes processes = new Processes(dir)) {
            Process server = processes.start(work, SMALL, home.resolve("bin/fixmatch-server").toString(),
                "--port", "0", "--admin-port", Integer.toString(adminPort));
            int port = Integer.parseInt(processes.await(server, "fixmatch ready: FIX 4.4 on 127.0.0.1:(\\d+)"));
            assertEquals(200, health(adminPort), "GET /health once ready");
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

    /**
     * The replicated venue from the archive, as OPERATIONS.md runs it on one machine: three {@code bin/fixmatch-node}
     * and two {@code bin/fixmatch-gateway}, gateway 0 and {@code --gateway-id 1}, all of one configuration (the
     * archive's file; the members and gateway 0's ports, free ones, in the environment). Gateway 1 listens on gateway
     * 0's FIX port + 1 and admin port + 4, keeps its data beside gateway 0's ({@code data-1}), has cluster.gatewayId
     * 2, serves the demo's traders, and its {@code GET /cluster} lists both gateways. The gateways stop cleanly on
     * SIGTERM, then the nodes on the leader's {@code POST /shutdown}.
     */
    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void twoGatewaysOfAClusterRunFromTheArchiveEachByItsNumber() throws Exception {
        Path work = Files.createDirectories(dir.resolve("venue"));
        int fixPort = Processes.freePortWithOneAbove(1);
        int adminPort = Processes.freePortWithOneAbove(4);
        Path aeron = Path.of("/dev/shm").toFile().isDirectory()
            ? Path.of("/dev/shm", "fixmatch-dist-" + UUID.randomUUID()) : work.resolve("aeron");
        Map<String, String> environment = new HashMap<>(SMALL);
        environment.putAll(Map.of("FIXMATCH_CLUSTER_MEMBERS", LoopbackMembers.free(3),
            "FIXMATCH_CLUSTER_AERON_DIR", aeron.toString(), "FIXMATCH_FIX_PORT", Integer.toString(fixPort),
            "FIXMATCH_ADMIN_PORT", Integer.toString(adminPort)));
        try (Processes processes = new Processes(dir)) {
            List<Process> nodes = new ArrayList<>();
            for (int id = 0; id < 3; id++) {
                nodes.add(processes.start(work, environment, home.resolve("bin/fixmatch-node").toString(), "--node",
                    Integer.toString(id), "--data", "node-" + id));
            }
            for (int id = 0; id < 3; id++) {
                processes.await(nodes.get(id), "fixmatch node " + id + " ready");
            }
            Process gateway0 = processes.start(work, environment, home.resolve("bin/fixmatch-gateway").toString());
            Process gateway1 = processes.start(work, environment, home.resolve("bin/fixmatch-gateway").toString(),
                "--gateway-id", "1");
            assertEquals(fixPort, Integer.parseInt(processes.await(gateway0, READY)), processes.output(gateway0));
            assertEquals(fixPort + 1, Integer.parseInt(processes.await(gateway1, READY)), processes.output(gateway1));
            String started = processes.output(gateway1);
            assertTrue(started.contains(", admin 127.0.0.1:" + (adminPort + 4) + ", ") && started.contains(", data "
                + work.resolve("data-1") + ", ") && started.contains("cluster.gatewayId=2 (--gateway-id 1)"), started);
            assertTrue(Files.isDirectory(work.resolve("data")) && Files.isDirectory(work.resolve("data-1")),
                "each gateway's own folder");

            Process demo = processes.start(Processes.REPOSITORY, Map.of(), "scripts/demo.sh", "--port",
                Integer.toString(fixPort + 1));
            assertEquals(0, processes.exitStatus(demo), processes.output(demo));
            assertTrue(processes.output(demo).contains("CLIENT2  order 1 TRADE: bought 100 @ 150.1"),
                processes.output(demo));

            JsonNode cluster = awaitTwoGateways(adminPort + 4);
            Map<Integer, String> gateways = new TreeMap<>();
            cluster.get("gateways").forEach(gateway -> gateways.put(gateway.get("id").asInt(),
                gateway.get("fixPort").asInt() + " " + gateway.get("adminPort").asInt()));
            assertEquals(Map.of(1, fixPort + " " + adminPort, 2, (fixPort + 1) + " " + (adminPort + 4)), gateways,
                cluster.toString());
            assertEquals(2, cluster.get("gateway").get("id").asInt(), cluster.toString());

            for (Process gateway : List.of(gateway1, gateway0)) {
                gateway.destroy(); // SIGTERM
                assertEquals(0, processes.exitStatus(gateway), processes.output(gateway));
            }
            int leaderAdmin = -1;
            for (JsonNode member : cluster.get("members")) {
                if (member.get("id").asInt() == cluster.get("leader").asInt()) {
                    leaderAdmin = member.get("adminPort").asInt();
                }
            }
            HttpResponse<Void> shutdown = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + leaderAdmin + "/shutdown")).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            assertEquals(202, shutdown.statusCode(), "the leader's POST /shutdown: " + cluster);
            for (Process node : nodes) {
                assertEquals(0, processes.exitStatus(node), processes.output(node));
            }
        } finally {
            deleteTree(aeron);
        }
    }

    /** Gateway 1's GET /cluster once the cluster knows both gateways (each says hello as it starts). */
    private static JsonNode awaitTwoGateways(int adminPort) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Processes.WAIT.toNanos();
        JsonNode cluster = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + adminPort + "/cluster")).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
            cluster = new ObjectMapper().readTree(response.body());
            if (response.statusCode() == 200 && cluster.get("gateways").size() == 2) {
                return cluster;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("GET /cluster lists not both gateways within " + Processes.WAIT + ": " + cluster);
    }

    private static void deleteTree(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    /** GET /health on the admin port: its status code. */
    private static int health(int adminPort) throws IOException, InterruptedException {
        HttpResponse<Void> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + adminPort + "/health")).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.discarding());
        return response.statusCode();
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
