package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import quickfix.Message;
import quickfix.field.BeginSeqNo;
import quickfix.field.EndSeqNo;
import quickfix.fix44.ResendRequest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drop copy with unmodified QuickFIX/J initiators: a drop-copy session on the other gateway thread than a session it
 * covers receives a copy of every report of the sessions it covers (acks, fills, replaces, cancels, rejects,
 * OrderCancelRejects; not status answers) and none of the others', each marked (DeliverToCompID = the original
 * session, CopyMsgIndicator=Y on ExecutionReports) and otherwise identical to the original, in each session's order;
 * numbered and stored, so a ResendRequest after a server restart brings the same copies back; and it enters no orders.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@BothModes
class DropCopyTest {
    /** Header and trailer fields: what differs between an original and its copy apart from 128 and 797. */
    private static final Set<String> ENVELOPE = Set.of("8", "9", "35", "49", "56", "34", "52", "43", "97", "122", "10");
    private static final Map<String, String> CONFIG = Map.of("server.layout", "two-threads", "gateway.threads", "2",
        "sessions", "CLIENT1,CLIENT2,CLIENT3,DROPCOPY", "session.DROPCOPY.dropCopyFor", "CLIENT1,CLIENT2");

    /** The server's restart drops the connections: QuickFIX/J logs that as an error event. */

    @TempDir
    Path temp;
    @RegisterExtension
    final ServerAndClients running = new ServerAndClients();
    private FixmatchServer server;

    @Test
    void theDropCopySessionGetsACopyOfEveryReportOfTheSessionsItCoversAndCanHaveThemResent() throws Exception {
        server = running.use(TestServers.start(temp, 0, CONFIG));
        int port = server.port();
        // owner 1 (CLIENT1) and 3 (CLIENT3) on gateway 0, owner 2 (CLIENT2) and 4 (DROPCOPY) on gateway 1: the copies
        // of CLIENT1's reports cross from the matching thread to the other gateway's ring (standalone; a cluster
        // gateway process has one gateway thread, its copies come from the nodes' service)
        QfjClient client1 = running.logOn("CLIENT1", port);
        QfjClient client2 = running.logOn("CLIENT2", port);
        QfjClient client3 = running.logOn("CLIENT3", port);
        QfjClient dropCopy = running.logOn("DROPCOPY", port);

        client1.send(Orders.limit("S1", "AAPL", SELL, 100, "50.00"));
        assertFields(client1.nextApp("8"), 11, "S1", 150, "0");
        client2.send(Orders.limit("B2", "AAPL", BUY, 60, "50.00"));
        assertFields(client2.nextApp("8"), 11, "B2", 150, "0");
        assertFields(client2.nextApp("8"), 11, "B2", 150, "F", 32, "60");
        assertFields(client1.nextApp("8"), 11, "S1", 150, "F", 32, "60");
        client3.send(Orders.limit("B3", "AAPL", BUY, 10, "50.00"));
        assertFields(client3.nextApp("8"), 11, "B3", 150, "0");
        assertFields(client3.nextApp("8"), 11, "B3", 150, "F", 32, "10");
        assertFields(client1.nextApp("8"), 11, "S1", 150, "F", 32, "10");
        client1.send(Orders.replace("S1R", "S1", "AAPL", SELL, 90, "50.01"));
        assertFields(client1.nextApp("8"), 11, "S1R", 150, "5");
        client1.send(Orders.cancel("S1C", "S1R", "AAPL", SELL));
        assertFields(client1.nextApp("8"), 11, "S1C", 150, "4");
        client1.send(Orders.cancel("XC", "NOSUCH", "AAPL", SELL));
        assertFields(client1.nextApp("9"), 11, "XC", 434, "1");
        client2.send(Orders.limit("B2BIG", "MSFT", BUY, 5_000_000, "10.00"));
        assertFields(client2.nextApp("8"), 11, "B2BIG", 150, "8", 103, "13");
        client2.send(Orders.status("B2", "AAPL", BUY));
        assertFields(client2.nextApp("8"), 11, "B2", 150, "I");

        List<Map<String, String>> expected = new ArrayList<>();
        expected.addAll(originals(client1, "CLIENT1"));
        expected.addAll(originals(client2, "CLIENT2").stream().filter(r -> !"I".equals(r.get("150"))).toList());
        assertEquals(6 + 3, expected.size(), "reports of the covered sessions: " + expected);

        List<Map<String, String>> copies = awaitReports(dropCopy, expected.size(), false);
        for (String original : List.of("CLIENT1", "CLIENT2")) {
            assertEquals(only(expected, original), only(copies, original),
                "the copies of " + original + "'s reports, in its order");
        }
        assertEquals(expected.size(), copies.size(), "no other copies (CLIENT3 is not covered): " + copies);
        for (Map<String, String> copy : copies) {
            assertEquals("8".equals(copy.get("35")) ? "Y" : null, copy.get("797"), "CopyMsgIndicator of " + copy);
        }
        for (int i = 0; i < expected.size(); i++) {
            Message copy = dropCopy.nextApp();
            Orders.assertValidFix44(copy);
        }

        dropCopy.send(Orders.limit("DC1", "AAPL", BUY, 1, "50.00"));
        Message refused = dropCopy.nextApp("j");
        assertFields(refused, 380, "6", 372, "D");
        client1.send(Orders.limit("S2", "AAPL", SELL, 1, "49.00"));
        assertFields(client1.nextApp("8"), 11, "S2", 150, "0"); // rests: the drop copy's buy never reached the book

        List<Map<String, String>> before = awaitReports(dropCopy, copies.size() + 1, false); // and S2's ack

        // the copies are stored like any session's messages: after a restart a ResendRequest brings them back
        server.close();
        server = running.use(TestServers.start(temp, port, CONFIG));
        dropCopy.awaitLogons(2);
        dropCopy.send(new ResendRequest(new BeginSeqNo(1), new EndSeqNo(0)));
        List<Map<String, String>> resent = awaitReports(dropCopy, copies.size() + 1, true);
        assertEquals(before, resent, "the copies resent after a restart");

        for (QfjClient client : running.clients()) {
            client.assertNoProtocolErrors(QfjClient.SERVER_RESTARTED);
        }
        for (Gateway gateway : server.gateways().all()) {
            assertNull(gateway.lastAssertionFailure(), gateway.name() + " broke an assertion in its cycle");
        }
    }

