package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.NewSeqNo;
import quickfix.field.TestReqID;
import quickfix.fix44.SequenceReset;
import quickfix.fix44.TestRequest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static io.fixmatch.it.Orders.dec;
import static io.fixmatch.it.Orders.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Session-level behaviour with unmodified QuickFIX/J initiators: logon and logout, resends after a gap on the
 * client side, sequence resets from the client, a server restart that the client rides out without resetting its
 * sequence numbers, and cancel-on-disconnect. A fresh server (and data folder) per test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@BothModes
class QfjSessionLifecycleTest {
    /** QFJ logs a failed connection attempt as an error: expected while the server is down for a restart. */
    private static final Pattern CONNECT_FAILURE = Pattern.compile("during connection to");

    @TempDir
    Path temp;
    /** Clients are stopped forcibly after each test: graceful logouts are tested where they matter. */
    @RegisterExtension
    final ServerAndClients running = new ServerAndClients();
    private FixmatchServer server;

    private FixmatchServer startServer(int port) throws InterruptedException {
        server = running.use(TestServers.start(temp.resolve("server"), port, Map.of()));
        return server;
    }

    private QfjClient logOn(String compId, QfjClient.Options options) throws Exception {
        return logOnTogether(Map.of(compId, options)).get(compId);
    }

    /**
     * Starts several initiators at once and waits for all their logons (each logs on at its session timer's next
     * tick: {@link QuickFixJTimer}).
     */
    private Map<String, QfjClient> logOnTogether(Map<String, QfjClient.Options> options) throws Exception {
        Map<String, QfjClient> started = new java.util.HashMap<>();
        for (Map.Entry<String, QfjClient.Options> entry : options.entrySet()) {
            QfjClient client = new QfjClient(entry.getKey(), server.port(), entry.getValue());
            running.add(client);
            client.start();
            started.put(entry.getKey(), client);
        }
        for (QfjClient client : started.values()) {
            client.awaitLogons(1);
        }
        return started;
    }

    private static Message next(QfjClient client, String msgType) throws InterruptedException {
        Message message = client.nextApp(msgType);
        Orders.assertValidFix44(message);
        return message;
    }

    private static List<RawFix.Msg> incoming(QfjClient client, String msgType) {
        return client.incomingRaw().stream().map(RawFix.Msg::parse).filter(m -> msgType.equals(m.type())).toList();
    }

    private static List<RawFix.Msg> outgoing(QfjClient client, String msgType) {
        return client.outgoingRaw().stream().map(RawFix.Msg::parse).filter(m -> msgType.equals(m.type())).toList();
    }

    @Test
    void logonAndLogoutThenLogonAgainWithContinuingSequenceNumbers() throws Exception {
        startServer(0);
        Path store = temp.resolve("client1-store");
        QfjClient first = logOn("CLIENT1", new QfjClient.Options().fileStore(store));

        RawFix.Msg logon = incoming(first, "A").get(0);
        RawFixClient.assertField(logon, 49, "FIXMATCH");
        RawFixClient.assertField(logon, 56, "CLIENT1");
        RawFixClient.assertField(logon, 34, 1);
        RawFixClient.assertField(logon, 98, 0);
        RawFixClient.assertField(logon, 108, 30);
        first.send(Orders.limit("L-1", "AAPL", BUY, 1, "1.00"));
        assertFields(next(first, "8"), 11, "L-1", 150, "0");

        first.close(); // QFJ sends Logout and waits for the server's
        RawFix.Msg logoutReply = incoming(first, "5").get(0);
        RawFixClient.assertField(logoutReply, 34, 3);
        first.assertNoProtocolErrors();
        assertEquals(1, outgoing(first, "5").size(), () -> "Logouts sent: " + outgoing(first, "5") + "; QFJ events: "
            + first.events());

        // The server has let the session go: the same session logs on again, numbers continuing on both sides.
        QfjClient second = logOn("CLIENT1", new QfjClient.Options().fileStore(store));
        RawFix.Msg secondLogon = incoming(second, "A").get(0);
        RawFixClient.assertField(secondLogon, 34, 4);
        assertNull(secondLogon.get(141), "no sequence reset");
        RawFixClient.assertField(outgoing(second, "A").get(0), 34, 4);
        second.send(Orders.status("L-1", "AAPL", BUY));
        assertFields(next(second, "8"), 11, "L-1", 150, "I", 39, "0");
        second.assertNoProtocolErrors();
        assertTrue(incoming(second, "2").isEmpty(), "no ResendRequest from the server");
        assertTrue(outgoing(second, "2").isEmpty(), "no ResendRequest from QFJ");
    }

