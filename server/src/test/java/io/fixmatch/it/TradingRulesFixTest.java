package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.TimeInForce;
import quickfix.fix44.NewOrderSingle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pre-trade risk, the kill switch, self-trade prevention and the end of day through real FIX sessions (QuickFIX/J
 * initiators validating every message with FIX44.xml) and the real admin endpoint; and that a restart (from the
 * snapshot, or from the journal alone) comes back with the same kill switches and books.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@BothModes
class TradingRulesFixTest {
    private static final String KILL_TEXT = "risk: the session's kill switch is engaged";

    @TempDir
    Path data;

    /** A server with its admin endpoint on {@code data}, in the mode of this run; again on it: a restart. */
    private static FixmatchServer start(Path data, Map<String, String> overrides) throws InterruptedException {
        return TestServers.start(data, 0, overrides, TestServers.admin(null));
    }

    private static Message accepted(QfjClient client, Message order) throws InterruptedException {
        client.send(order);
        Message ack = client.nextApp("8");
        assertFields(ack, 150, "0", 39, "0");
        return ack;
    }

    private static void rejected(QfjClient client, Message order, String ordRejReason, String text)
        throws InterruptedException {
        client.send(order);
        assertFields(client.nextApp("8"), 150, "8", 39, "8", 103, ordRejReason, 58, text);
    }

