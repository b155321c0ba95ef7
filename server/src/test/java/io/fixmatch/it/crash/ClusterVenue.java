package io.fixmatch.it.crash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fixmatch.cluster.node.ClusterMember;
import io.fixmatch.cluster.node.ClusterMembers;
import io.fixmatch.cluster.testing.LoopbackMembers;
import io.fixmatch.server.ConfigKeys;
import io.fixmatch.server.NodeMain;
import io.fixmatch.server.ServerProcesses;
import io.fixmatch.server.WaitBounds;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The replicated venue as ops run it, for the whole-server tests of cluster mode: three {@code fixmatch-node}
 * processes and gateway processes ({@code fixmatch-server --mode cluster}), each on a data folder of its own that
 * outlives it, on loopback; killed with SIGKILL, frozen with SIGSTOP, started again.
 */
final class ClusterVenue implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A node's admin endpoint answers in a few ms; a loaded 2-core machine can take far longer. */
    private static final Duration ASK_TIMEOUT = WaitBounds.ANSWER;

    private final Path directory;
    private final ServerProcesses processes;
    private final ClusterMembers members;
    private final Path config;
    /** The configuration's lines every venue has ({@link #configure}'s lines follow them). */
    private final List<String> baseLines;
    /** The media drivers' folders (on tmpfs where there is one), deleted at the end with what killed nodes left. */
    private final Path aeron;
    private final Process[] nodes;
    private final List<Gateway> gateways = new ArrayList<>();
    /** The nodes' data folders mounted as disks of their own ({@link #mountNodeDisks}), unmounted at the end. */
    private final List<Path> mounted = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(ASK_TIMEOUT).build();

    /** One gateway process of the venue: its id, FIX and admin ports, data folder. */
    final class Gateway {
        final int id;
        final int fixPort;
        final int adminPort;
        final Path data;
        final List<String> sessions;
        /** Keys of this gateway alone, as environment variables (its binary feed's channels, say). */
        final Map<String, String> keys = new java.util.HashMap<>();
        Process process;

        Gateway(int id, List<String> sessions) throws IOException {
            this.id = id;
            this.sessions = sessions;
            this.fixPort = freePort();
            this.adminPort = freePort();
            this.data = directory.resolve("gateway-" + id);
        }

        void start() throws IOException, InterruptedException {
            launch();
            awaitReady();
        }

        void awaitReady() throws IOException, InterruptedException {
            processes.awaitReady(process, WaitBounds.CLUSTER);
        }

        /** Starts the process; {@link #start} also waits until it is ready. */
        void launch() throws IOException {
            Map<String, String> environment = new java.util.HashMap<>();
            keys.forEach((key, value) -> environment.put(ConfigKeys.environmentName(key), value));
            environment.put(ConfigKeys.environmentName("cluster.gatewayId"), Integer.toString(id));
            if (!sessions.isEmpty()) {
                environment.put(ConfigKeys.environmentName("cluster.gatewaySessions"), String.join(",", sessions));
            }
            process = processes.start(environment, "--config", config.toString(), "--mode", "cluster", "--data",
                data.toString(), "--port", Integer.toString(fixPort), "--admin-port", Integer.toString(adminPort));
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(WaitBounds.PROCESS.toMillis(), TimeUnit.MILLISECONDS);
        }

        int stop() throws IOException, InterruptedException {
            return processes.stop(process);
        }

        /** SIGSTOP or SIGCONT: the gateway frozen (a long pause, a partition) and thawed. */
        void signal(String signal) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
            if (kill.waitFor() != 0) {
                throw new AssertionError("kill -" + signal + " " + process.pid() + " failed");
            }
        }

        /** This gateway's {@code GET /sessions}, as JSON. */
        JsonNode sessions() throws IOException, InterruptedException {
            return json("/sessions");
        }

        /** This gateway's {@code GET /cluster}, as JSON. */
        JsonNode cluster() throws IOException, InterruptedException {
            return json("/cluster");
        }

        /** This gateway's {@code GET /feed} (its binary market data feed), as JSON. */
        JsonNode feed() throws IOException, InterruptedException {
            return json("/feed");
        }

        /**
         * POSTs to this gateway's admin endpoint (an operator's action, {@code /symbols/AAPL/halt} say: answered once
         * the cluster applied it); the status.
         */
        int post(String path) throws IOException, InterruptedException {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + path))
                .timeout(ASK_TIMEOUT).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
        }

        private JsonNode json(String path) throws IOException, InterruptedException {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + adminPort + path)).timeout(ASK_TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(response.body());
        }

        /** The status of this gateway's {@code /health}: 200 while ready and a leader answers, else 503. */
        int health() throws IOException, InterruptedException {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/health"))
                .timeout(ASK_TIMEOUT).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }

    /** @param extraLines further lines of the configuration every process reads (a later line wins) */
    ClusterVenue(Path directory, int nodeCount, List<String> sessions, List<String> symbols, List<String> extraLines)
        throws IOException {
        this.directory = directory;
        Files.createDirectories(directory);
        this.processes = new ServerProcesses(directory);
        this.members = ClusterMembers.parse(LoopbackMembers.free(nodeCount));
        this.nodes = new Process[nodeCount];
        this.config = directory.resolve("venue.properties");
        this.aeron = Path.of("/dev/shm").toFile().isDirectory()
            ? Path.of("/dev/shm", "fixmatch-test-" + java.util.UUID.randomUUID()) : directory.resolve("aeron");
        this.baseLines = List.of(
            "server.mode=cluster",
            "fix.host=127.0.0.1",
            "sessions=" + String.join(",", sessions),
            "symbols=" + String.join(",", symbols),
            "engine.maxOrders=200000",
            "engine.maxPriceLevels=10000",
            "cluster.name=test",
            "cluster.members=" + members,
            "cluster.aeronDir=" + aeron,
            // the gateways' binary feeds: no fixed retransmission port (test runs side by side)
            "marketData.feed.retransmitPort=0");
        configure(extraLines);
    }

    /**
     * Writes the configuration every process reads at its start again, with these further lines (a later line wins)
     * in place of the last ones: for the processes started from now on.
     */
    void configure(List<String> extraLines) throws IOException {
        List<String> lines = new ArrayList<>(baseLines);
        lines.addAll(extraLines);
        Files.writeString(config, String.join("\n", lines) + "\n");
    }

    /**
     * The folder a cluster test runs in: its temporary folder, or with {@code CLUSTER_TEST_KEEP=DIR} a new folder there
     * that outlives the run (the processes' outputs, logs and data folders, for a look after a failure).
     */
    static Path testFolder(Path temporary) throws IOException {
        String keep = System.getenv("CLUSTER_TEST_KEEP");
        return keep == null ? temporary : Files.createDirectories(Path.of(keep, "run-" + System.nanoTime()));
    }

    Path config() {
        return config;
    }

    ClusterMembers members() {
        return members;
    }

    Path nodeData(int id) {
        return directory.resolve("node-" + id);
    }

    /**
     * Whether this process can give each node a disk of its own: a tmpfs mounted on its data folder needs root on
     * Linux (as on the CI machine); elsewhere the full-disk test is skipped, saying why.
     */
    static boolean canMountDisks() {
        return "root".equals(System.getProperty("user.name")) && Path.of("/proc/mounts").toFile().canRead();
    }

    /**
     * Before the nodes start: mounts a tmpfs of this size on each node's data folder, so that one node's disk can be
     * filled without touching the others'.
     */
    void mountNodeDisks(int megabytes) throws IOException, InterruptedException {
        for (int id = 0; id < nodes.length; id++) {
            Path data = Files.createDirectories(nodeData(id));
            run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", data.toString());
            mounted.add(data);
        }
    }

    /**
     * Fills a node's disk (a mounted one) with a file until less than {@code leaveMegabytes} are free; returns it,
     * to delete when the disk should have room again.
     */
    Path fillDisk(int id, int leaveMegabytes) throws IOException {
        Path filler = nodeData(id).resolve("filler");
        byte[] chunk = new byte[1 << 20];
        try (java.io.OutputStream out = Files.newOutputStream(filler)) {
            while (nodeData(id).toFile().getUsableSpace() > (long) leaveMegabytes << 20) {
                out.write(chunk);
            }
        }
        return filler;
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!process.waitFor(WaitBounds.PROCESS.toMillis(), TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }

    /** Starts every node and waits until each is ready (its service up, a leader known). */
    void startNodes() throws IOException, InterruptedException {
        startNodes(java.util.stream.IntStream.range(0, nodes.length).toArray());
    }

    /** Starts these nodes on their data folders, side by side, and waits until each is ready. */
    void startNodes(int... ids) throws IOException, InterruptedException {
        for (int id : ids) {
            launchNode(id);
        }
        for (int id : ids) {
            awaitNodeReady(id);
        }
    }

    /** Starts these gateways side by side and waits until each is ready. */
    void startGateways(Gateway... started) throws IOException, InterruptedException {
        for (Gateway gateway : started) {
            gateway.launch();
        }
        for (Gateway gateway : started) {
            gateway.awaitReady();
        }
    }

    /** Starts one node on its data folder (kept from before, or emptied by the test) and waits for it. */
    void startNode(int id) throws IOException, InterruptedException {
        launchNode(id);
        awaitNodeReady(id);
    }

    /** Starts one node on its data folder without waiting for it ({@link #awaitNodeReady} does). */
    void launchNode(int id) throws IOException {
        launchNode(id, new String[0]);
    }

    /**
     * Starts one node on its emptied data folder with {@code --from-snapshot} (it first copies the cluster's newest
     * snapshot and the log after it) and waits for it.
     */
    void startNodeFromSnapshot(int id) throws IOException, InterruptedException {
        launchNode(id, "--from-snapshot");
        awaitNodeReady(id);
    }

    private void launchNode(int id, String... extraArguments) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("--config", config.toString(), "--node",
            Integer.toString(id), "--data", nodeData(id).toString()));
        arguments.addAll(List.of(extraArguments));
        nodes[id] = processes.startMain(NodeMain.class.getName(), Map.of(), arguments.toArray(String[]::new));
    }

    /**
     * Starts a node on its data folder with these lines added to the venue's configuration (a later line wins), as
     * ops might by mistake; does not wait for it.
     */
    Process launchNodeWith(int id, List<String> extraLines) throws IOException {
        Path changed = directory.resolve("node-" + id + "-" + System.nanoTime() + ".properties");
        Files.writeString(changed, Files.readString(config) + String.join("\n", extraLines) + "\n");
        return processes.startMain(NodeMain.class.getName(), Map.of(), "--config", changed.toString(), "--node",
            Integer.toString(id), "--data", nodeData(id).toString());
    }

    /**
     * Waits for the node's ready line; failing, says where every other node stood too (a leader whose election never
     * closes waits on its followers: their output tells why).
     */
    void awaitNodeReady(int id) throws IOException, InterruptedException {
        try {
            processes.awaitOutput(nodes[id], "fixmatch node " + id + " ready", WaitBounds.CLUSTER);
        } catch (AssertionError e) {
            StringBuilder others = new StringBuilder(e.getMessage());
            for (int other = 0; other < nodes.length; other++) {
                if (other != id && nodes[other] != null) {
                    others.append("\nnode ").append(other).append(nodes[other].isAlive() ? " (running)" : " (ended)")
                        .append(":\n").append(OutputTail.of(output(nodes[other]), 40));
                }
            }
            throw new AssertionError(others.toString(), e);
        }
    }

    /** A gateway serving these sessions (all configured ones if none are named). */
    Gateway gateway(int id, List<String> sessions) throws IOException {
        Gateway gateway = new Gateway(id, sessions);
        gateways.add(gateway);
        return gateway;
    }

    /** The FIX sessions the cluster gave to another gateway so far, as {@code gateway}'s {@code /cluster} says. */
    long sessionTakeovers(Gateway gateway) throws IOException, InterruptedException {
        return gateway.cluster().path("sessionTakeovers").asLong(-1);
    }

    /** The gateways made so far, in the order they were made. */
    List<Gateway> gateways() {
        return gateways;
    }

    Process node(int id) {
        return nodes[id];
    }

    /** SIGKILL: the node dies on the spot, its files as they were. */
    void kill(int id) throws InterruptedException {
        nodes[id].destroyForcibly();
        if (!nodes[id].waitFor(WaitBounds.PROCESS.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("node " + id + " did not die within " + WaitBounds.PROCESS + " of SIGKILL");
        }
    }

    /** SIGTERM: the node stops cleanly; its exit status. */
    int stop(int id) throws IOException, InterruptedException {
        return processes.stop(nodes[id]);
    }

    /** SIGTERM to every running node at once, then waits until each has stopped (as {@link #stop}). */
    void stopNodes() throws IOException, InterruptedException {
        for (Process node : nodes) {
            if (node != null && node.isAlive()) {
                node.destroy();
            }
        }
        for (Process node : nodes) {
            if (node != null) {
                processes.awaitExit(node);
            }
        }
    }

    /** SIGSTOP or SIGCONT: a node frozen (a long GC pause, a partition) and thawed. */
    void signal(int id, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(nodes[id].pid())).start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + signal + " " + nodes[id].pid() + " failed");
        }
    }

    /** The node that leads now, by the nodes' own word (their admin {@code /cluster}); -1 if none says so. */
    int leader() {
        return leader(-1);
    }

    /** As {@link #leader()}, not asking node {@code not} (frozen, say: it would not answer). */
    private int leader(int not) {
        for (int id = 0; id < nodes.length; id++) {
            if (id != not && nodes[id] != null && nodes[id].isAlive() && "LEADER".equals(describe(id).get("role"))) {
                return id;
            }
        }
        return -1;
    }

    /** Waits until a node other than {@code not} leads and the others follow it; returns it. */
    int awaitLeader(int not, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            int leader = leader(not);
            if (leader >= 0) {
                return leader;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        throw new AssertionError("no leader but " + not + " within " + timeout);
    }

    /** What a node's admin endpoint says of it ({@code /cluster}); empty if it does not answer. */
    @SuppressWarnings("unchecked")
    Map<String, Object> describe(int id) {
        ClusterMember member = members.get(id);
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://" + member.host()
                + ":" + member.adminPort() + "/cluster")).timeout(ASK_TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? JSON.readValue(response.body(), Map.class) : Map.of();
        } catch (IOException e) {
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    /** A node's own book of the symbol, as its admin endpoint shows it ({@code /book/SYMBOL}: the top 10 levels). */
    JsonNode book(int id, String symbol) throws IOException, InterruptedException {
        ClusterMember member = members.get(id);
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://" + member.host() + ":"
            + member.adminPort() + "/book/" + symbol)).timeout(ASK_TIMEOUT).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("node " + id + " answered /book/" + symbol + " with " + response.statusCode()
                + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** The processes of the venue (and of the tools a test runs on its folders). */
    ServerProcesses processes() {
        return processes;
    }

    /** Asks the leader for a snapshot of every node; true if it took the request. */
    boolean requestSnapshot() throws IOException, InterruptedException {
        return askLeader("/snapshot");
    }

    /** Asks the leader for the cluster's clean stop (every node snapshots, then exits 0); true if it took it. */
    boolean requestShutdown() throws IOException, InterruptedException {
        return askLeader("/shutdown");
    }

    /** POSTs to the leader (again while another action is under way); true once it took the request. */
    private boolean askLeader(String path) throws IOException, InterruptedException {
        for (int attempt = 0; attempt < 10; attempt++) {
            ClusterMember member = members.get(awaitLeader(-1, WaitBounds.CLUSTER));
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://" + member.host()
                + ":" + member.adminPort() + path)).timeout(ASK_TIMEOUT).POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 202) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(200); // a retry after a refusal, not a wait for a condition
        }
        return false;
    }

    /** Waits until every running node has applied the same number of commands (the log committed everywhere). */
    void awaitNodesCaughtUp(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Object> commands = new ArrayList<>();
            for (int id = 0; id < nodes.length; id++) {
                if (nodes[id] != null && nodes[id].isAlive()) {
                    commands.add(describe(id).get("commands"));
                }
            }
            if (commands.stream().distinct().count() == 1 && commands.get(0) != null) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("nodes still apart after " + timeout + ": commands " + commands);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    String output(Process process) throws IOException {
        return process == null ? "" : processes.output(process);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        processes.close();
        for (Path disk : mounted) {
            try {
                run("umount", "--lazy", disk.toString());
            } catch (IOException e) {
                System.err.println("cannot unmount " + disk + ": " + e.getMessage());
            }
        }
        // A killed node leaves its media driver's folder: the venue's, under the test's folder, goes with it.
        try {
            deleteTree(aeron);
        } catch (IOException ignored) {
            // nothing there
        }
    }

    /** Deletes a folder and everything in it (a node's disk lost, say). */
    static void deleteTree(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