    /**
     * The refusals a gateway makes before the engine sees a request (unknown symbol, price off the tick; here also an
     * OrderCancelReject for an unknown symbol) are copied like the engine's reports, with the same ExecID; with two
     * gateway threads CLIENT1's copies cross to the drop-copy session's gateway (CLIENT2's stay on it). A status
     * answer and the refusals of the uncovered CLIENT3 are not copied.
     */
    @ParameterizedTest(name = "gateway threads: {0}")
    @ValueSource(ints = {1, 2})
    void theDropCopySessionGetsACopyOfEachRefusalTheGatewaysMake(int gatewayThreads) throws Exception {
        Map<String, String> config = new TreeMap<>(CONFIG);
        config.put("gateway.threads", String.valueOf(gatewayThreads));
        config.put("server.layout", gatewayThreads == 1 ? "one-thread" : "two-threads");
        Assumptions.assumeFalse(TestServers.clusterMode() && gatewayThreads > 1, "a cluster gateway process has one"
            + " gateway thread; refusals copied across gateways: ClusterTwoGatewaysTest");
        server = running.use(TestServers.start(temp, 0, config, TestServers.admin(null)));
        int port = server.port();
        JsonNode sessions = new AdminClient(server.adminPort(), null).getJson("/sessions", 200).get("sessions");
        assertEquals("[\"CLIENT1\",\"CLIENT2\"]", sessions.get(3).get("dropCopyFor").toString(), "DROPCOPY's role");
        assertEquals("[\"DROPCOPY\"]", sessions.get(0).get("dropCopies").toString(), "CLIENT1 is covered");
        assertEquals("[]", sessions.get(2).get("dropCopies").toString(), "CLIENT3 is not covered");
        assertEquals("[]", sessions.get(2).get("dropCopyFor").toString(), "CLIENT3 is a trading session");
        assertEquals(gatewayThreads == 1 ? "gateway-0" : "gateway-1", sessions.get(3).get("gateway").asText());
        QfjClient client1 = running.logOn("CLIENT1", port);
        QfjClient client2 = running.logOn("CLIENT2", port);
        QfjClient client3 = running.logOn("CLIENT3", port);
        QfjClient dropCopy = running.logOn("DROPCOPY", port);

        for (QfjClient client : List.of(client1, client2, client3)) {
            String id = client.sessionId().getSenderCompID();
            client.send(Orders.limit(id + "-SYM", "ZZZZ", BUY, 10, "1.00"));
            assertFields(client.nextApp("8"), 11, id + "-SYM", 150, "8", 103, "1", 55, "ZZZZ");
            client.send(Orders.limit(id + "-TICK", "AAPL", SELL, 10, "50.005"));
            assertFields(client.nextApp("8"), 11, id + "-TICK", 150, "8", 103, "99");
        }
        client1.send(Orders.cancel("C1-X", "C1-NONE", "ZZZZ", BUY));
        assertFields(client1.nextApp("9"), 11, "C1-X", 434, "1");
        client1.send(Orders.status("C1-NONE", "ZZZZ", BUY));
        assertFields(client1.nextApp("8"), 11, "C1-NONE", 150, "I");

        List<Map<String, String>> expected = new ArrayList<>();
        expected.addAll(originals(client1, "CLIENT1").stream().filter(r -> !"I".equals(r.get("150"))).toList());
        expected.addAll(originals(client2, "CLIENT2"));
        assertEquals(3 + 2, expected.size(), "refusals of the covered sessions: " + expected);
        for (Map<String, String> original : expected) {
            assertTrue(!"8".equals(original.get("35")) || original.get("17").startsWith("R"),
                "a gateway's refusal: " + original);
        }

        List<Map<String, String>> copies = awaitReports(dropCopy, expected.size(), false);
        for (String original : List.of("CLIENT1", "CLIENT2")) {
            assertEquals(only(expected, original), only(copies, original),
                "the copies of " + original + "'s refusals, in its order, ExecIDs included");
        }
        assertEquals(expected.size(), copies.size(), "no other copies (CLIENT3 is not covered): " + copies);
        for (Map<String, String> copy : copies) {
            assertEquals("8".equals(copy.get("35")) ? "Y" : null, copy.get("797"), "CopyMsgIndicator of " + copy);
        }
        for (int i = 0; i < expected.size(); i++) {
            Orders.assertValidFix44(dropCopy.nextApp());
        }
        for (QfjClient client : running.clients()) {
            client.assertNoProtocolErrors(QfjClient.SERVER_RESTARTED);
        }
        for (Gateway gateway : server.gateways().all()) {
            assertNull(gateway.lastAssertionFailure(), gateway.name() + " broke an assertion in its cycle");
        }
    }

