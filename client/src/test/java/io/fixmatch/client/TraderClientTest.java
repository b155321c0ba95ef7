package io.fixmatch.client;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.server.ConfigKeys;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.ServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trader's terminal against a real server: commands typed into the client's stdin, reports read from its
 * output as a person sees them. And its refusals: one line, at once, never a wait for a timeout. (The demo, on the
 * same classes, runs through scripts/demo.sh in the dist module's tests.)
 */
class TraderClientTest {
    @TempDir
    java.nio.file.Path dir;

    private FixmatchServer server;

    @BeforeEach
    void startServer() throws InterruptedException {
        server = FixmatchServer.start(ServerConfig.read(ConfigKeys.embedded(Map.of("FIXMATCH_ENGINE_MAX_ORDERS",
            "10000", "FIXMATCH_ENGINE_MAX_PRICE_LEVELS", "10000"), List.of(
            new ConfigKeys.Flag("--port", "fix.port", "0"), new ConfigKeys.Flag("--admin-port", "admin.port", "0"),
            new ConfigKeys.Flag("--data", "data.dir",
                dir.resolve("data").toString())))));
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    @Timeout(value = ClientProcess.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void aTraderTypesOrdersAndSeesTheReportsAsTheyArrive() throws Exception {
        try (ClientProcess seller = client("--sender", "CLIENT1");
             ClientProcess buyer = client("--sender", "CLIENT2")) {
            seller.await("^logged on to 127.0.0.1:" + server.port() + " as CLIENT1; type help");
            buyer.await("^logged on to 127.0.0.1:" + server.port() + " as CLIENT2");

            seller.type("sell AAPL 100 150.10");
            seller.await("^order 1: sell 100 AAPL @ 150.10 DAY$");
            seller.await("^order 1 NEW: sell 100 AAPL @ 150.1 \\(OrderID \\d+\\)$");

            buyer.type("buy aapl 40 150.10 ioc");
            buyer.await("^order 1 NEW: buy 40 AAPL @ 150.1 ");
            buyer.await("^order 1 TRADE: bought 40 @ 150.1 \\(filled 40 of 40, leaves 0, avg 150.1\\)$");
            seller.await("^order 1 TRADE: sold 40 @ 150.1 \\(filled 40 of 100, leaves 60, avg 150.1\\)$");

            seller.type("replace 1 80 150.20");
            seller.await("^order 1 REPLACED: now 80 @ 150.2 \\(filled 40 of 80, leaves 40, avg 150.1\\)$");
            seller.type("status 1");
            seller.await("^order 1 STATUS: PARTIALLY FILLED \\(filled 40 of 80, leaves 40, avg 150.1\\)$");
            seller.type("cancel 1");
            seller.await("^order 1 CANCELED \\(filled 40 of 80, leaves 0, avg 150.1\\)");
            seller.type("cancel 1");
            seller.await("^order 1 CANCEL REJECTED: ");

            seller.type("buy NOPE 1 1.00");
            seller.await("^order 2 REJECTED: .*symbol");
            seller.type("buy AAPL ten 1.00");
            seller.await("^quantity must be a positive whole number, was ten$");
            seller.type("cancel 7");
            seller.await("^no order 7 sent from here");
            seller.type("frobnicate");
            seller.await("^unknown command 'frobnicate' \\(help lists the commands\\)$");
            seller.type("orders");
            seller.await("^order 1: sell 80 AAPL @ 150.2 DAY \\(ClOrdID ");
            seller.type("help");
            seller.await("^  replace N QTY PRICE");

            seller.type("quit");
            seller.await("^logged out$");
            assertEquals(0, seller.exitStatus(), seller.output());
            buyer.endInput();
            buyer.await("^logged out$");
            assertEquals(0, buyer.exitStatus(), buyer.output());
        }
    }

    @Test
    @Timeout(value = ClientProcess.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void anUnknownSenderIsToldTheServersReasonAtOnce() throws Exception {
        // Timed from the server's refusal, not from the client's start: a JVM can take 10 s to start on a busy
        // machine, and that says nothing about the client waiting for its logon timeout (10 s) after the refusal.
        ListAppender<ILoggingEvent> refusals = new ListAppender<>();
        Logger connectionLog = (Logger) LoggerFactory.getLogger("io.fixmatch.fix.transport.FixConnectionHandler");
        refusals.start();
        connectionLog.addAppender(refusals);
        try (ClientProcess client = client("--sender", "NOBODY")) {
            client.await("^fixmatch-client: 127.0.0.1:" + server.port() + " refused the logon of NOBODY: Logon refused: "
                + "invalid SenderCompID, Username, Password or source address$");
            long toldAt = System.currentTimeMillis();
            long refusedAt = refusals.list.stream().filter(event -> event.getFormattedMessage().contains(
                "Logon refused: unknown SenderCompID NOBODY")).findFirst().orElseThrow().getTimeStamp();
            assertTrue(toldAt - refusedAt < 8_000, "the refusal must not wait for a timeout: told "
                + (toldAt - refusedAt) + " ms after the server refused");
            assertEquals(1, client.exitStatus(), client.output());
        } finally {
            connectionLog.detachAppender(refusals);
        }
    }

    @Test
    @Timeout(value = ClientProcess.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void anotherFirmsAcceptorIsNotMistakenForTheServer() throws Exception {
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> answerLogonAs("OTHER", other), "other-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            try (ClientProcess client = ClientProcess.start(TraderClient.class, "--port",
                Integer.toString(other.getLocalPort()))) {
                client.await("^fixmatch-client: the FIX acceptor at 127.0.0.1:" + other.getLocalPort()
                    + " answered as OTHER, not FIXMATCH");
                assertEquals(1, client.exitStatus(), client.output());
            }
        }
    }

    @Test
    @Timeout(value = ClientProcess.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void nothingListeningAndBadArgumentsAreOneLine() throws Exception {
        int free;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            free = socket.getLocalPort();
        }
        try (ClientProcess client = ClientProcess.start(TraderClient.class, "--port", Integer.toString(free))) {
            client.await("^fixmatch-client: cannot connect to 127.0.0.1:" + free + " .*is a fixmatch server running");
            assertEquals(1, client.exitStatus(), client.output());
        }
        try (ClientProcess client = ClientProcess.start(TraderClient.class, "--sendr", "CLIENT1")) {
            client.await("^fixmatch-client: Unknown option.*--sendr.*did you mean --sender\\?");
            assertEquals(2, client.exitStatus(), client.output());
        }
    }

    private ClientProcess client(String... args) throws java.io.IOException {
        String[] all = new String[args.length + 2];
        all[0] = "--port";
        all[1] = Integer.toString(server.port());
        System.arraycopy(args, 0, all, 2, args.length);
        return ClientProcess.start(TraderClient.class, all);
    }

    /** A FIX acceptor of someone else: answers every Logon with a Logon of its own CompID. */
    private static void answerLogonAs(String compId, ServerSocket listening) {
        while (!listening.isClosed()) {
            try (Socket socket = listening.accept()) {
                answerLogonAs(compId, socket);
            } catch (java.io.IOException e) {
                // the client hung up, or the test is over
            }
        }
    }

    private static void answerLogonAs(String compId, Socket socket) throws java.io.IOException {
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        if (in.read(buffer) > 0) {
            OutputStream out = socket.getOutputStream();
            out.write(FixBuilder.header("A", compId, "CLIENT1", 1).field(98, 0).field(108, 30).field(141, "Y").bytes());
            out.flush();
            while (in.read(buffer) > 0) {
                // until the client hangs up
            }
        }
    }
}