    @Test
    void logonWithResetSeqNumFlagFromQuickFixJ() throws Exception {
        startServer(0);
        QfjClient.Options reset = new QfjClient.Options().resetOnLogon(true);
        QfjClient first = logOn("CLIENT2", reset);
        first.send(Orders.limit("RESET-1", "AAPL", BUY, 1, "1.00"));
        assertFields(next(first, "8"), 11, "RESET-1", 34, "2");
        first.stopForcibly();
        first.assertNoProtocolErrors();

        QfjClient second = logOn("CLIENT2", reset);
        RawFix.Msg logon = incoming(second, "A").get(0);
        RawFixClient.assertField(logon, 34, 1);
        RawFixClient.assertField(logon, 141, "Y");
        second.send(Orders.status("RESET-1", "AAPL", BUY));
        assertFields(next(second, "8"), 11, "RESET-1", 150, "I", 39, "0", 34, "2");
        second.assertNoProtocolErrors();
    }

    @Test
    void heartbeatsKeepAnIdleSessionUp() throws Exception {
        startServer(0);
        QfjClient client = logOn("CLIENT1", new QfjClient.Options().heartBtInt(1));
        RawFixClient.assertField(incoming(client, "A").get(0), 108, 1);
        // Idle for a while: both sides heartbeat (and may test-request each other); nobody gives up.
        QfjClient.awaitCondition(() -> incoming(client, "0").size() >= 3 && outgoing(client, "0").size() >= 3,
            "three heartbeats each way");
        assertTrue(client.isLoggedOn());
        assertEquals(1, client.logonCount());
        assertTrue(incoming(client, "5").isEmpty(), "no Logout from the server");
        client.send(Orders.limit("HB-1", "AAPL", BUY, 1, "1.00"));
        assertFields(next(client, "8"), 11, "HB-1", 150, "0");
        client.assertNoProtocolErrors();
    }

    @Test
    void resendRequestAfterAClientSideGap() throws Exception {
        startServer(0);
        QfjClient client = logOn("CLIENT1", new QfjClient.Options());
        client.send(Orders.limit("G-A", "MSFT", BUY, 1, "1.00"));     // server seq 2: ER
        assertFields(next(client, "8"), 11, "G-A", 43, null);
        client.send(new TestRequest(new TestReqID("probe")));         // server seq 3: Heartbeat (admin)
        client.nextAdmin(m -> "0".equals(QfjClient.msgType(m)) && "probe".equals(field(m, 112)));
        client.send(Orders.limit("G-B", "MSFT", BUY, 2, "1.00"));     // server seq 4: ER
        assertFields(next(client, "8"), 11, "G-B", 43, null);

        // The client "forgets" messages 2..4: the next one (5) is a gap, QFJ asks for 2 onwards. (QFJ counts a
        // message after handing it to the application: wait for that before moving the number back.)
        QfjClient.awaitCondition(() -> client.session().getExpectedTargetNum() == 5, "QFJ expecting 5");
        client.session().setNextTargetMsgSeqNum(2);
        client.send(Orders.status("G-A", "MSFT", BUY));             // server seq 5: ER

        Message resentA = next(client, "8");
        assertFields(resentA, 11, "G-A", 150, "0", 34, "2", 43, "Y");
        assertNotNull(field(resentA, 122), "OrigSendingTime on a resend");
        Message resentB = next(client, "8");
        assertFields(resentB, 11, "G-B", 150, "0", 34, "4", 43, "Y");
        Message status = next(client, "8");
        assertFields(status, 11, "G-A", 150, "I", 34, "5");
        QfjClient.awaitCondition(() -> client.session().getExpectedTargetNum() == 6, "QFJ expecting 6");

        RawFix.Msg resendRequest = outgoing(client, "2").get(0);
        RawFixClient.assertField(resendRequest, 7, 2);
        RawFix.Msg gapFill = incoming(client, "4").get(0);
        RawFixClient.assertField(gapFill, 34, 3);
        RawFixClient.assertField(gapFill, 123, "Y");
        RawFixClient.assertField(gapFill, 36, 4);
        RawFixClient.assertField(gapFill, 43, "Y");
        assertNotNull(gapFill.get(122), "OrigSendingTime on a gap fill");
        client.assertNoProtocolErrors();

        // The session goes on normally.
        client.send(Orders.limit("G-C", "MSFT", BUY, 3, "1.00"));
        assertFields(next(client, "8"), 11, "G-C", 150, "0", 34, "6", 43, null);
        client.assertNoPendingApp();
        client.assertNoProtocolErrors();
    }