    private static List<Map<String, String>> originals(QfjClient client, String compId) {
        List<Map<String, String>> reports = reports(client.incomingRaw(), false);
        reports.forEach(report -> report.put("128", compId)); // as its copy will say
        return reports;
    }

    /** The reports among these raw messages (first sends, or resends), reduced to their body and 128/797. */
    static List<Map<String, String>> reports(List<String> raw, boolean resends) {
        List<Map<String, String>> reports = new ArrayList<>();
        for (String message : raw) {
            Map<String, String> fields = new TreeMap<>();
            for (String field : message.split(String.valueOf(FixBuilder.SOH))) {
                int equals = field.indexOf('=');
                if (equals > 0) {
                    fields.put(field.substring(0, equals), field.substring(equals + 1));
                }
            }
            String type = fields.get("35");
            if (!"8".equals(type) && !"9".equals(type) || "Y".equals(fields.get("43")) != resends) {
                continue;
            }
            Map<String, String> body = new TreeMap<>();
            fields.forEach((tag, value) -> {
                if (!ENVELOPE.contains(tag) || tag.equals("35")) {
                    body.put(tag, value);
                }
            });
            reports.add(body);
        }
        return reports;
    }

    private static List<Map<String, String>> only(List<Map<String, String>> reports, String deliverTo) {
        return reports.stream().filter(report -> deliverTo.equals(report.get("128"))).map(report -> {
            Map<String, String> body = new TreeMap<>(report);
            body.remove("797");
            return body;
        }).toList();
    }

    private static List<Map<String, String>> awaitReports(QfjClient client, int count, boolean resends)
        throws InterruptedException {
        QfjClient.awaitCondition(() -> reports(client.incomingRaw(), resends).size() >= count,
            () -> client.sessionId() + ": " + count + (resends ? " resent" : "") + " reports; got "
                + reports(client.incomingRaw(), resends));
        TimeUnit.MILLISECONDS.sleep(200); // any extra copy would have arrived by now
        List<Map<String, String>> reports = reports(client.incomingRaw(), resends);
        assertTrue(reports.size() >= count);
        return reports;
    }
}