    @Test
    void eachRiskLimitRejectsWithItsNumbersAndTheKillSwitchCancelsAndRefuses() throws Exception {
        Map<String, String> rules = Map.of("session.CLIENT1.risk.maxOrderQuantity", "1000",
            "session.CLIENT1.risk.maxNotional", "100000", "session.CLIENT1.risk.maxOpenOrders", "2",
            "session.CLIENT1.risk.priceCollar", "5%", "symbol.AAPL.referencePrice", "100.00");
        try (FixmatchServer server = start(data, rules);
             QfjClient client = QfjClient.logOn("CLIENT1", server.port());
             QfjClient other = QfjClient.logOn("CLIENT2", server.port())) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            rejected(client, Orders.limit("r1", "AAPL", BUY, 5000, "100.00"), "3",
                "risk: order quantity 5000 over session limit 1000");
            rejected(client, Orders.limit("r2", "AAPL", BUY, 1000, "150.00"), "3",
                "risk: order notional 150000.00 over session limit 100000.00");
            rejected(client, Orders.limit("r3", "AAPL", BUY, 10, "120.00"), "3",
                "risk: price 120.00 outside the session's price collar 95.00..105.00");
            accepted(client, Orders.limit("a1", "AAPL", BUY, 10, "100.00"));
            accepted(client, Orders.limit("a2", "AAPL", BUY, 10, "99.00"));
            rejected(client, Orders.limit("r4", "AAPL", BUY, 10, "98.00"), "3",
                "risk: 2 open orders, at session limit 2");
            accepted(other, Orders.limit("o1", "AAPL", BUY, 5000, "150.00")); // CLIENT2 has no limits

            client.send(Orders.replace("a1r", "a1", "AAPL", BUY, 5000, "100.00"));
            assertFields(client.nextApp("9"), 11, "a1r", 41, "a1", 434, "2", 102, "99",
                58, "risk: order quantity 5000 over session limit 1000");
            client.send(Orders.replace("a1s", "a1", "AAPL", BUY, 5, "100.00")); // keeps priority: not checked
            assertFields(client.nextApp("8"), 150, "5", 11, "a1s");

            AdminClient.Metrics metrics = admin.metrics();
            assertEquals(2, metrics.value("fixmatch_risk_rejects_total{limit=\"RISK_ORDER_QUANTITY\"}"));
            assertEquals(1, metrics.value("fixmatch_risk_rejects_total{limit=\"RISK_NOTIONAL\"}"));
            assertEquals(1, metrics.value("fixmatch_risk_rejects_total{limit=\"RISK_PRICE_COLLAR\"}"));
            assertEquals(1, metrics.value("fixmatch_risk_rejects_total{limit=\"RISK_OPEN_ORDERS\"}"));
            assertEquals(0, metrics.value("fixmatch_kill_switch_engaged{session=\"CLIENT1\"}"));

            JsonNode engaged = admin.postJson("/sessions/CLIENT1/kill-switch", 200);
            assertTrue(engaged.get("engaged").asBoolean());
            assertFields(client.nextApp("8"), 150, "4", 39, "4", 11, "a2", 151, "0", 58, KILL_TEXT);
            assertFields(client.nextApp("8"), 150, "4", 39, "4", 11, "a1s", 151, "0", 58, KILL_TEXT);
            rejected(client, Orders.limit("k1", "AAPL", BUY, 10, "100.00"), "99", KILL_TEXT);
            metrics = admin.metrics();
            assertEquals(1, metrics.value("fixmatch_kill_switch_engaged{session=\"CLIENT1\"}"));
            assertEquals(0, metrics.value("fixmatch_kill_switch_engaged{session=\"CLIENT2\"}"));
            assertEquals(1, metrics.value("fixmatch_risk_rejects_total{limit=\"KILL_SWITCH_ENGAGED\"}"));
            assertEquals(2, metrics.value("fixmatch_orders_canceled_by_engine_total{reason=\"KILL_SWITCH_ENGAGED\"}"));
            accepted(other, Orders.limit("o2", "AAPL", BUY, 10, "100.00")); // other sessions trade on

            assertTrue(!admin.postJson("/sessions/CLIENT1/kill-switch/release", 200).get("engaged").asBoolean());
            accepted(client, Orders.limit("a3", "AAPL", BUY, 10, "100.00"));
            admin.postJson("/sessions/NOPE/kill-switch", 404);
            client.assertNoProtocolErrors();
            other.assertNoProtocolErrors();
        }
    }

    @Test
    void aLostConnectionEngagesTheKillSwitchAndALogoutDoesNot() throws Exception {
        Map<String, String> rules = Map.of("session.CLIENT1.killSwitchOnDisconnect", "true",
            "session.CLIENT2.killSwitchOnDisconnect", "true");
        Path clientStore = data.resolve("qfj-client1");
        try (FixmatchServer server = start(data.resolve("server"), rules)) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            QfjClient client = QfjClient.logOn("CLIENT1", server.port(),
                new QfjClient.Options().fileStore(clientStore));
            QfjClient polite = QfjClient.logOn("CLIENT2", server.port());
            accepted(client, Orders.limit("b1", "AAPL", BUY, 10, "100.00"));
            accepted(polite, Orders.limit("s1", "AAPL", SELL, 10, "101.00"));

            polite.close(); // a Logout exchange: not a lost connection
            client.stopForcibly(); // the connection drops without a Logout
            QfjClient.awaitCondition(() -> engaged(admin, "CLIENT1"), "CLIENT1's kill switch engaged");
            assertEquals(0, admin.metrics().value("fixmatch_kill_switch_engaged{session=\"CLIENT2\"}"));

            try (QfjClient back = QfjClient.logOn("CLIENT1", server.port(),
                new QfjClient.Options().fileStore(clientStore))) {
                // The cancel was stored while the session was away; the resend delivers it.
                assertFields(back.nextApp("8"), 150, "4", 39, "4", 11, "b1", 58, KILL_TEXT);
                rejected(back, Orders.limit("b2", "AAPL", BUY, 10, "100.00"), "99", KILL_TEXT);
                admin.postJson("/sessions/CLIENT1/kill-switch/release", 200);
                accepted(back, Orders.limit("b3", "AAPL", BUY, 10, "100.00"));
            }
            JsonNode book = admin.getJson("/book/AAPL", 200);
            assertEquals("101.00", book.get("asks").get(0).get("price").asText(), "CLIENT2's order still rests");
        }
    }

    private static boolean engaged(AdminClient admin, String session) {
        try {
            return admin.metrics().value("fixmatch_kill_switch_engaged{session=\"" + session + "\"}") == 1;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void selfTradePreventionByFirmInEachMode() throws Exception {
        Map<String, String> rules = Map.of("session.CLIENT1.firm", "F1", "session.CLIENT2.firm", "F1",
            "session.LOADGEN.firm", "F1", "firm.F1.selfTradePrevention", "cancel-resting",
            "session.CLIENT2.selfTradePrevention", "cancel-incoming",
            "session.LOADGEN.selfTradePrevention", "cancel-both");
        try (FixmatchServer server = start(data, rules);
             QfjClient client1 = QfjClient.logOn("CLIENT1", server.port());
             QfjClient client2 = QfjClient.logOn("CLIENT2", server.port());
             QfjClient loadgen = QfjClient.logOn("LOADGEN", server.port())) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            // cancel-resting (CLIENT1, the firm's mode): the resting order of CLIENT2 goes, CLIENT1's order rests.
            accepted(client2, Orders.limit("r1", "AAPL", SELL, 10, "100.00"));
            accepted(client1, Orders.limit("i1", "AAPL", BUY, 10, "100.00"));
            assertFields(client2.nextApp("8"), 150, "4", 39, "4", 11, "r1", 151, "0", 58,
                "self-trade prevention: an incoming order of the same session or firm would have traded with this"
                    + " resting order; it is canceled");
            assertEquals("100.00", admin.getJson("/book/AAPL", 200).get("bids").get(0).get("price").asText());

            // cancel-incoming (CLIENT2's own): its order is canceled, CLIENT1's resting order stays.
            accepted(client1, Orders.limit("r2", "MSFT", SELL, 10, "50.00"));
            accepted(client2, Orders.limit("i2", "MSFT", BUY, 10, "50.00"));
            assertFields(client2.nextApp("8"), 150, "4", 39, "4", 11, "i2", 14, "0", 151, "0", 58,
                "self-trade prevention: the incoming order would have traded with a resting order of the same"
                    + " session or firm; its unfilled quantity is canceled");
            assertEquals(1, admin.getJson("/book/MSFT", 200).get("askLevels").asInt());

            // cancel-both (LOADGEN's own): the resting order's report, then the incoming order's.
            accepted(client1, Orders.limit("r3", "GOOG", SELL, 10, "70.00"));
            accepted(loadgen, Orders.limit("i3", "GOOG", BUY, 10, "70.00"));
            assertFields(client1.nextApp("8"), 150, "4", 11, "r3", 58,
                "self-trade prevention: an incoming order of the same session or firm would have traded with this"
                    + " resting order; it is canceled");
            assertFields(loadgen.nextApp("8"), 150, "4", 11, "i3", 58,
                "self-trade prevention: the incoming order would have traded with a resting order of the same"
                    + " session or firm; its unfilled quantity is canceled");
            JsonNode goog = admin.getJson("/book/GOOG", 200);
            assertEquals(0, goog.get("bidLevels").asInt() + goog.get("askLevels").asInt());

            AdminClient.Metrics metrics = admin.metrics();
            assertEquals(2, metrics.value("fixmatch_orders_canceled_by_engine_total{reason=\"SELF_TRADE_RESTING\"}"));
            assertEquals(2, metrics.value("fixmatch_orders_canceled_by_engine_total{reason=\"SELF_TRADE_INCOMING\"}"));
            assertEquals(0, metrics.value("fixmatch_trades_total{symbol=\"AAPL\"}"));
            client1.assertNoPendingApp();
            for (QfjClient client : new QfjClient[] {client1, client2, loadgen}) {
                client.assertNoProtocolErrors();
            }
        }
    }

    @Test
    void dayOrdersExpireAtTheEndOfDayGtcOrdersStayAndARestartReproducesIt() throws Exception {
        Map<String, String> rules = new HashMap<>(Map.of("session.CLIENT1.firm", "F1", "session.CLIENT2.firm", "F1",
            "firm.F1.selfTradePrevention", "cancel-incoming"));
        String bookBefore;
        try (FixmatchServer server = start(data, rules);
             QfjClient client = QfjClient.logOn("CLIENT1", server.port());
             QfjClient client2 = QfjClient.logOn("CLIENT2", server.port())) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            accepted(client, Orders.limit("d1", "AAPL", BUY, 10, "100.00"));
            NewOrderSingle noTimeInForce = Orders.limit("d2", "AAPL", BUY, 20, "99.00");
            noTimeInForce.removeField(TimeInForce.FIELD); // FIX's default: Day
            assertFields(accepted(client, noTimeInForce), 59, "0");
            NewOrderSingle gtc = Orders.limit("g1", "AAPL", BUY, 30, "98.00");
            gtc.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
            accepted(client, gtc);
            accepted(client2, Orders.limit("x1", "MSFT", SELL, 5, "20.00"));
            accepted(client, Orders.limit("x2", "MSFT", BUY, 5, "20.00"));
            assertFields(client.nextApp("8"), 150, "4", 11, "x2"); // self-trade prevention, to be reproduced

            admin.postJson("/engine/expire-day-orders", 200);
            assertFields(client.nextApp("8"), 150, "C", 39, "C", 11, "d1", 151, "0", 59, "0",
                58, "day order expired at the end of the trading day");
            assertFields(client.nextApp("8"), 150, "C", 39, "C", 11, "d2", 151, "0");
            assertFields(client2.nextApp("8"), 150, "C", 39, "C", 11, "x1");
            client.assertNoPendingApp();
            JsonNode book = admin.getJson("/book/AAPL", 200);
            assertEquals(1, book.get("bidLevels").asInt());
            assertEquals("98.00", book.get("bids").get(0).get("price").asText());
            assertEquals(3, admin.metrics().value("fixmatch_orders_expired_total"));
            admin.postJson("/sessions/CLIENT2/kill-switch", 200);
            bookBefore = books(admin);
            client.assertNoProtocolErrors();
            client2.assertNoProtocolErrors();
        }
        for (Recovery recovery : Recovery.inThisMode()) {
            recovery.prepare(data);
            try (FixmatchServer server = start(data, rules);
                 QfjClient client2 = QfjClient.logOn("CLIENT2", server.port(),
                     new QfjClient.Options().resetOnLogon(true))) {
                AdminClient admin = new AdminClient(server.adminPort(), null);
                assertEquals(bookBefore, books(admin), "books after a restart, from the " + recovery);
                assertEquals(1, admin.metrics().value("fixmatch_kill_switch_engaged{session=\"CLIENT2\"}"));
                rejected(client2, Orders.limit("k" + recovery, "AAPL", SELL, 10, "200.00"), "99", KILL_TEXT);
            }
        }
    }

    /**
     * A limit changed between two runs: the journal replay decides the first run's orders with the limit they were
     * decided with (the settings are journaled commands), and new orders meet the new limit.
     */
    @Test
    void aChangedLimitAppliesFromTheRestartOnAndTheReplayKeepsTheOldDecisions() throws Exception {
        try (FixmatchServer server = start(data,
                 Map.of("session.CLIENT1.risk.maxOrderQuantity", "1000"));
             QfjClient client = QfjClient.logOn("CLIENT1", server.port())) {
            accepted(client, Orders.limit("big", "AAPL", BUY, 800, "100.00"));
            rejected(client, Orders.limit("huge", "AAPL", BUY, 1500, "100.00"), "3",
                "risk: order quantity 1500 over session limit 1000");
        }
        Recovery.JOURNAL.prepare(data); // the whole journal is replayed: with the limit journaled then
        try (FixmatchServer server = start(data,
                 Map.of("session.CLIENT1.risk.maxOrderQuantity", "100"));
             QfjClient client = QfjClient.logOn("CLIENT1", server.port(),
                 new QfjClient.Options().resetOnLogon(true))) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            assertEquals(800, admin.getJson("/book/AAPL", 200).get("bids").get(0).get("quantity").asLong(),
                "the order accepted under the old limit is there, the one refused is not");
            rejected(client, Orders.limit("big2", "AAPL", BUY, 800, "100.00"), "3",
                "risk: order quantity 800 over session limit 100");
        }
    }

    private static String books(AdminClient admin) throws IOException, InterruptedException {
        StringBuilder all = new StringBuilder();
        for (String symbol : new String[] {"AAPL", "MSFT"}) {
            JsonNode book = admin.getJson("/book/" + symbol, 200);
            all.append(book.get("bids")).append(book.get("asks")).append('\n');
        }
        return all.toString();
    }
}