    @Test
    void sequenceResetGapFillAndResetFromTheClientAreHonoured() throws Exception {
        startServer(0);
        QfjClient client = logOn("CLIENT1", new QfjClient.Options());
        client.send(Orders.limit("S-1", "GOOG", BUY, 1, "1.00"));
        assertFields(next(client, "8"), 11, "S-1", 150, "0");

        // Gap fill: the client skips 5 numbers; the server asks for them, QFJ gap-fills and resends the order.
        int skipFrom = client.session().getStore().getNextSenderMsgSeqNum();
        client.session().setNextSenderMsgSeqNum(skipFrom + 5);
        client.send(Orders.limit("S-2", "GOOG", BUY, 2, "1.00"));
        assertFields(next(client, "8"), 11, "S-2", 150, "0", 39, "0");
        RawFix.Msg resendRequest = incoming(client, "2").get(0);
        RawFixClient.assertField(resendRequest, 7, skipFrom);
        RawFixClient.assertField(resendRequest, 16, 0);
        RawFix.Msg gapFill = outgoing(client, "4").get(0);
        RawFixClient.assertField(gapFill, 123, "Y");
        RawFixClient.assertField(gapFill, 34, skipFrom);

        // Reset: SequenceReset without GapFillFlag moves the server's expected number whatever its own number.
        int resetAt = client.session().getStore().getNextSenderMsgSeqNum();
        SequenceReset reset = new SequenceReset(new NewSeqNo(resetAt + 100));
        client.send(reset);
        client.session().setNextSenderMsgSeqNum(resetAt + 100);
        client.send(Orders.limit("S-3", "GOOG", BUY, 3, "1.00"));
        Message ack = next(client, "8");
        assertFields(ack, 11, "S-3", 150, "0");
        assertEquals(1, incoming(client, "2").size(), "no further ResendRequest from the server");
        RawFixClient.assertField(outgoing(client, "D").stream().filter(m -> "S-3".equals(m.get(11))).findFirst()
            .orElseThrow(), 34, resetAt + 100);
        client.assertNoPendingApp();
        client.assertNoProtocolErrors();
    }

