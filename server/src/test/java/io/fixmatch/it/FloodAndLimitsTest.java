package io.fixmatch.it;

import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.fixmatch.it.RawFixClient.assertField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Floods and per-connection limits (docs/FIX.md "Limits"), over real sockets against one server with small limits:
 * a session flooding far above its message rate, endless garbage, huge messages and fields, thousands of tags, half a
 * message then silence, hundreds of connections that never log on. After each, and during the flood, another session
 * (QuickFIX/J CLIENT2) keeps trading: the server protected itself and served everyone else.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class FloodAndLimitsTest {
    private static final int RATE = 200;
    private static final int MAX_UNAUTHENTICATED = 40;
    private static final long LOGON_TIMEOUT_MS = 1500;
    private static final int MAX_GARBLED = 4096;
    private static final Duration CLOSE = RawFixClient.TIMEOUT;
    private static final AtomicInteger OBSERVER_ORDERS = new AtomicInteger();

    @TempDir
    static Path data;
    private static ObservedServer running;
    private static FixmatchServer server;
    private static QfjClient observer;
    private final List<RawFixClient> raws = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        running = ObservedServer.start(data, Map.of(
            "session.CLIENT1.maxMessagesPerSecond", String.valueOf(RATE),
            "fix.maxUnauthenticatedConnections", String.valueOf(MAX_UNAUTHENTICATED),
            "fix.maxUnauthenticatedConnectionsPerAddress", String.valueOf(MAX_UNAUTHENTICATED),
            "fix.logonTimeoutMs", String.valueOf(LOGON_TIMEOUT_MS),
            "fix.maxGarbledBytes", String.valueOf(MAX_GARBLED),
            "fix.maxMessageSize", "65536"));
        server = running.server();
        observer = running.observer();
    }

    @AfterAll
    static void stop() {
        TestServers.closeQuietly(running);
    }

    @AfterEach
    void otherSessionsAreUnaffected() throws Exception {
        raws.forEach(RawFixClient::close);
        observerTrades(3);
        observer.assertNoProtocolErrors();
        assertTrue(observer.isLoggedOn(), "CLIENT2 stayed logged on");
    }

    @Test
    void aSessionFloodingFarAboveItsRateIsRejectedThenLoggedOutWhileOthersTrade() throws Exception {
        RawFixClient flooder = logOn("CLIENT1", 30);
        int total = 20 * RATE * 5;
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; i < total; i++) {
                    flooder.send(ioc(flooder, "FLOOD-" + i));
                }
            } catch (IOException e) {
                // the server closed the connection mid-flood: expected
            }
        }, "flooder");
        writer.start();
        observerTrades(20); // served while the flood goes on
        int executionReports = 0;
        int rateRejects = 0;
        RawFix.Msg message;
        while ((message = flooder.poll(CLOSE)) != null && !message.type().equals("5")) {
            if (message.type().equals("8")) {
                executionReports++;
            } else if (message.type().equals("3")) {
                assertField(message, 373, "99");
                assertEquals("Other: message rate limit of " + RATE + " per second exceeded", message.get(58));
                rateRejects++;
            }
        }
        assertNotNull(message, "a Logout ends the flood");
        assertTrue(message.get(58).startsWith("message rate limit exceeded"), message.toString());
        flooder.awaitClosedByServer(CLOSE);
        writer.join(TimeUnit.SECONDS.toMillis(30));
        // An IOC order is acknowledged and canceled: two reports for each order let through (those of the last
        // orders let through may not make it before the close). Not the flood: one second's burst and its refill.
        assertTrue(executionReports <= 2 * 3 * RATE, "orders let through: " + executionReports / 2);
        // Rejected until the rejects of one second reach the rate (twice, if the flood straddles a second).
        assertTrue(rateRejects >= RATE - 1 && rateRejects <= 2 * RATE, "rate rejects: " + rateRejects);

        // Coming back at once is no way round the limit: the Logon counts against the same allowance.
        try (RawFixClient atOnce = new RawFixClient(server.port(), "CLIENT1")) {
            atOnce.send(atOnce.header("A").field(98, 0).field(108, 30).field(141, "Y"));
            assertEquals("message rate limit exceeded: log on again later", atOnce.expect("5").get(58));
        }
        Thread.sleep(1100); // a second refills the allowance
        RawFixClient again = logOn("CLIENT1", 30); // the session itself may come back and trade
        again.send(again.newOrder("AFTER-FLOOD", "JPM", "1", 1, "1.00"));
        assertField(again.expect("8"), 150, "0");
    }

    @Test
    void endlessGarbageWithoutSohEndsTheConnectionBeforeAndAfterLogon() throws Exception {
        RawFixClient anonymous = connect(null);
        byte[] noise = new byte[1000];
        Arrays.fill(noise, (byte) 'x');
        sendUntilClosed(anonymous, noise, 1000); // before a Logon, garbled bytes close at once without an answer
        assertNull(anonymous.poll(Duration.ofMillis(200)), "no answer to garbage before a Logon (docs/FIX.md)");

        RawFixClient loggedOn = logOn("CLIENT1", 30);
        sendUntilClosed(loggedOn, noise, 1000);
        RawFix.Msg sessionLogout = loggedOn.nextMatching(m -> m.type().equals("5"), 2);
        assertTrue(sessionLogout.get(58).contains("fix.maxGarbledBytes=" + MAX_GARBLED), sessionLogout.toString());
    }

    @Test
    void garbageBelowTheLimitBetweenValidMessagesIsSkipped() throws Exception {
        RawFixClient client = logOn("CLIENT1", 30);
        byte[] noise = new byte[MAX_GARBLED / 2];
        Arrays.fill(noise, (byte) 'x');
        for (int i = 0; i < 6; i++) { // 3 x the limit in all, but never more than half of it in a row
            client.send(noise);
            client.send(client.newOrder("BETWEEN-" + i, "JPM", "1", 1, "1.00"));
            assertField(client.expect("8"), 11, "BETWEEN-" + i);
        }
    }

    @Test
    void aHugeDeclaredBodyLengthEndsTheConnectionAtOnce() throws Exception {
        RawFixClient client = logOn("CLIENT1", 30);
        client.send(("8=FIX.4.4\u00019=9999999\u000135=D\u0001").getBytes(StandardCharsets.US_ASCII));
        RawFix.Msg logout = client.expect("5");
        assertTrue(logout.get(58).contains("exceeds the maximum of 65536"), logout.toString());
        client.awaitClosedByServer(CLOSE);
    }

    @Test
    void aHugeFieldWithinTheMessageSizeIsRejectedAndTheSessionGoesOn() throws Exception {
        RawFixClient client = logOn("CLIENT1", 30);
        client.send(client.newOrder("x".repeat(50_000), "JPM", "1", 1, "1.00"));
        RawFix.Msg reject = client.expect("3");
        assertField(reject, 371, 11);
        assertField(reject, 373, 5);
        client.send(client.newOrder("AFTER-HUGE", "JPM", "1", 1, "1.00"));
        assertField(client.expect("8"), 11, "AFTER-HUGE");
    }

    @Test
    void thousandsOfTagsAreParsedOrRejectedAndTheSessionGoesOn() throws Exception {
        RawFixClient client = logOn("CLIENT1", 30);
        FixBuilder many = client.newOrder("MANY-TAGS", "JPM", "1", 1, "1.00");
        for (int i = 0; i < 3000; i++) {
            many.field(58, "t");
        }
        client.send(many);
        RawFix.Msg repeated = client.expect("3"); // parsed, then refused by the dictionary check: 58 repeated
        assertField(repeated, 373, "13");
        assertField(repeated, 371, "58");

        FixBuilder tooMany = client.newOrder("TOO-MANY-TAGS", "JPM", "1", 1, "1.00");
        for (int i = 0; i < 5000; i++) {
            tooMany.field(58, "t");
        }
        client.send(tooMany);
        RawFix.Msg reject = client.expect("3");
        assertTrue(reject.get(58).contains("too many fields"), reject.toString());
        client.send(client.newOrder("AFTER-TAGS", "JPM", "1", 1, "1.00"));
        assertField(client.expect("8"), 11, "AFTER-TAGS");
    }

    @Test
    void halfAMessageThenSilenceBeforeLogonIsClosedAtTheLogonTimeout() throws Exception {
        RawFixClient client = connect(null);
        long start = System.nanoTime();
        client.send("8=FIX.4.4\u00019=200\u000135=A\u000149=CLIENT1\u0001".getBytes(StandardCharsets.US_ASCII));
        client.awaitClosedByServer(CLOSE);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(ms >= LOGON_TIMEOUT_MS - 100, "closed at the logon timeout, not before: " + ms + " ms");
    }

    @Test
    void halfAMessageThenSilenceAfterLogonEndsInATestRequestThenALogout() throws Exception {
        RawFixClient client = logOn("CLIENT1", 1);
        client.send("8=FIX.4.4\u00019=150\u000135=D\u000149=CLIENT1\u0001".getBytes(StandardCharsets.US_ASCII));
        client.nextMatching(m -> m.type().equals("1"), 3); // a TestRequest (after a Heartbeat, maybe)
        RawFix.Msg logout = client.nextMatching(m -> m.type().equals("5"), 3);
        assertTrue(logout.get(58).contains("heartbeat timeout"), logout.toString());
        client.awaitClosedByServer(CLOSE);
    }

    @Test
    void hundredsOfConnectionsThatNeverLogOnAreCappedThenTimedOut() throws Exception {
        int count = 300;
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                idle.add(openIdle());
            }
            // Beyond the cap the oldest are closed at once to let the newer in, and counted as such (the logon
            // timeout closes the others later; it would close them all if there were no cap, and they are not
            // counted there). Admissions and closes are the gateway's, in order, so a busy machine changes nothing.
            awaitMetric("fixmatch_unauthenticated_connections_closed_total", closedForTheCaps -> closedForTheCaps
                >= count - MAX_UNAUTHENTICATED);
            observerTrades(5); // the logged-on session trades meanwhile
            for (Socket socket : idle) {
                assertTrue(closedWithin(socket, RawFixClient.TIMEOUT.toMillis()), "every idle connection closed");
            }
        } finally {
            idle.forEach(socket -> TestServers.closeQuietly(socket));
        }
        // The cap counted them out again: as many new connections are admitted, and a session logs on.
        awaitMetric("fixmatch_unauthenticated_connections", open -> open == 0); // the server's side of the closes
        List<Socket> again = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_UNAUTHENTICATED - 1; i++) {
                again.add(openIdle());
            }
            for (Socket socket : again) {
                assertTrue(!closedWithin(socket, 5), "admitted again after the others closed");
            }
            RawFixClient client = logOn("CLIENT1", 30);
            client.send(client.newOrder("AFTER-IDLE", "JPM", "1", 1, "1.00"));
            assertField(client.expect("8"), 11, "AFTER-IDLE");
        } finally {
            again.forEach(socket -> TestServers.closeQuietly(socket));
        }
    }

    private static Socket openIdle() throws IOException {
        return IdleSockets.open(server.port(), null);
    }

    /**
     * Waits until the admin endpoint's metric (its series summed over their labels) satisfies {@code condition};
     * fails after {@link RawFixClient#TIMEOUT}.
     */
    private static void awaitMetric(String name, java.util.function.DoublePredicate condition) throws Exception {
        long deadline = System.nanoTime() + RawFixClient.TIMEOUT.toNanos();
        while (true) {
            AdminClient.Metrics metrics = new AdminClient(server.adminPort(), null).metrics();
            double value = metrics.sum(name);
            if (condition.test(value)) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, name + " still " + value + " after " + RawFixClient.TIMEOUT);
            Thread.sleep(20); // polling with a deadline
        }
    }

    private static boolean closedWithin(Socket socket, long ms) throws IOException {
        return IdleSockets.closedWithin(socket, ms);
    }

    /** Writes {@code chunk} until the server closes the connection (at most {@code maxChunks} times). */
    private static void sendUntilClosed(RawFixClient client, byte[] chunk, int maxChunks) throws Exception {
        for (int i = 0; i < maxChunks && !client.isClosedByServer(); i++) {
            try {
                client.send(chunk);
            } catch (IOException e) {
                break;
            }
        }
        client.awaitClosedByServer(CLOSE);
    }

    private static byte[] ioc(RawFixClient client, String clOrdId) {
        return client.newOrder(clOrdId, "GOOG", "1", 1, "1.00").field(59, 3).bytes();
    }

    private static void observerTrades(int orders) throws InterruptedException {
        for (int i = 0; i < orders; i++) {
            String clOrdId = "OBS-" + OBSERVER_ORDERS.incrementAndGet();
            observer.send(Orders.limit(clOrdId, "V", Orders.BUY, 1, "1.00"));
            Orders.assertFields(observer.nextApp("8"), 11, clOrdId, 150, "0", 39, "0");
        }
        observer.assertNoPendingApp();
    }

    private RawFixClient connect(String localAddress) throws IOException {
        RawFixClient client = new RawFixClient(server.port(), "CLIENT1", localAddress);
        raws.add(client);
        return client;
    }

    private RawFixClient logOn(String compId, int heartBtInt) throws Exception {
        RawFixClient client = RawFixClient.loggedOn(server.port(), compId, heartBtInt);
        raws.add(client);
        return client;
    }
}
