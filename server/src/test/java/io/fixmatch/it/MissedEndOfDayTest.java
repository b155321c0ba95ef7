package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.server.AdminSettings;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.TimeInForce;
import quickfix.fix44.NewOrderSingle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.assertFields;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A server that was down when the trading day ended expires the day's DAY orders when it starts, before any client's
 * command, through a real journal on disk, real restarts and a QuickFIX/J client that keeps its sequence numbers
 * (a file store) and gets the ExecType=C reports by resend when it logs on again. GTC orders stay; a start before the
 * end of day expires nothing, and a start after one that was already ended expires nothing twice. The server's clock
 * is a test's, so the day passes without waiting.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MissedEndOfDayTest {
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final Map<String, String> END_OF_DAY = Map.of("engine.endOfDay", "17:30",
        "engine.timeZone", "America/New_York");

    @TempDir
    Path data;

    @Test
    void dayOrdersOfADayThatEndedWhileTheServerWasDownExpireAtStartOnce() throws Exception {
        ServerConfig config = TestServers.config(data.resolve("server"), 0, END_OF_DAY)
            .withAdmin(new AdminSettings("127.0.0.1", AdminSettings.ANY_FREE_PORT, null));
        MovableClock clock = new MovableClock(newYork(6, 10, 0)); // a Tuesday morning

        try (FixmatchServer server = FixmatchServer.start(config, clock);
             QfjClient client = logOn(server)) {
            accepted(client, Orders.limit("d1", "AAPL", BUY, 10, "100.00"));
            NewOrderSingle gtc = Orders.limit("g1", "AAPL", BUY, 10, "99.00");
            gtc.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
            accepted(client, gtc);
        }

        clock.set(newYork(6, 17, 29)); // restarted a minute before the end of the day: nothing expires
        try (FixmatchServer server = FixmatchServer.start(config, clock);
             QfjClient client = logOn(server)) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            // An expiry report would come first: the server's sequence numbers are the client's to follow.
            accepted(client, Orders.limit("d2", "MSFT", BUY, 10, "20.00"));
            assertEquals(0, admin.metrics().value("fixmatch_orders_expired_total"));
            assertEquals(2, admin.getJson("/book/AAPL", 200).get("bidLevels").asInt());
            client.assertNoProtocolErrors();
        }

        clock.set(newYork(7, 9, 0)); // the next morning: yesterday's 17:30 passed while the server was down
        try (FixmatchServer server = FixmatchServer.start(config, clock);
             QfjClient client = logOn(server)) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            Message first = client.nextApp("8");
            Message second = client.nextApp("8");
            for (Message expired : new Message[] {first, second}) {
                assertFields(expired, 150, "C", 39, "C", 151, "0", 59, "0",
                    58, "day order expired at the end of the trading day");
            }
            assertEquals(Set.of("d1", "d2"), Set.of(first.getString(11), second.getString(11)));
            accepted(client, Orders.limit("d3", "AAPL", BUY, 10, "101.00")); // today's
            assertEquals(2, admin.metrics().value("fixmatch_orders_expired_total"));
            assertEquals("[101.00, 99.00]", bidPrices(admin, "AAPL"), "d1 expired, g1 (GTC) stays");
            assertEquals("[]", bidPrices(admin, "MSFT"));
            client.assertNoProtocolErrors();
        }

        deleteSnapshots(); // the whole journal is replayed: the expiry at the last start is in it, not decided again
        clock.set(newYork(7, 12, 0));
        for (int restart = 0; restart < 2; restart++) { // from the journal alone, then from the snapshot
            try (FixmatchServer server = FixmatchServer.start(config, clock);
                 QfjClient client = logOn(server)) {
                AdminClient admin = new AdminClient(server.adminPort(), null);
                accepted(client, Orders.limit("m" + restart, "MSFT", BUY, 10, "20.00"));
                assertEquals("[101.00, 99.00]", bidPrices(admin, "AAPL"), "restart " + restart);
                assertEquals(restart + 1, admin.getJson("/book/MSFT", 200).get("bids").get(0).get("orders").asInt(),
                    "restart " + restart + ": today's DAY orders rest");
                client.assertNoPendingApp();
                client.assertNoProtocolErrors();
            }
        }
    }

    private QfjClient logOn(FixmatchServer server) throws Exception {
        return QfjClient.logOn("CLIENT1", server.port(),
            new QfjClient.Options().fileStore(data.resolve("qfj-client1")));
    }

    private static void accepted(QfjClient client, Message order) throws InterruptedException {
        client.send(order);
        assertFields(client.nextApp("8"), 150, "0", 39, "0");
    }

    private static String bidPrices(AdminClient admin, String symbol) throws Exception {
        JsonNode bids = admin.getJson("/book/" + symbol, 200).get("bids");
        StringBuilder prices = new StringBuilder("[");
        for (JsonNode level : bids) {
            prices.append(prices.length() > 1 ? ", " : "").append(level.get("price").asText());
        }
        return prices.append(']').toString();
    }

    private static Instant newYork(int dayOfMarch2040, int hour, int minute) {
        return ZonedDateTime.of(2040, 3, dayOfMarch2040, hour, minute, 0, 0, NEW_YORK).toInstant();
    }

    private void deleteSnapshots() throws Exception {
        try (Stream<Path> files = Files.walk(data.resolve("server").resolve("journal").resolve("snapshots"))) {
            for (Path file : files.sorted(Comparator.reverseOrder()).filter(Files::isRegularFile).toList()) {
                Files.delete(file);
            }
        }
    }
}