    @Test
    void serverRestartKeepsBooksAndSequenceNumbers() throws Exception {
        int port = startServer(0).port();
        QfjClient.Options options1 = new QfjClient.Options().fileStore(temp.resolve("client1-store"));
        QfjClient client1 = logOn("CLIENT1", options1);
        client1.send(Orders.limit("RS-SELL", "AAPL", SELL, 100, "20.00"));
        Message ack = next(client1, "8");
        assertFields(ack, 11, "RS-SELL", 150, "0");
        client1.send(Orders.limit("RS-OTHER", "AAPL", SELL, 10, "21.00"));
        Message otherAck = next(client1, "8");
        int clientSeqBefore = client1.session().getStore().getNextSenderMsgSeqNum();

        // Restart on the same port and data folder; the QFJ client keeps running and reconnects by itself.
        server.close();
        client1.awaitLoggedOut();
        server = null;
        startServer(port);
        client1.awaitLogons(2);

        List<RawFix.Msg> logons = incoming(client1, "A");
        RawFix.Msg secondLogon = logons.get(logons.size() - 1);
        assertNull(secondLogon.get(141), "no sequence reset at the reconnect");
        assertTrue(secondLogon.seqNum() > 1, "the server continued its numbering: " + secondLogon);
        List<RawFix.Msg> sentLogons = outgoing(client1, "A");
        assertEquals(clientSeqBefore + 1, sentLogons.get(sentLogons.size() - 1).seqNum(),
            "the client continued its numbering (its Logout used one number)");

        // The books survived: CLIENT2 (new) trades with the order resting from before the restart.
        QfjClient client2 = logOn("CLIENT2", new QfjClient.Options());
        client2.send(Orders.limit("RS-BUY", "AAPL", BUY, 40, "20.50"));
        assertFields(next(client2, "8"), 11, "RS-BUY", 150, "0");
        Message buyFill = next(client2, "8");
        assertFields(buyFill, 11, "RS-BUY", 150, "F", 39, "2", 32, "40", 31, dec("20"), 14, "40", 151, "0");
        Message sellFill = next(client1, "8");
        assertFields(sellFill, 11, "RS-SELL", 37, field(ack, 37), 150, "F", 39, "1", 32, "40", 31, dec("20"),
            14, "40", 151, "60");
        assertTrue(Long.parseLong(field(sellFill, 17)) > Long.parseLong(field(otherAck, 17)),
            "exec ids continue after the restart");

        client1.send(Orders.cancel("RS-OTHER-C", "RS-OTHER", "AAPL", SELL));
        assertFields(next(client1, "8"), 11, "RS-OTHER-C", 41, "RS-OTHER", 37, field(otherAck, 37), 150, "4",
            39, "4");
        client1.send(Orders.status("RS-SELL", "AAPL", SELL));
        Message status = next(client1, "8");
        assertFields(status, 11, "RS-SELL", 150, "I", 39, "1", 14, "40", 151, "60");

        // The server logged the client out when it stopped.
        RawFix.Msg shutdownLogout = incoming(client1, "5").get(0);
        RawFixClient.assertField(shutdownLogout, 58, "server shutting down");

        // What the server sent before the restart can still be resent after it.
        int expected = Integer.parseInt(field(status, 34)) + 1;
        QfjClient.awaitCondition(() -> client1.session().getExpectedTargetNum() == expected, "QFJ counted " + status);
        client1.session().setNextTargetMsgSeqNum(2);
        client1.send(Orders.status("RS-OTHER", "AAPL", SELL));
        Message resentAck = next(client1, "8");
        assertFields(resentAck, 34, "2", 43, "Y", 11, "RS-SELL", 150, "0", 37, field(ack, 37), 17, field(ack, 17),
            60, field(ack, 60));
        assertFields(next(client1, "8"), 34, "3", 43, "Y", 11, "RS-OTHER", 150, "0");
        // ... then the reports from after the restart, resent too, then the answer to the status request.
        List<Message> rest = new ArrayList<>();
        Message last;
        do {
            last = next(client1, "8");
            rest.add(last);
        } while (rest.size() < 10 && !("I".equals(field(last, 150)) && "RS-OTHER".equals(field(last, 11))));
        assertFields(last, 11, "RS-OTHER", 150, "I", 39, "8");
        assertEquals(List.of("RS-SELL", "RS-OTHER-C", "RS-SELL"), rest.stream().limit(3).map(m -> field(m, 11))
            .toList(), "the fill, the cancel and the status answer after the restart, resent");
        assertEquals(4, rest.size());

        client1.assertNoPendingApp();
        client2.assertNoPendingApp();
        client1.assertNoProtocolErrors(CONNECT_FAILURE);
        client2.assertNoProtocolErrors();
    }

