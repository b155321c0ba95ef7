package io.fixmatch.it;

import io.fixmatch.cluster.LoopbackMembers;
import io.fixmatch.cluster.node.ClusterNode;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.NodeMain;
import io.fixmatch.server.admin.NodeAdminServer;
import io.fixmatch.server.ServerConfig;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * In-process servers for the integration tests: the embedded configuration, on 127.0.0.1, data in a temp folder, the
 * admin endpoint off.
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
        if (CLUSTER.equals(System.getProperty(MODE_PROPERTY))) {
            return startInCluster(dataDirectory, port, overrides);
        }
        return FixmatchServer.start(config(dataDirectory, port, overrides));
    }

    /** Set to {@value #CLUSTER}, the whole-server tests run on a cluster (surefire's cluster-mode execution). */
    static final String MODE_PROPERTY = "fixmatch.test.mode";
    static final String CLUSTER = "cluster";

    /**
     * The same test against the replicated venue: three real nodes in this JVM (each its own media driver, archive
     * and consensus module on loopback, and its admin endpoint), and the server as their gateway; the nodes stop with
     * the server.
     */
    private static FixmatchServer startInCluster(Path dataDirectory, int port, Map<String, String> overrides)
        throws InterruptedException {
        return startInCluster(dataDirectory, port, overrides, config -> config);
    }

    /** As above, the gateway's configuration changed by {@code gateway} (an admin endpoint, say). */
    public static FixmatchServer startInCluster(Path dataDirectory, int port, Map<String, String> overrides,
                                                java.util.function.UnaryOperator<ServerConfig> gateway)
        throws InterruptedException {
        Map<String, String> cluster = new java.util.HashMap<>(overrides);
        cluster.put("server.mode", "cluster");
        cluster.put("cluster.members", LoopbackMembers.free(3).toString());
        cluster.put("cluster.aeronDir", "/dev/shm/fixmatch-test-" + java.util.UUID.randomUUID());
        List<AutoCloseable> nodes = new java.util.ArrayList<>();
        for (int id = 0; id < 3; id++) {
            cluster.put("cluster.nodeId", Integer.toString(id));
            ServerConfig node = config(dataDirectory.resolve("node-" + id), 0, cluster);
            ClusterNode clusterNode = ClusterNode.launch(NodeMain.nodeSettings(node));
            nodes.add(clusterNode);
            nodes.add(NodeAdminServer.start("127.0.0.1", node.cluster().members().get(id).adminPort(), null,
                clusterNode, node.engine().symbols()));
        }
        cluster.remove("cluster.nodeId");
        FixmatchServer server;
        try {
            server = FixmatchServer.start(gateway.apply(config(dataDirectory.resolve("gateway"), port, cluster)));
        } catch (RuntimeException | InterruptedException e) {
            java.util.Collections.reverse(nodes);
            closeQuietly(nodes.toArray(new AutoCloseable[0]));
            throw e;
        }
        java.util.Collections.reverse(nodes); // each node's admin endpoint before the node
        nodes.forEach(server::closeAfterwards);
        return server;
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
