package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.journal.JournalDump;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.field.TimeInForce;
import quickfix.fix44.NewOrderSingle;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static io.fixmatch.it.Orders.dec;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a cluster gateway learns from the cluster's welcome when it starts while the nodes run (three real nodes in
 * this JVM; gateways started and stopped beside them): the symbols' schedule and volatility settings as the engine
 * holds them, so it sends only where its configuration differs (a setting it no longer has is reset, an unchanged one
 * is not sent again), exactly as a standalone server against its recovered engine; and a call's indicative uncross,
 * so its market data and admin endpoint show the call from the start.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterGatewayStartTest {
    private static final List<String> GATEWAY_1 = List.of("CLIENT1", "CLIENT2");
    private static final Map<String, String> VENUE = Map.of("symbols", "AAPL,MSFT");
    /** The settings' commands a gateway sends at start where the engine holds others. */
    private static final List<String> SETTINGS = List.of("SET_SYMBOL_CONTROL", "SET_SESSION_CONTROL",
        "SET_REFERENCE_PRICE");

    @TempDir
    Path data;

    /**
     * Gateway 1 starts with AAPL in a group with a 5% band (a 10% move starts a call), restarts with the same
     * configuration (nothing sent), then without the group: its band, interruption and time zone are reset (three
     * commands), and the same 10% move trades at once.
     */
    @Test
    void aGatewayRestartedWithoutAGroupResetsItsSettingsAndWithAnUnchangedConfigurationSendsNone() throws Exception {
        Map<String, String> grouped = withVenue(Map.of("engine.auctionGroups", "VOL", "auctionGroup.VOL.symbols",
            "AAPL", "auctionGroup.VOL.volatilityBand", "5%", "auctionGroup.VOL.interruptionSeconds", "1",
            "auctionGroup.VOL.timeZone", "Europe/London"));
        try (AutoCloseable nodes = TestServers.startNodes(data, VENUE)) {
            Map<String, Integer> started;
            Map<String, Integer> restarted;
            try (FixmatchServer gateway = TestServers.startGateway(data, 1, GATEWAY_1, grouped,
                     TestServers.admin(null));
                 QfjClient client = logOn("CLIENT1", gateway);
                 QfjClient other = logOn("CLIENT2", gateway)) {
                trade(client, other, "100.00"); // the last trade price: 100.00
                client.send(Orders.limit("s1", "AAPL", SELL, 5, "110.00"));
                assertFields(client.nextApp("8"), 150, "0", 11, "s1");
                other.send(Orders.limit("b1", "AAPL", BUY, 5, "110.00")); // 10% above: outside the band
                assertFields(other.nextApp("8"), 150, "0", 11, "b1", 39, "0");
                JsonNode book = new AdminClient(gateway.adminPort(), null).getJson("/book/AAPL", 200);
                assertEquals("VOLATILITY_CALL", book.get("phase").asText(), book.toString());
                // the interruption's end, a second later: the uncross at 110.00 (the last trade price now)
                assertFields(other.nextApp("8"), 150, "F", 11, "b1", 31, dec("110"), 39, "2");
                assertFields(client.nextApp("8"), 150, "F", 11, "s1", 31, dec("110"), 39, "2");
                started = settingsCommands("s1");
                assertEquals(3, started.get("SET_SYMBOL_CONTROL"), "AAPL's zone, band and interruption: " + started);
            }

            try (FixmatchServer gateway = TestServers.startGateway(data, 1, GATEWAY_1, grouped,
                     TestServers.admin(null));
                 QfjClient client = logOn("CLIENT1", gateway)) {
                client.send(Orders.limit("p2", "MSFT", SELL, 1, "200.00")); // after any command of the start
                assertFields(client.nextApp("8"), 150, "0", 11, "p2");
                restarted = settingsCommands("p2");
                assertEquals(started, restarted, "an unchanged configuration sends nothing");
            }

            try (FixmatchServer gateway = TestServers.startGateway(data, 1, GATEWAY_1, VENUE,
                     TestServers.admin(null));
                 QfjClient client = logOn("CLIENT1", gateway);
                 QfjClient other = logOn("CLIENT2", gateway)) {
                client.send(Orders.limit("p3", "MSFT", SELL, 1, "200.00"));
                assertFields(client.nextApp("8"), 150, "0", 11, "p3");
                Map<String, Integer> reset = settingsCommands("p3");
                Map<String, Integer> expected = new TreeMap<>(restarted);
                expected.merge("SET_SYMBOL_CONTROL", 3, Integer::sum);
                assertEquals(expected, reset, "AAPL's zone, band and interruption back to none, nothing else");
                // 10% above the last trade (110.00): with no band any more an IOC buy trades at once (in a band it
                // would start an interruption, and be canceled)
                client.send(Orders.limit("s3", "AAPL", SELL, 10, "121.00"));
                assertFields(client.nextApp("8"), 150, "0", 11, "s3");
                NewOrderSingle ioc = Orders.limit("b3", "AAPL", BUY, 10, "121.00");
                ioc.set(new TimeInForce(TimeInForce.IMMEDIATE_OR_CANCEL));
                other.send(ioc);
                assertFields(other.nextApp("8"), 150, "0", 11, "b3");
                assertFields(other.nextApp("8"), 150, "F", 11, "b3", 31, dec("121"), 39, "2");
                JsonNode book = new AdminClient(gateway.adminPort(), null).getJson("/book/AAPL", 200);
                assertEquals("CONTINUOUS", book.get("phase").asText(), book.toString());
                client.assertNoProtocolErrors();
                other.assertNoProtocolErrors();
            }
        }
    }

    /**
     * A volatility interruption on gateway 1's sessions; gateway 2 starts during it: its subscriber's first W (269=Q
     * asked for) and its admin endpoint show the call's indicative uncross at once, and its start (the same
     * configuration) sent nothing.
     */
    @Test
    void aGatewayStartedDuringACallShowsTheIndicativeUncrossInItsFirstSnapshot() throws Exception {
        Map<String, String> grouped = withVenue(Map.of("engine.auctionGroups", "VOL", "auctionGroup.VOL.symbols",
            "AAPL", "auctionGroup.VOL.volatilityBand", "5%", "auctionGroup.VOL.interruptionSeconds", "120",
            AuctionFixTest.INDICATIVE_SUBSCRIBER, "true"));
        try (AutoCloseable nodes = TestServers.startNodes(data, VENUE);
             FixmatchServer first = TestServers.startGateway(data, 1, GATEWAY_1, grouped, server -> server);
             QfjClient client = logOn("CLIENT1", first);
             QfjClient other = logOn("CLIENT2", first)) {
            trade(client, other, "100.00");
            client.send(Orders.limit("s1", "AAPL", SELL, 5, "110.00"));
            assertFields(client.nextApp("8"), 150, "0", 11, "s1");
            other.send(Orders.limit("b1", "AAPL", BUY, 5, "110.00")); // outside the band: the call starts
            assertFields(other.nextApp("8"), 150, "0", 11, "b1", 39, "0");
            Map<String, Integer> before = settingsCommands("b1");

            try (FixmatchServer second = TestServers.startGateway(data, 2, List.of("LOADGEN"), grouped,
                     TestServers.admin(null));
                 QfjClient subscriber = QfjClient.logOn("LOADGEN", second.port(),
                     new QfjClient.Options().dataDictionary(VenueDictionaryTest.DICTIONARY))) {
                subscriber.send(MarketDataBook.request("MD", '1', 0, List.of("AAPL"), '0', '1', 'Q'));
                assertEquals(List.of("0 0 110 5", "0 1 110 5", "0 Q 110 5"),
                    AuctionFixTest.entries(subscriber.nextApp("W")), "the first snapshot, the indicative last");
                JsonNode book = new AdminClient(second.adminPort(), null).getJson("/book/AAPL", 200);
                assertEquals("VOLATILITY_CALL", book.get("phase").asText(), book.toString());
                assertEquals(0, dec("110").compareTo(new BigDecimal(book.get("indicativePrice").asText())),
                    book.toString());
                assertEquals(5, book.get("indicativeVolume").asLong(), book.toString());

                other.send(Orders.limit("b2", "AAPL", BUY, 2, "110.00"));
                assertFields(other.nextApp("8"), 150, "0", 11, "b2");
                assertEquals(List.of("1 0 110 7"), AuctionFixTest.entries(subscriber.nextApp("X")), "5 still trade");
                client.send(Orders.limit("s2", "AAPL", SELL, 2, "110.00"));
                assertFields(client.nextApp("8"), 150, "0", 11, "s2");
                assertEquals(List.of("1 1 110 7", "1 Q 110 7"), AuctionFixTest.entries(subscriber.nextApp("X")),
                    "the indicative uncross moves on from the snapshot's");
                assertEquals(before, settingsCommands("s2"), "gateway 2's start (the same settings) sent nothing");
                subscriber.assertNoProtocolErrors();
            }
            client.assertNoProtocolErrors();
            other.assertNoProtocolErrors();
        }
    }

    private static Map<String, String> withVenue(Map<String, String> keys) {
        Map<String, String> all = new HashMap<>(VENUE);
        all.putAll(keys);
        return all;
    }

    /** A session of gateway 1 that keeps its sequence numbers across the gateway's restarts. */
    private QfjClient logOn(String compId, FixmatchServer gateway) throws Exception {
        return QfjClient.logOn(compId, gateway.port(), new QfjClient.Options().fileStore(data.resolve("qfj-"
            + compId)));
    }

    /** A sell of {@code client} and a buy of {@code other}, 10 AAPL at {@code price}, which trade. */
    private static void trade(QfjClient client, QfjClient other, String price) throws Exception {
        client.send(Orders.limit("s0", "AAPL", SELL, 10, price));
        assertFields(client.nextApp("8"), 150, "0");
        other.send(Orders.limit("b0", "AAPL", BUY, 10, price));
        assertFields(other.nextApp("8"), 150, "0");
        assertFields(other.nextApp("8"), 150, "F", 31, new BigDecimal(price));
        assertFields(client.nextApp("8"), 150, "F", 31, new BigDecimal(price));
    }

    /**
     * The settings' commands in node 0's journal (each node journals every applied command), by type, once it holds
     * the new order {@code clOrdId}: a command a gateway sent at its start is journaled before any of its clients'.
     */
    private Map<String, Integer> settingsCommands(String clOrdId) throws InterruptedException {
        Path journal = TestServers.nodeFolder(data, 0).resolve("journal");
        Map<String, Integer> counts = new TreeMap<>();
        QfjClient.awaitCondition(() -> {
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            JournalDump.dump(journal, new PrintStream(text, true, StandardCharsets.UTF_8));
            List<String> lines = text.toString(StandardCharsets.UTF_8).lines().toList();
            counts.clear();
            SETTINGS.forEach(type -> counts.put(type, 0));
            for (String line : lines) {
                SETTINGS.stream().filter(type -> line.contains(" " + type)).forEach(type -> counts.merge(type, 1,
                    Integer::sum));
            }
            return lines.stream().anyMatch(line -> line.contains("clOrdId=" + clOrdId + " ")
                || line.endsWith("clOrdId=" + clOrdId));
        }, "node 0's journal holding " + clOrdId);
        return counts;
    }
}