    @Test
    void cancelOnDisconnectForLoadgen() throws Exception {
        server = running.use(TestServers.start(temp.resolve("server"), 0, Map.of(), TestServers.admin(null)));
        AdminClient admin = new AdminClient(server.adminPort(), null);
        QfjClient.Options loadgenOptions = new QfjClient.Options().fileStore(temp.resolve("loadgen-store"));
        Map<String, QfjClient> all = logOnTogether(Map.of("LOADGEN", loadgenOptions,
            "CLIENT1", new QfjClient.Options(), "CLIENT2", new QfjClient.Options()));
        QfjClient loadgen = all.get("LOADGEN");
        QfjClient client1 = all.get("CLIENT1");
        QfjClient client2 = all.get("CLIENT2");
        loadgen.send(Orders.limit("LG-1", "AAPL", SELL, 100, "50.00"));
        assertFields(next(loadgen, "8"), 11, "LG-1", 150, "0");
        loadgen.send(Orders.limit("LG-2", "MSFT", BUY, 7, "10.00"));
        assertFields(next(loadgen, "8"), 11, "LG-2", 150, "0");
        loadgen.close(); // Logout: the server cancels LOADGEN's orders
        loadgen.assertNoProtocolErrors();

        // LOADGEN comes back with its sequence numbers: it learns (live or by resend) that its orders were canceled.
        QfjClient again = logOn("LOADGEN", loadgenOptions);
        List<Message> canceled = List.of(next(again, "8"), next(again, "8"));
        for (Message report : canceled) {
            assertFields(report, 150, "4", 39, "4", 151, "0", 14, "0", 41, null);
        }
        assertEquals(List.of("LG-1", "LG-2"), canceled.stream().map(m -> field(m, 11)).sorted().toList());
        again.send(Orders.status("LG-1", "AAPL", SELL));
        assertFields(next(again, "8"), 11, "LG-1", 150, "I", 39, "8", 37, "NONE");

        // CLIENT1's crossing order finds nothing to trade with (the status answer comes after any fill would).
        client1.send(Orders.limit("C1-BUY", "AAPL", BUY, 100, "50.00"));
        assertFields(next(client1, "8"), 11, "C1-BUY", 150, "0", 39, "0");
        client1.send(Orders.status("C1-BUY", "AAPL", BUY));
        assertFields(next(client1, "8"), 11, "C1-BUY", 150, "I", 39, "0", 14, "0", 151, "100");
        client1.assertNoPendingApp();

        // A session without cancel-on-disconnect keeps its orders when its connection drops. CLIENT2's order is sent
        // once the server has seen the drop: a cancel it caused would be queued before the order, not race it.
        client1.stopForcibly();
        QfjClient.awaitCondition(() -> !loggedOn(admin, "CLIENT1"), "the server saw CLIENT1's connection drop");
        client2.send(Orders.limit("C2-SELL", "AAPL", SELL, 100, "50.00"));
        assertFields(next(client2, "8"), 11, "C2-SELL", 150, "0");
        assertFields(next(client2, "8"), 11, "C2-SELL", 150, "F", 39, "2", 32, "100", 31, dec("50"));

        again.assertNoPendingApp();
        client2.assertNoPendingApp();
        for (QfjClient client : List.of(again, client1, client2)) {
            client.assertNoProtocolErrors();
        }
    }

    /** Whether the server's /sessions shows the session logged on. */
    private static boolean loggedOn(AdminClient admin, String compId) {
        try {
            for (JsonNode session : admin.getJson("/sessions", 200).get("sessions")) {
                if (compId.equals(session.get("compId").asText())) {
                    return session.get("loggedOn").asBoolean();
                }
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
        throw new AssertionError("no session " + compId + " in /sessions");
    }
}
