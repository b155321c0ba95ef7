package io.fixmatch.cluster;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fixmatch.cluster.client.ClusterEngineLink;
import io.fixmatch.cluster.client.ClusterUnavailableException;
import io.fixmatch.cluster.client.StoredOrigins;
import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.cluster.protocol.Ingress;
import io.fixmatch.cluster.protocol.ProtocolVersion;
import io.fixmatch.cluster.protocol.VenueFingerprint;
import io.fixmatch.cluster.service.MatchingService;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.OutboundEventRing;
import org.agrona.SemanticVersion;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The versioned wire between gateways and nodes, on real nodes: a HELLO as a release before versions wrote it is
 * refused by every node, at once, the refusal naming both versions, one WARN line on each node, and it takes no slot
 * (but in a term begun by a node of such a release it is taken, as it was then); a gateway welcomed by a node of
 * another protocol version refuses it, its start failing at once with the reason naming both versions, and no ERROR
 * line of its own beside it.
 */
@Timeout(180)
class ProtocolVersionTest {
    private static final long FINGERPRINT = VenueFingerprint.of(TestCluster.SYMBOLS, TestCluster.OWNERS);
    /** The gateways' connect timeout ({@link TestCluster#linkSettings}): a refusal comes long before it. */
    private static final long AT_ONCE_MS = 15_000;

    @Test
    void aHelloOfAReleaseBeforeVersionsIsRefusedByEveryNodeNamingBothVersions() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger serviceLog = (Logger) LoggerFactory.getLogger(MatchingService.class);
        serviceLog.addAppender(log);
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 3).startAll()) {
            int leader = cluster.awaitLeader(60_000);
            try (RawClusterClient earlier = new RawClusterClient(cluster)) {
                UnsafeBuffer hello = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
                earlierReleaseHello(hello, 1, new int[] {1, 2});
                long sent = System.nanoTime();
                earlier.send(hello, 28);
                earlier.awaitRefusals(1);
                assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent) < AT_ONCE_MS, "refused at once");
                String refusal = earlier.refusals().get(0);
                assertTrue(refusal.contains("gateway 1 speaks version 0") && refusal.contains("this node version "
                    + ProtocolVersion.CURRENT), "the refusal names both versions: " + refusal);
            }
            awaitEveryNode(cluster, () -> {
                for (int id = 0; id < 3; id++) {
                    if (cluster.node(id).status().refusedHellos() != 1) {
                        return false;
                    }
                }
                return true;
            });
            List<String> warnings = new ArrayList<>(log.list).stream()
                .filter(event -> event.getLevel() == Level.WARN && event.getFormattedMessage().contains("version"))
                .map(ILoggingEvent::getFormattedMessage).toList();
            assertEquals(3, warnings.size(), "one WARN line on each node: " + warnings);
            assertTrue(warnings.stream().allMatch(warning -> warning.contains("speaks version 0")
                && warning.contains("this node version " + ProtocolVersion.CURRENT)), warnings.toString());

            // the refused hello took no slot: a gateway of this release, the same id and owners, is welcomed as the
            // first gateway 1 every node has seen
            try (ClusterEngineLink gateway = link(cluster)) {
                assertEquals(0, gateway.connect(StoredOrigins.NONE).lastApplied());
            }
            awaitEveryNode(cluster, () -> helloLines(log).size() == 3);
            assertTrue(helloLines(log).stream().allMatch(line -> line.contains("(first time)")),
                "no node had given gateway 1 a slot: " + helloLines(log));
            assertEquals(ProtocolVersion.CURRENT, cluster.node(leader).status().termProtocolVersion(),
                "the term began on a node of this release");
        } finally {
            serviceLog.detachAppender(log);
        }
    }

    /**
     * The log means what it meant: in a term begun by a node of a release before versions (Aeron's default appVersion,
     * 0.0.1, in its term event), such a HELLO was taken, and so it is when this release applies or replays that term.
     */
    @Test
    void inATermBegunByAReleaseBeforeVersionsTheirHelloIsTakenAsItWasThen() throws Exception {
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 1)) {
            cluster.startWithAppVersion(0, SemanticVersion.compose(0, 0, 1));
            cluster.awaitLeader(60_000);
            try (RawClusterClient earlier = new RawClusterClient(cluster)) {
                UnsafeBuffer hello = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
                earlierReleaseHello(hello, 1, new int[] {1, 2});
                earlier.send(hello, 28);
                earlier.awaitEgress(Egress.WELCOME);
            }
            assertEquals(0, cluster.node(0).status().termProtocolVersion());
            assertEquals(0, cluster.node(0).status().refusedHellos());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, ProtocolVersion.CURRENT + 1})
    void aGatewayWelcomedByANodeOfAnotherVersionRefusesItAndItsStartFailsNamingBoth(int nodeVersion)
        throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger linkLog = (Logger) LoggerFactory.getLogger(ClusterEngineLink.class);
        linkLog.addAppender(log);
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 1)) {
            cluster.startWelcomingWith(0, nodeVersion);
            cluster.awaitLeader(60_000);
            try (ClusterEngineLink gateway = link(cluster)) {
                long start = System.nanoTime();
                ClusterUnavailableException refused = assertThrows(ClusterUnavailableException.class,
                    () -> gateway.connect(StoredOrigins.NONE));
                assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < AT_ONCE_MS, "refused at once");
                assertTrue(refused.getMessage().contains("the cluster (leader node 0) speaks version " + nodeVersion)
                    && refused.getMessage().contains("gateway 1 version " + ProtocolVersion.CURRENT),
                    "the start's failure names both versions: " + refused.getMessage());
            }
            assertEquals(List.of(), new ArrayList<>(log.list).stream()
                .filter(event -> event.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage).toList(),
                "joining, the start's failure is the one line (the server logs it): no ERROR of the link's");
        } finally {
            linkLog.detachAppender(log);
        }
    }

    /**
     * A HELLO as every release before versions wrote it: the type, bytes 1 to 3 never written, then the gateway id,
     * the venue fingerprint, the owners.
     */
    private static void earlierReleaseHello(UnsafeBuffer buffer, int gatewayId, int[] owners) {
        buffer.setMemory(0, buffer.capacity(), (byte) 0);
        buffer.putByte(0, Ingress.HELLO);
        buffer.putInt(4, gatewayId, Egress.ORDER);
        buffer.putLong(8, FINGERPRINT, Egress.ORDER);
        buffer.putInt(16, owners.length, Egress.ORDER);
        for (int i = 0; i < owners.length; i++) {
            buffer.putInt(20 + i * Integer.BYTES, owners[i], Egress.ORDER);
        }
    }

    private static List<String> helloLines(ListAppender<ILoggingEvent> log) {
        return new ArrayList<>(log.list).stream().map(ILoggingEvent::getFormattedMessage)
            .filter(line -> line.startsWith("gateway 1 (") && line.contains(" said hello")).toList();
    }

    private static ClusterEngineLink link(TestCluster cluster) {
        return new ClusterEngineLink(cluster.linkSettings(1, 1, 2), new InboundCommandRing(1 << 16),
            new OutboundEventRing(1 << 20, new BackoffIdleStrategy()), TestCluster.SYMBOLS.size());
    }

    private static void awaitEveryNode(TestCluster cluster, java.util.function.BooleanSupplier condition)
        throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not every node got there; hellos refused: " + cluster.node(0).status()
                    .refusedHellos() + ", " + cluster.node(1).status().refusedHellos() + ", " + cluster.node(2)
                    .status().refusedHellos());
            }
            Thread.sleep(10);
        }
    }
}
