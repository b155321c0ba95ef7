package io.fixmatch.it;

import io.fixmatch.cluster.node.ClusterNode;
import io.fixmatch.cluster.testing.LoopbackMembers;
import io.fixmatch.server.AdminSettings;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.NodeMain;
import io.fixmatch.server.ServerConfig;
import io.fixmatch.server.admin.NodeAdminServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * In-process servers for the integration tests: the embedded configuration, on 127.0.0.1, data in a temp folder, the
 * admin endpoint off; standalone, or in the cluster-mode run the gateway of three embedded nodes ({@link BothModes}).
 */
public final class TestServers {
    private TestServers() {
    }

    /** The embedded defaults with some keys overridden. */
    public static ServerConfig config(Path dataDirectory, int port, Map<String, String> overrides) {
        Properties properties = new Properties();
        try (InputStream in = TestServers.class.getClassLoader().getResourceAsStream(ServerConfig.EMBEDDED)) {
            if (in == null) {
                throw new IllegalStateException(ServerConfig.EMBEDDED + " missing from the test classpath");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        properties.setProperty("fix.host", "127.0.0.1");
        // No admin endpoint unless a test asks for one (AdminEndpointTest): servers of parallel builds share 9880.
        properties.setProperty("admin.port", "0");
        // Nor a fixed retransmission port for the binary feed (its stream goes to a loopback port nobody reads).
        properties.setProperty("marketData.feed.retransmitPort", "0");
        // Smaller books than production: quicker to allocate, still far more than the tests use.
        properties.setProperty("engine.maxOrders", "10000");
        properties.setProperty("engine.maxPriceLevels", "10000");
        if (overrides.containsKey("sessions")) { // per-session keys of the defaults' sessions would be unknown keys
            List<String> listed = List.of(overrides.get("sessions").split(","));
            properties.stringPropertyNames().stream()
                .filter(key -> key.startsWith("session.") && !listed.contains(key.split("\\.")[1]))
                .forEach(properties::remove);
        }
        properties.putAll(overrides);
        return ServerConfig.from(properties).withPort(port).withDataDirectory(dataDirectory);
    }

    static FixmatchServer start(Path dataDirectory) throws InterruptedException {
        return start(dataDirectory, 0, Map.of());
    }

    public static FixmatchServer start(Path dataDirectory, int port, Map<String, String> overrides)
        throws InterruptedException {
        return start(dataDirectory, port, overrides, UnaryOperator.identity());
    }

    /**
     * A server in the mode of this run ({@link #clusterMode}), its configuration changed by {@code server} (an admin
     * endpoint, say): standalone on {@code dataDirectory}, or a cluster's gateway (see {@link #startInCluster}). A
     * second start on the same folder is a restart on the same disks, in either mode.
     */
    public static FixmatchServer start(Path dataDirectory, int port, Map<String, String> overrides,
                                       UnaryOperator<ServerConfig> server) throws InterruptedException {
        if (clusterMode()) {
            return startInCluster(dataDirectory, port, overrides, server);
        }
        return FixmatchServer.start(server.apply(config(dataDirectory, port, overrides)));
    }

    /** The admin endpoint on a free port, guarded by {@code token} (null: none): for {@link #start}. */
    public static UnaryOperator<ServerConfig> admin(String token) {
        return config -> config.withAdmin(new AdminSettings("127.0.0.1", AdminSettings.ANY_FREE_PORT, token));
    }

    /** Set to {@value #CLUSTER}, the whole-server tests run on a cluster (surefire's cluster-mode execution). */
    static final String MODE_PROPERTY = "fixmatch.test.mode";
    static final String CLUSTER = "cluster";

    /** Whether this run puts the engine on a cluster ({@link BothModes} tests in the cluster-mode execution). */
    public static boolean clusterMode() {
        return CLUSTER.equals(System.getProperty(MODE_PROPERTY));
    }

    /**
     * The data folder of the server started on {@code dataDirectory} (its sessions' stores): that folder, or in
     * cluster mode its gateway's.
     */
    public static Path serverFolder(Path dataDirectory) {
        return clusterMode() ? dataDirectory.resolve("gateway") : dataDirectory;
    }

    /**
     * The data folder holding the engine's journal (standalone format) for a server started on {@code dataDirectory}:
     * that folder, or in cluster mode node 0's (every node journals the same records, a follower as it applies them).
     */
    public static Path engineFolder(Path dataDirectory) {
        return clusterMode() ? nodeFolder(dataDirectory, 0) : dataDirectory;
    }

    /** The members of the cluster whose nodes run on a folder: the same again when they restart on their disks. */
    private static final Map<Path, String> MEMBERS = new ConcurrentHashMap<>();

    /**
     * The same test against the replicated venue: three real nodes in this JVM (each its own media driver, archive
     * and consensus module on loopback, and its admin endpoint; {@code node-N} under {@code dataDirectory}), and the
     * server as their gateway ({@code gateway}); the nodes stop with the server. Started again on the same folder,
     * the nodes come back on their disks with the same members. A gateway process has one gateway thread
     * ({@code gateway.threads}, like {@code server.layout}, is the standalone process's threading): more gateways are
     * more processes (ClusterTwoGatewaysTest).
     */
    public static FixmatchServer startInCluster(Path dataDirectory, int port, Map<String, String> overrides,
                                                UnaryOperator<ServerConfig> gateway)
        throws InterruptedException {
        Map<String, String> cluster = clusterOverrides(dataDirectory, overrides);
        // The gateway's FIX port listens from the start, as a standalone server's does: a client reconnecting while
        // the nodes start waits in its backlog instead of being refused.
        FixmatchServer server = FixmatchServer.create(gateway.apply(config(serverFolder(dataDirectory), port,
            cluster)));
        List<AutoCloseable> nodes = new ArrayList<>();
        try {
            launchNodes(dataDirectory, cluster, nodes);
            server.open();
        } catch (RuntimeException | InterruptedException e) {
            server.close();
            closeQuietly(nodes.toArray(new AutoCloseable[0]));
            throw e;
        }
        nodes.forEach(server::closeAfterwards);
        return server;
    }

    /**
     * The three embedded nodes of {@link #startInCluster} alone, for a test that starts and stops gateways of its own
     * ({@link #startGateway}) while they run; closing the result stops them.
     */
    public static AutoCloseable startNodes(Path dataDirectory, Map<String, String> overrides) {
        List<AutoCloseable> nodes = new ArrayList<>();
        try {
            launchNodes(dataDirectory, clusterOverrides(dataDirectory, overrides), nodes);
        } catch (RuntimeException e) {
            closeQuietly(nodes.toArray(new AutoCloseable[0]));
            throw e;
        }
        return () -> closeQuietly(nodes.toArray(new AutoCloseable[0]));
    }

    /**
     * Gateway {@code gatewayId} of the nodes {@link #startNodes} started on {@code dataDirectory}, serving
     * {@code sessions}, on its own folder ({@code gateway-<id>}): started again with the same id, it is that gateway
     * restarted on its disk.
     */
    public static FixmatchServer startGateway(Path dataDirectory, int gatewayId, List<String> sessions,
                                              Map<String, String> overrides, UnaryOperator<ServerConfig> gateway)
        throws InterruptedException {
        Map<String, String> cluster = clusterOverrides(dataDirectory, overrides);
        cluster.put("cluster.gatewayId", Integer.toString(gatewayId));
        cluster.put("cluster.gatewaySessions", String.join(",", sessions));
        return FixmatchServer.start(gateway.apply(config(dataDirectory.resolve("gateway-" + gatewayId), 0,
            cluster)));
    }

    /** The keys that make a gateway or node of the cluster whose nodes run on {@code dataDirectory}. */
    private static Map<String, String> clusterOverrides(Path dataDirectory, Map<String, String> overrides) {
        Map<String, String> cluster = new HashMap<>(overrides);
        cluster.put("server.mode", "cluster");
        cluster.put("gateway.threads", "1");
        cluster.put("cluster.members", MEMBERS.computeIfAbsent(dataDirectory.toAbsolutePath().normalize(),
            folder -> LoopbackMembers.free(NODES)));
        return cluster;
    }

    /** Launches the nodes, each with its admin endpoint, into {@code nodes} (in the order to close them). */
    private static void launchNodes(Path dataDirectory, Map<String, String> cluster, List<AutoCloseable> nodes) {
        Map<String, String> node = new HashMap<>(cluster);
        for (int id = 0; id < NODES; id++) {
            node.put("cluster.nodeId", Integer.toString(id));
            ServerConfig config = config(nodeFolder(dataDirectory, id), 0, node);
            ClusterNode clusterNode = ClusterNode.launch(NodeMain.nodeSettings(config));
            nodes.add(0, clusterNode); // closed in reverse: each node's admin endpoint before the node
            nodes.add(0, NodeAdminServer.start("127.0.0.1", config.cluster().members().get(id).adminPort(), null,
                clusterNode, config.engine().symbols()));
        }
    }

    /** The nodes of a cluster started by {@link #startInCluster}. */
    static final int NODES = 3;

    /** A node's data folder under the folder its cluster was started on. */
    static Path nodeFolder(Path dataDirectory, int id) {
        return dataDirectory.resolve("node-" + id);
    }

    /** A UDP port free on loopback a moment ago (the binary feed's retransmission service, say). */
    public static int freeUdpPort() throws IOException {
        try (java.net.DatagramSocket socket = new java.net.DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** A loopback port free now, for a test that must know its server's port before the server runs. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Closes whatever is not null, never throwing: for cleanup paths. */
    public static void closeQuietly(AutoCloseable... closeables) {
        for (AutoCloseable closeable : closeables) {
            if (closeable == null) {
                continue;
            }
            try {
                closeable.close();
            } catch (Exception e) {
                System.err.println("cleanup: " + e);
            }
        }
    }
}
