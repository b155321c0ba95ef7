package io.fixmatch.it;

import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.server.ConfigException;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static io.fixmatch.it.Orders.field;
import static io.fixmatch.it.RawFixClient.assertField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Security of the acceptor (docs/FIX.md "Security"), over real sockets from several loopback addresses (127.0.0.x):
 * every failed Logon gets the same answer, repeated failures lock an address out for a while, a session logs on only
 * from its allowed addresses, a session never sees, cancels or replaces another's orders (two QuickFIX/J sessions),
 * and TLS with a QuickFIX/J initiator (a key store generated for the test with the JDK's keytool).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SecurityTest {
    private static final int MAX_FAILURES = 3;
    private static final long LOCKOUT_MS = 2000;
    private static final Duration TIMEOUT = RawFixClient.TIMEOUT;

    @TempDir
    static Path data;
    private static FixmatchServer server;
    private static TestKeyStores.Pair keyStores;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.start(data.resolve("guarded"), 0, Map.of(
            "session.CLIENT1.username", "alice", "session.CLIENT1.password", "s3cret",
            "session.CLIENT2.allowedAddresses", "127.0.0.2",
            "fix.maxLogonFailures", String.valueOf(MAX_FAILURES), "fix.logonLockoutMs", String.valueOf(LOCKOUT_MS)));
    }

    @AfterAll
    static void stop() {
        TestServers.closeQuietly(server);
    }

    /** The TLS tests' key and trust stores (password changeit), made once: keytool is three JVM starts. */
    private static synchronized TestKeyStores.Pair keyStores() throws Exception {
        if (keyStores == null) {
            keyStores = TestKeyStores.generate(Files.createDirectories(data.resolve("keys")), "changeit");
        }
        return keyStores;
    }

    @Test
    void everyFailedLogonGetsTheSameAnswerWhateverWasWrong() throws Exception {
        assertRefused("127.0.0.11", "CLIENT1", "alice", "wrong");
        assertRefused("127.0.0.12", "CLIENT1", "bob", "s3cret");
        assertRefused("127.0.0.13", "CLIENT1", "alice", null);
        assertRefused("127.0.0.14", "NOBODY", "alice", "s3cret");
        assertRefused("127.0.0.15", "CLIENT2", null, null); // not from its allowed address
        try (RawFixClient right = loggedOn("127.0.0.16")) {
            right.logout();
        }
    }

    @Test
    void repeatedFailuresFromOneAddressLockItOutForAWhile() throws Exception {
        for (int i = 0; i < MAX_FAILURES; i++) {
            assertRefused("127.0.0.3", "CLIENT1", "alice", "guess-" + i);
        }
        long lockedAt = System.nanoTime();
        try (RawFixClient locked = new RawFixClient(server.port(), "CLIENT1", "127.0.0.3")) {
            try {
                locked.send(credentials(locked.header("A").field(98, 0).field(108, 30), "alice", "s3cret"));
            } catch (IOException e) {
                // the server may have closed it already
            }
            assertTrue(locked.awaitClosed(TIMEOUT), "a locked-out address is disconnected at once");
            assertNull(locked.poll(Duration.ZERO), "and told nothing, even with the right password");
        }
        try (RawFixClient other = loggedOn("127.0.0.4")) { // other addresses are not affected
            other.logout();
        }
        long left = LOCKOUT_MS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lockedAt);
        Thread.sleep(Math.max(0, left) + 200);
        try (RawFixClient after = loggedOn("127.0.0.3")) { // the lockout ends
            after.logout();
        }
    }

    @Test
    void aSessionNeverSeesCancelsOrReplacesAnotherSessionsOrders() throws Exception {
        QfjClient owner = QfjClient.logOn("CLIENT1", server.port(), new QfjClient.Options()
            .setting("LogonTag", "553=alice").setting("LogonTag1", "554=s3cret"));
        QfjClient other = QfjClient.logOn("CLIENT2", server.port(), new QfjClient.Options()
            .setting("SocketLocalHost", "127.0.0.2"));
        try {
            owner.send(Orders.limit("SAME", "MSFT", BUY, 10, "5.00"));
            Message ack = owner.nextApp("8");
            String orderId = field(ack, 37);

            other.send(Orders.status("SAME", "MSFT", BUY));
            Message status = other.nextApp("8");
            assertFields(status, 11, "SAME", 39, "8", 151, "0", 14, "0");
            assertNotEquals(orderId, field(status, 37), "the other session's order is not shown");
            other.send(Orders.cancel("STEAL-1", "SAME", "MSFT", BUY));
            assertFields(other.nextApp("9"), 41, "SAME", 37, "NONE", 102, "1");
            other.send(Orders.replace("STEAL-2", "SAME", "MSFT", BUY, 1, "5.00"));
            assertFields(other.nextApp("9"), 41, "SAME", 37, "NONE", 102, "1");

            // The same ClOrdID in the other session is its own order; canceling it touches only that one.
            other.send(Orders.limit("SAME", "MSFT", SELL, 10, "6.00"));
            String otherOrderId = field(other.nextApp("8"), 37);
            assertNotEquals(orderId, otherOrderId);
            other.send(Orders.cancel("SAME-C", "SAME", "MSFT", SELL));
            assertFields(other.nextApp("8"), 41, "SAME", 37, otherOrderId, 150, "4");

            owner.send(Orders.status("SAME", "MSFT", BUY));
            assertFields(owner.nextApp("8"), 37, orderId, 150, "I", 39, "0", 151, "10");
            owner.assertNoPendingApp(); // nothing of the other session's requests reached the owner

            // A trade between them: each side sees its own order only, never the counterparty's ids.
            other.send(Orders.limit("HIT", "MSFT", SELL, 4, "5.00"));
            List<Message> sellerReports = List.of(other.nextApp("8"), other.nextApp("8"));
            Message buyerFill = owner.nextApp("8");
            assertFields(buyerFill, 11, "SAME", 37, orderId, 150, "F", 32, "4");
            assertFalse(buyerFill.toString().contains("HIT"), QfjClient.show(buyerFill));
            for (Message report : sellerReports) {
                assertFields(report, 11, "HIT");
                assertFalse(report.toString().contains("=SAME\u0001"), QfjClient.show(report));
                assertFalse(report.toString().contains("=" + orderId + "\u0001"), QfjClient.show(report));
            }
            owner.send(Orders.cancel("SAME-C1", "SAME", "MSFT", BUY));
            assertFields(owner.nextApp("8"), 37, orderId, 150, "4", 14, "4");
            owner.assertNoProtocolErrors();
            other.assertNoProtocolErrors();
        } finally {
            owner.close();
            other.close();
        }
    }

    @Test
    void tlsWithAQuickFixJInitiator() throws Exception {
        TestKeyStores.Pair stores = keyStores();
        try (FixmatchServer tls = TestServers.start(data.resolve("tls"), 0, Map.of(
            "fix.tls.keyStore", stores.keyStore().toString(), "fix.tls.keyStorePassword", "changeit"))) {
            QfjClient client = QfjClient.logOn("CLIENT1", tls.port(), new QfjClient.Options()
                .setting("SocketUseSSL", "Y")
                .setting("SocketTrustStore", stores.trustStore().toString())
                .setting("SocketTrustStorePassword", "changeit")
                .setting("TrustStoreType", "PKCS12")
                .setting("EnabledProtocols", "TLSv1.3"));
            try {
                client.send(Orders.limit("TLS-1", "AAPL", BUY, 1, "1.00"));
                assertFields(client.nextApp("8"), 11, "TLS-1", 150, "0");
                client.assertNoProtocolErrors();
            } finally {
                client.close();
            }
            // Plain FIX on the TLS port: no FIX answer, the connection is closed.
            try (RawFixClient plain = new RawFixClient(tls.port(), "CLIENT2")) {
                plain.send(plain.header("A").field(98, 0).field(108, 30));
                assertTrue(plain.awaitClosed(TIMEOUT), "a plain-text client is disconnected");
                assertNull(plain.poll(Duration.ZERO), "and gets no FIX message");
            }
        }
    }

    @Test
    void tlsConnectionsMoveToTheirSessionsGatewayThread() throws Exception {
        TestKeyStores.Pair stores = keyStores();
        try (FixmatchServer tls = TestServers.start(data.resolve("tls-two-gateways"), 0, Map.of(
            "server.layout", "two-threads", "gateway.threads", "2",
            "fix.tls.keyStore", stores.keyStore().toString(), "fix.tls.keyStorePassword", "changeit"))) {
            // Connections are spread over the two event loops in turn, so of two connections of one session in a
            // row one arrives on the other gateway's loop and moves, TLS handler and all, at its Logon.
            for (int i = 0; i < 2; i++) {
                QfjClient client = QfjClient.logOn("CLIENT1", tls.port(), new QfjClient.Options()
                    .setting("SocketUseSSL", "Y")
                    .setting("SocketTrustStore", stores.trustStore().toString())
                    .setting("SocketTrustStorePassword", "changeit")
                    .setting("TrustStoreType", "PKCS12")
                    .resetOnLogon(true));
                try {
                    client.send(Orders.limit("TLS-MOVE-" + i, "AAPL", BUY, 1, "1.00"));
                    assertFields(client.nextApp("8"), 11, "TLS-MOVE-" + i, 150, "0");
                    client.assertNoProtocolErrors();
                } finally {
                    client.close();
                }
            }
            assertTrue(tls.gateways().all().stream().mapToLong(Gateway::connectionsMovedIn).sum() >= 1,
                "a TLS connection moved to its session's gateway thread");
        }
    }

    /**
     * A FIX engine may write its Logon the moment the TLS handshake ends (QuickFIX/J waits for its next second; others
     * do not): the Logon then comes in the same read as the end of the handshake, and on the other gateway's loop the
     * connection moves at once, TLS handler and all. Every such Logon is answered, on either gateway thread.
     */
    @Test
    void aLogonWrittenTheMomentTheTlsHandshakeEndsIsAnsweredOnEitherGatewayThread()
        throws Exception {
        TestKeyStores.Pair stores = keyStores();
        try (FixmatchServer tls = TestServers.start(data.resolve("tls-logon-at-once"), 0, Map.of(
            "server.layout", "two-threads", "gateway.threads", "2",
            "fix.tls.keyStore", stores.keyStore().toString(), "fix.tls.keyStorePassword", "changeit"))) {
            SSLSocketFactory sockets = trusting(stores.trustStore()).getSocketFactory();
            for (int i = 0; i < 8; i++) { // connections alternate between the two loops: about half of them move
                SSLSocket socket = (SSLSocket) sockets.createSocket("127.0.0.1", tls.port());
                socket.setTcpNoDelay(true);
                socket.startHandshake();
                try (RawFixClient client = new RawFixClient(socket, "CLIENT1")) {
                    client.send(client.header("A").field(98, 0).field(108, 30).field(141, "Y"));
                    RawFix.Msg reply = client.next();
                    assertEquals("A", reply.type(), "connection " + i + ": " + reply);
                    client.send(client.header("5"));
                    client.expect("5");
                    client.awaitClosedByServer(TIMEOUT);
                }
            }
            assertTrue(tls.gateways().all().stream().mapToLong(Gateway::connectionsMovedIn).sum() >= 1,
                "a TLS connection moved to its session's gateway thread");
        }
    }

    private static SSLContext trusting(Path trustStore) throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(trustStore)) {
            trusted.load(in, "changeit".toCharArray());
        }
        TrustManagerFactory trust =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    @Test
    void aKeyStoreThatCannotBeUsedStopsTheStart() throws Exception {
        TestKeyStores.Pair stores = keyStores();
        ConfigException wrongPassword = assertThrows(ConfigException.class, () -> TestServers.config(data, 0,
            Map.of("fix.tls.keyStore", stores.keyStore().toString(), "fix.tls.keyStorePassword", "nope")));
        assertTrue(wrongPassword.getMessage().startsWith("fix.tls.keyStore "), wrongPassword.getMessage());
        assertFalse(wrongPassword.getMessage().contains("nope"), "the password is never shown");
        ConfigException noKey = assertThrows(ConfigException.class, () -> TestServers.config(data, 0,
            Map.of("fix.tls.keyStore", stores.trustStore().toString(), "fix.tls.keyStorePassword", "changeit")));
        assertTrue(noKey.getMessage().contains("holds no private key"), noKey.getMessage());
        Path missing = data.resolve("missing.p12");
        assertFalse(Files.exists(missing));
        assertThrows(ConfigException.class, () -> TestServers.config(data, 0,
            Map.of("fix.tls.keyStore", missing.toString())));
    }

    /** A failed Logon from {@code localAddress}: the one Logout text, then the connection closes. */
    private static void assertRefused(String localAddress, String compId, String username, String password)
        throws Exception {
        try (RawFixClient client = logOn(localAddress, compId, username, password)) {
            RawFix.Msg logout = client.expect("5");
            assertField(logout, 58, MalformedInputRawTest.LOGON_REFUSED);
            client.awaitClosedByServer(TIMEOUT);
        }
    }

    private static RawFixClient logOn(String localAddress, String compId, String username, String password)
        throws IOException {
        RawFixClient client = new RawFixClient(server.port(), compId, localAddress);
        client.send(credentials(client.header("A").field(98, 0).field(108, 30), username, password));
        return client;
    }

    private static FixBuilder credentials(FixBuilder logon, String username, String password) {
        if (username != null) {
            logon.field(553, username);
        }
        if (password != null) {
            logon.field(554, password);
        }
        return logon;
    }

    /**
     * CLIENT1 logged on from {@code localAddress} with the right credentials (and a reset), retrying while the
     * server still holds a connection of the session another test just closed.
     */
    private static RawFixClient loggedOn(String localAddress) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            RawFixClient client = new RawFixClient(server.port(), "CLIENT1", localAddress);
            client.send(credentials(client.header("A").field(98, 0).field(108, 30).field(141, "Y"), "alice",
                "s3cret"));
            RawFix.Msg reply = client.next();
            if (reply.type().equals("A")) {
                return client;
            }
            client.close();
            assertTrue(reply.get(58) != null && reply.get(58).contains("already logged on")
                && System.nanoTime() < deadline, "logon refused: " + reply);
            Thread.sleep(20);
        }
    }
}
