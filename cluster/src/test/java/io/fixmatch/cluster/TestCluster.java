package io.fixmatch.cluster;

import io.aeron.cluster.service.Cluster;
import io.fixmatch.cluster.client.ClusterEngineLink;
import io.fixmatch.cluster.client.LinkSettings;
import io.fixmatch.cluster.node.ClusterIdle;
import io.fixmatch.cluster.protocol.VenueFingerprint;
import io.fixmatch.cluster.node.ClusterMembers;
import io.fixmatch.cluster.node.ClusterNode;
import io.fixmatch.cluster.node.ClusterTimings;
import io.fixmatch.cluster.node.NodeSettings;
import io.fixmatch.cluster.node.OtherReleaseNode;
import io.fixmatch.cluster.service.OtherRelease;
import io.fixmatch.cluster.service.ServiceSettings;
import io.fixmatch.cluster.testing.LoopbackMembers;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.DropCopyRoutes;
import io.fixmatch.journal.JournalConfig;

import java.io.IOException;
import java.nio.file.Files;
import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.loop.TracedEventSink;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Real cluster nodes in this JVM (each with its own media driver, archive and consensus module, on loopback UDP) for
 * the cluster module's tests; the whole-server tests run them as processes.
 */
final class TestCluster implements AutoCloseable {
    /**
     * How long a test waits for the cluster (a leader, an answer, a snapshot) before it fails: a failure deadline,
     * not a sleep, sized for a busy 2-core machine, where an election can take far longer than on a quiet one.
     */
    static final Duration WAIT = Duration.ofSeconds(120);
    static final List<SymbolSpec> SYMBOLS = List.of(SymbolSpec.of("AAPL", 2, 1, 1), SymbolSpec.of("MSFT", 2, 1, 1));
    static final List<String> OWNERS = List.of("CLIENT1", "CLIENT2", "CLIENT3");

    private final Path root;
    private final ClusterMembers members;
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final ClusterNode[] nodes;

    TestCluster(Path root, int size) {
        this.root = root;
        this.members = ClusterMembers.parse(LoopbackMembers.free(size));
        this.nodes = new ClusterNode[size];
    }

    ClusterMembers members() {
        return members;
    }

    TestCluster startAll() {
        for (int i = 0; i < nodes.length; i++) {
            start(i);
        }
        return this;
    }

    ClusterNode start(int id) {
        nodes[id] = ClusterNode.launch(nodeSettings(id));
        return nodes[id];
    }

    /** Starts node {@code id} as a node of another release: its WELCOMEs say {@code protocolVersion}. */
    ClusterNode startWelcomingWith(int id, int protocolVersion) {
        NodeSettings settings = nodeSettings(id);
        nodes[id] = ClusterNode.launch(settings, OtherRelease.welcomingWith(settings.service(), protocolVersion));
        return nodes[id];
    }

    /** Starts node {@code id} with another release's Aeron appVersion (its leadership terms say that version). */
    ClusterNode startWithAppVersion(int id, int appVersion) {
        nodes[id] = OtherReleaseNode.launch(nodeSettings(id), appVersion);
        return nodes[id];
    }

    NodeSettings nodeSettings(int id) {
        Path data = root.resolve("node-" + id);
        ServiceSettings service = new ServiceSettings(new EngineConfig(SYMBOLS, 10_000, 1_000),
            JournalConfig.at(data.resolve("journal")), OWNERS, DropCopyRoutes.NONE, true, null,
            ServiceSettings.DEFAULT_MAX_GATEWAYS, 4 << 20, data.resolve("cluster-snapshots"));
        return new NodeSettings(id, members, "test", data, Path.of("/dev/shm", "fixmatch-test-" + run + "-node-" + id),
            ClusterTimings.defaults(), ClusterIdle.backoff(), 0, service);
    }

    ClusterNode node(int id) {
        return nodes[id];
    }

    void kill(int id) {
        nodes[id].close();
        nodes[id] = null;
    }

    /** Waits for a leader among the running nodes; returns its id. */
    int awaitLeader(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < nodes.length; i++) {
                if (nodes[i] != null && nodes[i].role() == Cluster.Role.LEADER && nodes[i].status().started()) {
                    return i;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no leader within " + timeoutMs + " ms");
    }

    LinkSettings linkSettings(int gatewayId, int... owners) {
        return new LinkSettings(gatewayId, owners, VenueFingerprint.of(SYMBOLS, OWNERS), members, "127.0.0.1",
            Path.of("/dev/shm", "fixmatch-test-" + run + "-gateway-" + gatewayId + "-" + UUID.randomUUID()),
            20_000, 500, 3_000, 1 << 20, ClusterIdle.backoff(), 2_000, 0, 0, 8192);
    }

    @Override
    public void close() {
        for (int i = 0; i < nodes.length; i++) {
            if (nodes[i] != null) {
                nodes[i].close();
                nodes[i] = null;
            }
        }
    }

    /**
     * A gateway's sessions logged on, as a Logon at it does (the cluster owns the sessions): each owner's claim
     * offered to the link's inbound ring, and the cluster's grants awaited in its outbound ring (events that come
     * meanwhile go to {@code events}).
     */
    static void claim(InboundCommandRing inbound, OutboundEventRing outbound, EventSink events, int... owners)
        throws InterruptedException {
        UnsafeBuffer claim = new UnsafeBuffer(new byte[SessionCodec.CLAIM_LENGTH]);
        for (int owner : owners) {
            SessionCodec.encodeClaim(claim, 0, owner, 1, false, 0);
            if (!inbound.offerRecord(SessionCodec.CLAIM, claim, 0, SessionCodec.CLAIM_LENGTH)) {
                throw new IllegalStateException("the inbound ring is full");
            }
        }
        int[] granted = {0};
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        TracedEventSink sink = new TracedEventSink() {
            @Override
            public void onEvent(ExecutionEvent event, CommandTrace trace) {
                events.onEvent(event);
            }

            @Override
            public void onSessionRecord(int type, DirectBuffer buffer, int offset, int length) {
                if (type == SessionCodec.GRANTED) {
                    granted[0]++;
                }
            }
        };
        while (granted[0] < owners.length) {
            if (outbound.poll(sink, 100) == 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the cluster granted " + granted[0] + " of " + owners.length + " claims");
                }
                Thread.sleep(1);
            }
        }
    }

    static Path tempRoot() throws IOException {
        return Files.createTempDirectory("fixmatch-cluster-");
    }
}
