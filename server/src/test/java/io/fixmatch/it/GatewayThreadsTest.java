package io.fixmatch.it;

import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.server.FixmatchServer;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandle;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import quickfix.Message;

import net.openhft.affinity.Affinity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static io.fixmatch.it.Orders.dec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway threads with unmodified QuickFIX/J initiators: sessions sharded over two gateway threads trade with
 * each other (a connection accepted on the other gateway's loop is moved to its session's at Logon), and the same
 * order flow passes under both thread layouts and both gateway idle strategies. Every session entry point asserts it
 * runs on its owning gateway thread (tests run with assertions on), so a call from a wrong thread breaks these flows.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GatewayThreadsTest {
    @TempDir
    Path temp;
    @RegisterExtension
    final ServerAndClients running = new ServerAndClients();
    private FixmatchServer server;

    @Test
    void sessionsOnTwoGatewayThreadsTradeWithEachOther() throws Exception {
        server = running.use(TestServers.start(temp, 0,
            Map.of("server.layout", "two-threads", "gateway.threads", "2")));
        // Connected one after the other: accepted connections go to the gateways' loops in turn from loop 0, so
        // CLIENT2 (owned by gateway 1) is accepted on loop 0 and CLIENT1 (gateway 0) on loop 1; each must be moved
        // to its session's gateway.
        QfjClient client2 = running.logOn("CLIENT2", server.port());
        QfjClient client1 = running.logOn("CLIENT1", server.port());
        long moved = server.gateways().all().stream().mapToLong(Gateway::connectionsMovedIn).sum();
        assertTrue(moved >= 1, "connections moved to their session's gateway: " + moved);
        assertEquals(2, server.gateways().count());

        tradeAcross(client1, client2, "AAPL", "A");
        tradeAcross(client2, client1, "MSFT", "B");
        noneBroken(client1, client2);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"one-thread, backoff", "one-thread, busy-spin", "two-threads, backoff", "two-threads, busy-spin"})
    void theSameFlowUnderEveryLayoutAndIdleStrategy(String layout, String idle) throws Exception {
        server = running.use(TestServers.start(temp, 0, Map.of("server.layout", layout, "gateway.idleStrategy", idle,
            "engine.idleStrategy", idle)));
        QfjClient client1 = running.logOn("CLIENT1", server.port());
        QfjClient client2 = running.logOn("CLIENT2", server.port());
        tradeAcross(client1, client2, "GOOG", "C");
        tradeAcross(client2, client1, "GOOG", "D");
        noneBroken(client1, client2);
    }

    /**
     * gateway.transport: each transport serves the same flow, on gateways' loops of that transport (the default,
     * auto, is epoll on Linux). The handle class is the transport's kind of socket registration.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"auto, io.netty.channel.epoll.EpollIoHandle", "epoll, io.netty.channel.epoll.EpollIoHandle",
        "nio, io.netty.channel.nio.NioIoHandle", "io_uring, io.netty.channel.uring.IoUringIoHandle"})
    void theSameFlowOnEveryTransport(String transport, Class<? extends IoHandle> handle) throws Exception {
        server = running.use(TestServers.start(temp, 0, Map.of("gateway.transport", transport)));
        IoEventLoop loop = (IoEventLoop) server.gateways().all().get(0).eventLoop();
        assertTrue(loop.isCompatible(handle), transport + " runs on " + handle.getSimpleName() + "s");
        QfjClient client1 = running.logOn("CLIENT1", server.port());
        QfjClient client2 = running.logOn("CLIENT2", server.port());
        tradeAcross(client1, client2, "GOOG", "E");
        tradeAcross(client2, client1, "GOOG", "F");
        noneBroken(client1, client2);
    }

    @Test
    void gatewayThreadsArePinnedToTheirConfiguredCpus() throws Exception {
        int cpu = Runtime.getRuntime().availableProcessors() - 1;
        server = running.use(TestServers.start(temp, 0, Map.of("server.layout", "two-threads", "gateway.threads", "2",
            "gateway.cpus", "-1," + cpu)));
        BitSet[] seen = new BitSet[2];
        for (Gateway gateway : server.gateways().all()) {
            gateway.submit(() -> seen[gateway.index()] = Affinity.getAffinity()).get(10, TimeUnit.SECONDS);
        }
        BitSet expected = new BitSet();
        expected.set(cpu);
        if (!expected.equals(seen[1])) {
            // Chronicle Affinity reserves CPUs machine-wide (/tmp/cpu-N.lock): another process may hold this one.
            Assumptions.assumeFalse(heldByAnotherProcess(cpu), "CPU " + cpu + " is reserved by another process");
        }
        assertEquals(expected, seen[1], "gateway 1's affinity");
        assertTrue(seen[0].cardinality() > 1 || Runtime.getRuntime().availableProcessors() == 1,
            "gateway 0 is not pinned: " + seen[0]);
    }

    private static boolean heldByAnotherProcess(int cpu) {
        try {
            long pid = Long.parseLong(Files.readAllLines(Path.of(System.getProperty("java.io.tmpdir"),
                "cpu-" + cpu + ".lock")).get(0).trim());
            return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isPresent();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * {@code seller} rests two orders, {@code buyer} takes one whole and half the other, {@code seller} cancels the
     * rest: acks, fills on both sides, the cancel.
     */
    private static void tradeAcross(QfjClient seller, QfjClient buyer, String symbol, String prefix)
        throws InterruptedException {
        seller.send(Orders.limit(prefix + "-S1", symbol, SELL, 100, "50.00"));
        assertFields(next(seller), 11, prefix + "-S1", 150, "0");
        seller.send(Orders.limit(prefix + "-S2", symbol, SELL, 100, "50.01"));
        assertFields(next(seller), 11, prefix + "-S2", 150, "0");

        buyer.send(Orders.limit(prefix + "-B1", symbol, BUY, 150, "50.01"));
        assertFields(next(buyer), 11, prefix + "-B1", 150, "0");
        assertFields(next(buyer), 11, prefix + "-B1", 150, "F", 32, "100", 31, dec("50.00"), 39, "1");
        assertFields(next(buyer), 11, prefix + "-B1", 150, "F", 32, "50", 31, dec("50.01"), 39, "2");
        assertFields(next(seller), 11, prefix + "-S1", 150, "F", 32, "100", 39, "2");
        assertFields(next(seller), 11, prefix + "-S2", 150, "F", 32, "50", 39, "1", 151, "50");

        seller.send(Orders.cancel(prefix + "-S2C", prefix + "-S2", symbol, SELL));
        assertFields(next(seller), 11, prefix + "-S2C", 41, prefix + "-S2", 150, "4", 39, "4", 151, "0");
    }

    private static Message next(QfjClient client) throws InterruptedException {
        Message message = client.nextApp("8");
        Orders.assertValidFix44(message);
        return message;
    }

    private void noneBroken(QfjClient... all) {
        for (QfjClient client : all) {
            client.assertNoPendingApp();
            client.assertNoProtocolErrors();
        }
        for (Gateway gateway : server.gateways().all()) {
            assertNull(gateway.lastAssertionFailure(), gateway.name() + " broke an assertion in its cycle");
        }
    }
}
