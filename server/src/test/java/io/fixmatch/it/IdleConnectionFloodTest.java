package io.fixmatch.it;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fixmatch.server.AdminSettings;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A flood of connections that never log on (issue 21): hundreds of idle sockets, then real QuickFIX/J clients log on
 * and trade. Over the caps the oldest idle connection is closed to let the new one in, so the idle sockets never keep
 * a counterparty out; the metrics count them, and one WARN line per address (not per connection) says so. The
 * server's logon timeout is a minute here, so nothing but the caps closes the idle sockets during the test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IdleConnectionFloodTest {
    private static final int IDLE = 300;

    @TempDir
    Path data;
    private final List<Socket> idle = new ArrayList<>();
    private final ListAppender<ILoggingEvent> warnings = new ListAppender<>();
    private final Logger connectionLog = (Logger) LoggerFactory.getLogger(
        "io.fixmatch.fix.transport.FixConnectionHandler");
    private FixmatchServer server;
    private QfjClient seller;
    private QfjClient buyer;

    @AfterEach
    void close() {
        connectionLog.detachAppender(warnings);
        idle.forEach(socket -> TestServers.closeQuietly(socket));
        TestServers.closeQuietly(seller, buyer, server);
    }

    /** From the clients' own address: the per-address cap closes the oldest idle ones; the clients get in. */
    @Test
    void hundredsOfIdleConnectionsFromTheClientsAddressDoNotKeepThemOut() throws Exception {
        start(Map.of());
        for (int i = 0; i < IDLE; i++) {
            idle.add(openIdle("127.0.0.1"));
        }
        assertTrue(IdleSockets.closedWithin(idle.get(0), RawFixClient.TIMEOUT.toMillis()),
            "the oldest idle connection is closed");
        assertFalse(IdleSockets.closedWithin(idle.get(IDLE - 1), 200), "the newest is let in");

        tradeBetweenTwoQuickFixJClients();

        AdminClient admin = new AdminClient(server.adminPort(), null);
        AdminClient.Metrics metrics = admin.metrics();
        assertTrue(metrics.value("fixmatch_unauthenticated_connections") <= 20, metrics.text());
        assertTrue(metrics.value("fixmatch_unauthenticated_connections_closed_total{cap=\"address\"}") >= IDLE - 20,
            metrics.text());
        List<String> lines = warningsAbout("127.0.0.1: closed its oldest connection not logged on");
        assertFalse(lines.isEmpty(), "a WARN line for the address");
        assertTrue(lines.size() <= 10, "throttled (one a second per address), not one per connection: " + lines);
        assertTrue(lines.get(0).contains("fix.maxUnauthenticatedConnectionsPerAddress"), lines.get(0));
    }

    /** From many addresses (each under its own cap): the server's cap closes the oldest on the server. */
    @Test
    void idleConnectionsFromManyAddressesOverTheServersCapDoNotKeepAClientOut() throws Exception {
        start(Map.of("fix.maxUnauthenticatedConnections", "40"));
        for (int i = 0; i < IDLE; i++) {
            idle.add(openIdle("127.0.0." + (2 + i % 30))); // 10 from each of 30 addresses
        }
        assertTrue(IdleSockets.closedWithin(idle.get(0), RawFixClient.TIMEOUT.toMillis()),
            "the oldest idle connection is closed");
        assertFalse(IdleSockets.closedWithin(idle.get(IDLE - 1), 200), "the newest is let in");

        tradeBetweenTwoQuickFixJClients();

        AdminClient.Metrics metrics = new AdminClient(server.adminPort(), null).metrics();
        assertTrue(metrics.value("fixmatch_unauthenticated_connections_closed_total{cap=\"server\"}") >= IDLE - 40,
            metrics.text());
        assertEquals(0.0, metrics.value("fixmatch_unauthenticated_connections_closed_total{cap=\"address\"}"));
        List<String> lines = warningsAbout("closed its oldest connection not logged on");
        assertFalse(lines.isEmpty());
        assertTrue(lines.get(0).contains("fix.maxUnauthenticatedConnections)"), lines.get(0));
    }

    private void start(Map<String, String> overrides) throws InterruptedException {
        warnings.start();
        connectionLog.addAppender(warnings);
        Map<String, String> config = new java.util.HashMap<>(overrides);
        config.put("fix.logonTimeoutMs", "60000");
        server = FixmatchServer.start(TestServers.config(data, 0, config)
            .withAdmin(new AdminSettings("127.0.0.1", AdminSettings.ANY_FREE_PORT, null)));
    }

    /** CLIENT1 sells, CLIENT2 buys at the same price: both get their fill. */
    private void tradeBetweenTwoQuickFixJClients() throws Exception {
        seller = QfjClient.logOn("CLIENT1", server.port());
        buyer = QfjClient.logOn("CLIENT2", server.port());
        seller.send(Orders.limit("FLOOD-S", "AAPL", Orders.SELL, 10, "150.00"));
        Orders.assertFields(seller.nextApp("8"), 11, "FLOOD-S", 150, "0");
        buyer.send(Orders.limit("FLOOD-B", "AAPL", Orders.BUY, 10, "150.00"));
        Orders.assertFields(buyer.nextApp("8"), 11, "FLOOD-B", 150, "0");
        Orders.assertFields(buyer.nextApp("8"), 11, "FLOOD-B", 150, "F", 39, "2");
        Orders.assertFields(seller.nextApp("8"), 11, "FLOOD-S", 150, "F", 39, "2");
    }

    private Socket openIdle(String localAddress) throws IOException {
        return IdleSockets.open(server.port(), localAddress);
    }

    private List<String> warningsAbout(String text) {
        return warnings.list.stream().filter(event -> event.getLevel() == Level.WARN)
            .map(ILoggingEvent::getFormattedMessage).filter(message -> message.contains(text)).toList();
    }
}
