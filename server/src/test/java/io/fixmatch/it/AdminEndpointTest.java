package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.journal.JournalDump;
import io.fixmatch.server.AdminSettings;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.ServerConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import quickfix.Message;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static io.fixmatch.it.Orders.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin endpoint against a real server: a real HTTP client, real FIX sessions (QuickFIX/J initiators), every
 * path, and the metrics checked against what the test's clients did.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AdminEndpointTest {
    private static final String TOKEN = "s3cret-token";

    @TempDir
    Path data;

    private static ServerConfig config(Path data, String token, Map<String, String> overrides) {
        return TestServers.config(data, 0, overrides)
            .withAdmin(new AdminSettings("127.0.0.1", AdminSettings.ANY_FREE_PORT, token));
    }

    @Test
    void healthSays503UntilRecoveryIsDoneAndTheFixPortOpen() throws Exception {
        FixmatchServer server = FixmatchServer.create(config(data, null, Map.of()));
        try {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            assertEquals("starting", admin.getJson("/health", 503).get("status").asText());
            admin.getJson("/sessions", 503);
            admin.getJson("/book/AAPL", 503);
            admin.postJson("/symbols/AAPL/halt", 503);
            assertEquals(0.0, admin.metrics().value("fixmatch_ready"));

            server.open();
            assertEquals("ready", admin.getJson("/health", 200).get("status").asText());
            assertEquals(1.0, admin.metrics().value("fixmatch_ready"));
            try (QfjClient client = QfjClient.logOn("CLIENT1", server.port())) {
                assertTrue(client.isLoggedOn(), "the FIX port is open once /health says ready");
            }
        } finally {
            server.close();
        }
    }

    @Test
    void theBookSessionsAndMetricsShowWhatTheClientsDid() throws Exception {
        try (FixmatchServer server = FixmatchServer.start(config(data, null,
                 Map.of("session.CLIENT1.latencyTrace", "true")));
             // The venue's dictionary: it knows the latency trace tags 7101-7107 of the traced session.
             QfjClient client1 = QfjClient.logOn("CLIENT1", server.port(),
                 new QfjClient.Options().dataDictionary(VenueDictionaryTest.DICTIONARY));
             QfjClient client2 = QfjClient.logOn("CLIENT2", server.port())) {
            AdminClient admin = new AdminClient(server.adminPort(), null);

            accepted(client1, "b1", "AAPL", BUY, 100, "150.25");
            accepted(client1, "b2", "AAPL", BUY, 50, "150.20");
            accepted(client2, "s1", "AAPL", SELL, 30, "150.25");
            assertFields(client2.nextApp("8"), 11, "s1", 150, "F", 32, "30");
            assertFields(client1.nextApp("8"), 11, "b1", 150, "F", 32, "30");
            client2.send(Orders.limit("s2", "MSFT", SELL, 10, "1000000.01")); // above the maximum price
            assertFields(client2.nextApp("8"), 11, "s2", 150, "8", 39, "8");
            client2.send(Orders.limit("s3", "NOPE", SELL, 10, "1.00"));      // refused by the gateway
            assertFields(client2.nextApp("8"), 11, "s3", 150, "8", 39, "8");

            JsonNode book = admin.getJson("/book/AAPL", 200);
            assertEquals("AAPL", book.get("symbol").asText());
            assertFalse(book.get("halted").asBoolean());
            assertEquals(2, book.get("bidLevels").asInt());
            assertEquals(0, book.get("askLevels").asInt());
            assertEquals("150.25", book.get("bids").get(0).get("price").asText());
            assertEquals(70, book.get("bids").get(0).get("quantity").asLong());
            assertEquals(1, book.get("bids").get(0).get("orders").asInt());
            assertEquals("150.20", book.get("bids").get(1).get("price").asText());
            assertEquals(50, book.get("bids").get(1).get("quantity").asLong());
            assertEquals(0, book.get("asks").size());
            assertEquals(1, admin.getJson("/book/AAPL?depth=1", 200).get("bids").size());
            admin.getJson("/book/AAPL?depth=0", 400);
            admin.getJson("/book/AAPL?depth=x", 400);

            JsonNode sessions = admin.getJson("/sessions", 200).get("sessions");
            assertEquals(3, sessions.size());
            JsonNode first = sessions.get(0);
            assertEquals("CLIENT1", first.get("compId").asText());
            assertEquals(1, first.get("owner").asInt());
            assertEquals("gateway-0", first.get("gateway").asText());
            assertTrue(first.get("loggedOn").asBoolean());
            assertTrue(first.get("remoteAddress").asText().contains("127.0.0.1"), first.toString());
            assertEquals(4, first.get("nextTargetSeqNum").asLong(), "Logon and two orders received");
            assertEquals(5, first.get("nextSenderSeqNum").asLong(), "Logon, two acks and a fill sent");
            assertEquals(3, first.get("messagesReceived").asLong());
            assertEquals(4, first.get("messagesSent").asLong());
            assertTrue(first.get("latencyTrace").asBoolean());
            assertEquals("LOADGEN", sessions.get(2).get("compId").asText());
            assertFalse(sessions.get(2).get("loggedOn").asBoolean());

            // The two traced acknowledgements of CLIENT1 (the fill came from CLIENT2's untraced order).
            QfjClient.awaitCondition(() -> stageCount(admin) == 2, "the traced reports in the stage histograms");
            AdminClient.Metrics metrics = admin.metrics();
            assertEquals(3, metrics.value("fixmatch_orders_accepted_total"));
            assertEquals(1, metrics.value("fixmatch_orders_rejected_total{reason=\"PRICE_TOO_LARGE\"}"));
            assertEquals(0, metrics.value("fixmatch_orders_rejected_total{reason=\"SYMBOL_HALTED\"}"));
            String refused = "fixmatch_gateway_refused_total{reason=\"%s\",session=\"CLIENT2\"}";
            assertEquals(1, metrics.value(refused.formatted("UNKNOWN_SYMBOL")));
            assertEquals(0, metrics.value(refused.formatted("SERVER_BUSY")));
            assertEquals(1, metrics.value("fixmatch_trades_total{symbol=\"AAPL\"}"));
            assertEquals(30, metrics.value("fixmatch_traded_quantity_total{symbol=\"AAPL\"}"));
            assertEquals(0, metrics.value("fixmatch_trades_total{symbol=\"MSFT\"}"));
            assertEquals(4, metrics.value("fixmatch_journal_appended_commands_total"),
                "three accepted orders and one rejected");
            assertTrue(metrics.value("fixmatch_commands_total") >= 7, "and the book queries");
            assertEquals(2, metrics.value("fixmatch_sessions_connected"));
            assertEquals(1, metrics.value("fixmatch_session_logged_on{session=\"CLIENT2\"}"));
            assertEquals(0, metrics.value("fixmatch_session_logged_on{session=\"LOADGEN\"}"));
            assertEquals(3, metrics.value("fixmatch_fix_messages_received_total{session=\"CLIENT1\"}"));
            assertEquals(4, metrics.value("fixmatch_fix_messages_sent_total{session=\"CLIENT1\"}"));
            assertEquals(2, metrics.value("fixmatch_book_price_levels{side=\"bid\",symbol=\"AAPL\"}"));
            assertEquals(0, metrics.value("fixmatch_book_price_levels{side=\"ask\",symbol=\"AAPL\"}"));
            assertEquals(150.25, metrics.value("fixmatch_book_best_price{side=\"bid\",symbol=\"AAPL\"}"));
            assertEquals(70, metrics.value("fixmatch_book_best_quantity{side=\"bid\",symbol=\"AAPL\"}"));
            assertFalse(metrics.has("fixmatch_book_best_price{side=\"ask\",symbol=\"AAPL\"}"));
            assertEquals(2, metrics.value("fixmatch_book_resting_orders"));
            assertEquals(0, metrics.value("fixmatch_symbol_halted{symbol=\"AAPL\"}"));
            assertEquals(4_194_304, metrics.value("fixmatch_inbound_ring_capacity_bytes"));
            assertEquals(0, metrics.value("fixmatch_inbound_ring_used_bytes"));
            assertEquals(16_777_216, metrics.value("fixmatch_outbound_ring_capacity_bytes{gateway=\"gateway-0\"}"));
            assertEquals(0, metrics.value("fixmatch_pending_commands{gateway=\"gateway-0\"}"));
            assertTrue(metrics.value("fixmatch_journal_size_bytes") > 0);
            assertTrue(metrics.value("fixmatch_journal_last_index") > 0);
            assertTrue(metrics.value("fixmatch_recovery_seconds") > 0);
            assertEquals(0, metrics.value("fixmatch_recovery_replayed_commands"));
            assertEquals(2, metrics.value("fixmatch_stage_latency_seconds_count{stage=\"match\"}"));
            assertTrue(metrics.has("fixmatch_stage_latency_seconds_bucket{stage=\"total\",le=\"+Inf\"}")
                || metrics.has("fixmatch_stage_latency_seconds_bucket{le=\"+Inf\",stage=\"total\"}"), metrics.text());
            assertTrue(metrics.has("jvm_gc_collection_seconds_count"), "the JVM's metrics");
            assertTrue(metrics.has("jvm_memory_used_bytes"), "the JVM's metrics");
            System.gc(); // a collection to see in the GC pause histogram (a series appears with its first pause)
            QfjClient.awaitCondition(() -> scrape(admin).has("fixmatch_gc_pause_seconds_count"), "a GC pause");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"one-thread", "two-threads"})
    @BothModes
    void aHaltRefusesNewOrdersAndReplacesKeepsCancelsAndIsReplayedAfterARestart(String layout) throws Exception {
        Assumptions.assumeFalse(TestServers.clusterMode() && layout.equals("two-threads"), "server.layout is the"
            + " standalone process's threads: a cluster gateway has no matching step");
        Map<String, String> overrides = Map.of("server.layout", layout);
        QfjClient.Options reset = new QfjClient.Options().resetOnLogon(true);
        try (FixmatchServer server = start(overrides);
             QfjClient client = QfjClient.logOn("CLIENT1", server.port(), reset)) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            accepted(client, "b1", "AAPL", BUY, 100, "10.00");
            accepted(client, "b2", "AAPL", BUY, 100, "9.99");

            JsonNode halted = admin.postJson("/symbols/AAPL/halt", 200);
            assertEquals("AAPL", halted.get("symbol").asText());
            assertTrue(halted.get("halted").asBoolean());
            assertTrue(admin.getJson("/book/AAPL", 200).get("halted").asBoolean());

            client.send(Orders.limit("b3", "AAPL", BUY, 10, "10.00"));
            Message rejected = client.nextApp("8");
            assertFields(rejected, 11, "b3", 150, "8", 39, "8");
            assertTrue(field(rejected, 58).contains("halted"), field(rejected, 58));
            client.send(Orders.replace("b1r", "b1", "AAPL", BUY, 100, "10.01"));
            Message replaceRejected = client.nextApp("9");
            assertFields(replaceRejected, 11, "b1r", 41, "b1", 434, "2");
            assertTrue(field(replaceRejected, 58).contains("halted"), field(replaceRejected, 58));
            client.send(Orders.cancel("c2", "b2", "AAPL", BUY));
            assertFields(client.nextApp("8"), 11, "c2", 41, "b2", 150, "4", 39, "4");
            accepted(client, "m1", "MSFT", BUY, 10, "10.00");

            AdminClient.Metrics metrics = admin.metrics();
            assertEquals(1, metrics.value("fixmatch_symbol_halted{symbol=\"AAPL\"}"));
            assertEquals(0, metrics.value("fixmatch_symbol_halted{symbol=\"MSFT\"}"));
            assertEquals(1, metrics.value("fixmatch_orders_rejected_total{reason=\"SYMBOL_HALTED\"}"));
            assertEquals(1, metrics.value("fixmatch_replaces_rejected_total{reason=\"SYMBOL_HALTED\"}"));
            assertEquals(1, metrics.value("fixmatch_orders_canceled_total"));
        }

        // Restarted from the snapshot the clean stop wrote, then from the journal alone (cluster: the log): still
        // halted.
        for (Recovery recovery : Recovery.inThisMode()) {
            recovery.prepare(data);
            try (FixmatchServer server = start(overrides);
                 QfjClient client = QfjClient.logOn("CLIENT1", server.port(), reset)) {
                AdminClient admin = new AdminClient(server.adminPort(), null);
                assertTrue(admin.getJson("/book/AAPL", 200).get("halted").asBoolean(), "from the " + recovery);
                client.send(Orders.limit("b4-" + recovery, "AAPL", BUY, 10, "10.00"));
                assertFields(client.nextApp("8"), 150, "8", 39, "8");
                assertEquals(1, admin.metrics().value("fixmatch_symbol_halted{symbol=\"AAPL\"}"), "from the " + recovery);
            }
        }

        try (FixmatchServer server = start(overrides);
             QfjClient client = QfjClient.logOn("CLIENT1", server.port(), reset)) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            assertFalse(admin.postJson("/symbols/AAPL/resume", 200).get("halted").asBoolean());
            accepted(client, "b5", "AAPL", BUY, 10, "10.00");
            JsonNode book = admin.getJson("/book/AAPL", 200);
            assertFalse(book.get("halted").asBoolean());
            assertEquals(110, book.get("bids").get(0).get("quantity").asLong(), "b1 and b5 rest at 10.00");
        }
        String dump = dumpJournal();
        assertTrue(dump.contains("operator HALT_SYMBOL AAPL"), dump);
        assertTrue(dump.contains("operator RESUME_SYMBOL AAPL"), dump);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    @BothModes
    void theOperatorLogsSessionsOutAndCancelsAllTheirOrders(int gateways) throws Exception {
        Assumptions.assumeFalse(TestServers.clusterMode() && gateways > 1, "a cluster gateway process has one gateway"
            + " thread");
        Map<String, String> layout = gateways == 1 ? Map.of()
            : Map.of("server.layout", "two-threads", "gateway.threads", "2"); // CLIENT2 belongs to gateway-1
        try (FixmatchServer server = start(layout);
             QfjClient client1 = QfjClient.logOn("CLIENT1", server.port());
             QfjClient client2 = QfjClient.logOn("CLIENT2", server.port())) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            accepted(client2, "s1", "GOOG", SELL, 10, "101.00");
            accepted(client2, "s2", "GOOG", SELL, 20, "102.00");
            accepted(client1, "b1", "GOOG", BUY, 5, "99.00");

            assertEquals("gateway-" + (gateways - 1),
                admin.getJson("/sessions", 200).get("sessions").get(1).get("gateway").asText());
            JsonNode done = admin.postJson("/sessions/CLIENT2/cancel-all", 202);
            assertEquals("CLIENT2", done.get("session").asText());
            Map<String, String> canceled = new HashMap<>();
            for (int i = 0; i < 2; i++) {
                Message report = client2.nextApp("8");
                canceled.put(field(report, 11), field(report, 150) + "/" + field(report, 39));
            }
            assertEquals(Map.of("s1", "4/4", "s2", "4/4"), canceled);
            JsonNode book = admin.getJson("/book/GOOG", 200);
            assertEquals(0, book.get("askLevels").asInt());
            assertEquals(1, book.get("bidLevels").asInt(), "the other session's order stays");
            assertEquals(2, admin.metrics().value("fixmatch_orders_canceled_total"));
            // (Cluster mode: node 0's journal, which a follower writes as it applies the log.)
            QfjClient.awaitCondition(() -> dumpJournal().contains("CLIENT2 CANCEL_ALL_FOR_OWNER"), "journaled");

            JsonNode logout = admin.postJson("/sessions/CLIENT1/logout", 200);
            assertEquals("CLIENT1", logout.get("session").asText());
            Message fromServer = client1.nextAdmin(message -> "5".equals(QfjClient.msgType(message)));
            assertEquals("logged out by the operator", field(fromServer, 58));
            admin.postJson("/sessions/LOADGEN/logout", 409);
            admin.postJson("/sessions/NOPE/logout", 404);
            admin.postJson("/sessions/NOPE/cancel-all", 404);
        }
    }

    @Test
    void aTokenGuardsEveryPathButHealthAndUnknownNamesAre404() throws Exception {
        try (FixmatchServer server = FixmatchServer.start(config(data, TOKEN, Map.of()))) {
            AdminClient anonymous = new AdminClient(server.adminPort(), null);
            AdminClient wrong = anonymous.withToken("guess");
            AdminClient admin = anonymous.withToken(TOKEN);

            assertEquals("ready", anonymous.getJson("/health", 200).get("status").asText());
            for (AdminClient refused : new AdminClient[] {anonymous, wrong}) {
                for (String path : new String[] {"/metrics", "/sessions", "/book/AAPL"}) {
                    HttpResponse<String> response = refused.get(path);
                    assertEquals(401, response.statusCode(), path);
                    assertEquals("Bearer realm=\"fixmatch-admin\"",
                        response.headers().firstValue("WWW-Authenticate").orElse(""));
                }
                assertEquals(401, refused.post("/symbols/AAPL/halt").statusCode());
                assertEquals(401, refused.post("/sessions/CLIENT1/cancel-all").statusCode());
            }
            assertFalse(admin.getJson("/book/AAPL", 200).get("halted").asBoolean(), "the refused halt did nothing");
            admin.getJson("/sessions", 200);
            assertEquals(1.0, admin.metrics().value("fixmatch_ready"));

            assertEquals("unknown symbol NOPE", admin.getJson("/book/NOPE", 404).get("error").asText());
            admin.postJson("/symbols/NOPE/halt", 404);
            admin.postJson("/symbols/NOPE/resume", 404);
            admin.getJson("/nothing/here", 404);
            HttpResponse<String> wrongMethod = admin.get("/symbols/AAPL/halt");
            assertEquals(405, wrongMethod.statusCode());
            assertEquals("POST", wrongMethod.headers().firstValue("Allow").orElse(""));
        }
    }

    /** Sends a day limit order that the server must acknowledge (ExecType New). */
    private static void accepted(QfjClient client, String clOrdId, String symbol, char side, long qty, String price)
        throws InterruptedException {
        client.send(Orders.limit(clOrdId, symbol, side, qty, price));
        assertFields(client.nextApp("8"), 11, clOrdId, 150, "0");
    }

    private static long stageCount(AdminClient admin) {
        return (long) scrape(admin).value("fixmatch_stage_latency_seconds_count{stage=\"total\"}");
    }

    /** A scrape, for conditions polled in lambdas. */
    private static AdminClient.Metrics scrape(AdminClient admin) {
        try {
            return admin.metrics();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A server on {@code data} with the admin endpoint, in the mode of this run; again: a restart. */
    private FixmatchServer start(Map<String, String> overrides) throws InterruptedException {
        return TestServers.start(data, 0, overrides, TestServers.admin(null));
    }

    /** The journal as the dump tool prints it; owner 2 is CLIENT2. */
    private String dumpJournal() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JournalDump.dump(TestServers.engineFolder(data).resolve("journal"), JournalDump.Format.TEXT,
            owner -> owner == 2 ? "CLIENT2" : "#" + owner, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
