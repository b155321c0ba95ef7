package io.fixmatch.it;

import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.ServerConfig;
import io.fixmatch.server.WaitBounds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that connect while the server starts (issue 21): a FIX engine reconnecting every few seconds around a
 * venue restart lands in the start-up sooner or later. Each start, a client spins on the port and connects in the
 * first moment it accepts (before recovery), sends its Logon at once, and more sessions connect and log on right
 * behind it; every Logon is answered once the server is ready: no connection reset, none left hanging. Several
 * starts on the same data folder, each recovering what the last one journaled.
 */
class StartUpConnectionsTest {
    private static final int STARTS = 5;
    private static final int SESSIONS = 8;

    @TempDir
    Path data;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyConnectionMadeDuringStartUpHasItsLogonAnsweredOnceReady() throws Exception {
        int port = TestServers.freePort();
        List<String> sessions = IntStream.rangeClosed(1, SESSIONS).mapToObj(i -> "S" + i).toList();
        ServerConfig config = TestServers.config(data, port, Map.of("sessions", String.join(",", sessions)));
        for (int start = 1; start <= STARTS; start++) {
            Connector connector = new Connector(port, sessions);
            Thread connecting = new Thread(connector, "connector");
            connecting.start();
            FixmatchServer server = FixmatchServer.start(config);
            long readyAt = System.nanoTime();
            try {
                connecting.join(WaitBounds.ANSWER.toMillis());
                assertTrue(connector.failure == null, "start " + start + ": " + connector.failure);
                assertEquals(SESSIONS, connector.clients.size(), "start " + start);
                assertTrue(connector.firstConnectedAt < readyAt,
                    "start " + start + ": the first client connected before the server was ready");
                for (RawFixClient client : connector.clients) {
                    RawFix.Msg reply = client.next(); // fails on a reset or on silence
                    assertEquals("A", reply.type(), "start " + start + ", " + client.compId + ": " + reply);
                    assertEquals("Y", reply.get(141), reply.toString());
                }
                RawFixClient first = connector.clients.get(0);
                first.send(first.newOrder("START-" + start, "AAPL", "1", 1, "1.00"));
                RawFix.Msg ack = first.expect("8");
                assertEquals("START-" + start, ack.get(11), ack.toString());
            } finally {
                connecting.join(WaitBounds.ANSWER.toMillis());
                // The clients go first: a server stopping with them logged on would wait 2 s for Logout replies that
                // these raw clients never send.
                connector.clients.forEach(RawFixClient::close);
                TestServers.closeQuietly(server);
            }
        }
    }

    /** Connects each session as soon as the port accepts, sending its Logon at once. */
    private static final class Connector implements Runnable {
        private final int port;
        private final List<String> sessions;
        private final List<RawFixClient> clients = new ArrayList<>();
        private volatile long firstConnectedAt;
        private volatile String failure;

        Connector(int port, List<String> sessions) {
            this.port = port;
            this.sessions = sessions;
        }

        @Override
        public void run() {
            long deadline = System.nanoTime() + WaitBounds.ANSWER.toNanos();
            try {
                for (String session : sessions) {
                    RawFixClient client = connect(session, deadline);
                    if (clients.isEmpty()) {
                        firstConnectedAt = System.nanoTime();
                    }
                    client.send(client.header("A").field(98, 0).field(108, 30).field(141, "Y"));
                    clients.add(client); // read by the test after join()
                }
            } catch (Exception | AssertionError e) {
                failure = e.toString();
            }
        }

        /** Tries to connect until the port accepts (refused while nothing listens). */
        private RawFixClient connect(String session, long deadline) throws IOException {
            while (true) {
                try {
                    return new RawFixClient(port, session);
                } catch (ConnectException refused) {
                    if (System.nanoTime() > deadline) {
                        throw refused;
                    }
                    Thread.onSpinWait();
                }
            }
        }
    }
}
