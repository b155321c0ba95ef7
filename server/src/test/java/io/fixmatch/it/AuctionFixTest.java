package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.FieldNotFound;
import quickfix.Group;
import quickfix.Message;
import quickfix.field.OrdType;
import quickfix.field.StopPx;
import quickfix.field.TimeInForce;
import quickfix.fix44.NewOrderSingle;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static io.fixmatch.it.Orders.dec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Call auctions through real FIX sessions (QuickFIX/J initiators; the market data subscriber, configured for 269=Q,
 * validates with the venue dictionary, which lists Q): the configuration's auction groups reach the engine, a call publishes its
 * indicative uncross price and volume in market data (269=Q) and on the admin endpoint, and the uncross executes at
 * that one price. A volatility interruption (with a stop-limit order its uncross triggers) runs in both modes, its end
 * on the engine's timer (standalone) or the cluster's; the opening and closing auctions of a schedule, with At the
 * Opening and At the Close orders, run standalone on a movable clock.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AuctionFixTest {
    private static final String TRIGGERED_TEXT = "stop order triggered: the last trade price reached its stop price";
    /** The subscriber's session may ask for 269=Q (no FIX 4.4 value; it validates with the venue dictionary). */
    static final String INDICATIVE_SUBSCRIBER = "session.LOADGEN.marketData.indicative";

    @TempDir
    Path data;

    @Test
    @BothModes
    void aVolatilityInterruptionPublishesItsIndicativeUncrossThenUncrossesAndTriggersAStop() throws Exception {
        Map<String, String> config = Map.of("engine.auctionGroups", "VOL", "auctionGroup.VOL.symbols", "AAPL",
            "auctionGroup.VOL.volatilityBand", "5%", "auctionGroup.VOL.interruptionSeconds", "3",
            INDICATIVE_SUBSCRIBER, "true");
        try (FixmatchServer server = TestServers.start(data, 0, config, TestServers.admin(null));
             QfjClient client = QfjClient.logOn("CLIENT1", server.port());
             QfjClient other = QfjClient.logOn("CLIENT2", server.port());
             QfjClient subscriber = QfjClient.logOn("LOADGEN", server.port(),
                 new QfjClient.Options().dataDictionary(VenueDictionaryTest.DICTIONARY))) {
            AdminClient admin = new AdminClient(server.adminPort(), null);
            assertEquals("CONTINUOUS", admin.getJson("/book/AAPL", 200).get("phase").asText());
            client.send(Orders.limit("s0", "AAPL", SELL, 10, "100.00"));
            assertFields(client.nextApp("8"), 150, "0");
            other.send(Orders.limit("b0", "AAPL", BUY, 10, "100.00")); // the last trade price: 100.00
            assertFields(other.nextApp("8"), 150, "0");
            assertFields(other.nextApp("8"), 150, "F", 31, dec("100"));
            assertFields(client.nextApp("8"), 150, "F", 31, dec("100"));
            NewOrderSingle stopLimit = Orders.limit("sl", "AAPL", BUY, 5, "111.00");
            stopLimit.set(new OrdType(OrdType.STOP_LIMIT));
            stopLimit.set(new StopPx(105.00));
            client.send(stopLimit);
            assertFields(client.nextApp("8"), 150, "0", 11, "sl");

            subscriber.send(MarketDataBook.request("MD", '1', 0, List.of("AAPL"), '0', '1', '2', 'Q'));
            assertEquals(List.of(), entries(subscriber.nextApp("W")), "an empty book, no call");
            client.send(Orders.limit("s1", "AAPL", SELL, 5, "110.00"));
            assertFields(client.nextApp("8"), 150, "0", 11, "s1");
            assertEquals(List.of("0 1 110 5"), entries(subscriber.nextApp("X")));

            // 110.00 is 10% above the last trade: the buy would trade outside the 5% band, so a call starts instead
            other.send(Orders.limit("b1", "AAPL", BUY, 5, "110.00"));
            assertFields(other.nextApp("8"), 150, "0", 11, "b1", 39, "0");
            assertEquals(List.of("0 0 110 5", "0 Q 110 5"), entries(subscriber.nextApp("X")));
            JsonNode book = admin.getJson("/book/AAPL", 200);
            assertEquals("VOLATILITY_CALL", book.get("phase").asText(), book.toString());
            assertEquals(0, dec("110").compareTo(new BigDecimal(book.get("indicativePrice").asText())), book.toString());
            assertEquals(5, book.get("indicativeVolume").asLong(), book.toString());
            subscriber.send(MarketDataBook.request("SNAP", '0', 0, List.of("AAPL"), '0', '1', 'Q'));
            assertEquals(List.of("0 0 110 5", "0 1 110 5", "0 Q 110 5"), entries(subscriber.nextApp("W")),
                "a snapshot during the call: the crossed book and, last, the indicative uncross");

            // the interruption's end (3 s later, no other command needed): the uncross at 110.00, which triggers
            // the stop-limit buy (stop 105.00); it rests at 111.00
            assertFields(other.nextApp("8"), 150, "F", 11, "b1", 31, dec("110"), 32, "5", 39, "2");
            assertFields(client.nextApp("8"), 150, "F", 11, "s1", 31, dec("110"), 32, "5", 39, "2");
            assertFields(client.nextApp("8"), 150, "D", 378, "99", 11, "sl", 40, "4", 58, TRIGGERED_TEXT);
            List<String> afterUncross = entries(subscriber.nextApp("X"));
            assertTrue(afterUncross.contains("0 2 110 5"), "the uncross's trade: " + afterUncross);
            assertTrue(afterUncross.contains("2 Q 110 -"), "the indicative price is gone: " + afterUncross);
            assertTrue(afterUncross.contains("0 0 111 5"), "the triggered stop-limit rests: " + afterUncross);
            book = admin.getJson("/book/AAPL", 200);
            assertEquals("CONTINUOUS", book.get("phase").asText(), book.toString());
            assertTrue(book.get("indicativePrice").isNull(), book.toString());
            client.assertNoProtocolErrors();
            other.assertNoProtocolErrors();
            subscriber.assertNoProtocolErrors();
        }
    }

    /**
     * A schedule with the clock in the opening call: At the Opening (59=2) and market orders collect, the indicative
     * uncross moves with them, the uncross trades everything crossing at one price, the leftovers trade on
     * continuously; an At the Close (59=7) order waits for the closing call; the closing uncross; then the symbol is
     * closed (a new order is refused, 103=2).
     */
    @Test
    void openingAndClosingAuctionsOfTheScheduleWithAtTheOpeningAndAtTheCloseOrders() throws Exception {
        Instant day = Instant.parse("2026-03-03T00:00:00Z");
        MovableClock clock = new MovableClock(day.plus(Duration.ofHours(8).plusMinutes(30)));
        ServerConfig config = TestServers.config(data, 0, Map.of("engine.auctionGroups", "EQ",
            "auctionGroup.EQ.symbols", "AAPL", "auctionGroup.EQ.openingCall", "08:00",
            "auctionGroup.EQ.openingUncross", "09:00", "auctionGroup.EQ.closingCall", "16:00",
            "auctionGroup.EQ.closingUncross", "16:30", INDICATIVE_SUBSCRIBER, "true"));
        try (FixmatchServer server = FixmatchServer.start(config, clock);
             QfjClient client = QfjClient.logOn("CLIENT1", server.port());
             QfjClient other = QfjClient.logOn("CLIENT2", server.port());
             QfjClient subscriber = QfjClient.logOn("LOADGEN", server.port(),
                 new QfjClient.Options().dataDictionary(VenueDictionaryTest.DICTIONARY))) {
            subscriber.send(MarketDataBook.request("MD", '1', 0, List.of("AAPL"), '0', '1', '2', 'Q'));
            assertEquals(List.of(), entries(subscriber.nextApp("W")));
            client.send(order("b1", BUY, 30, "101.00", TimeInForce.AT_THE_OPENING));
            assertFields(client.nextApp("8"), 150, "0", 11, "b1", 59, "2");
            assertEquals(List.of("0 0 101 30"), entries(subscriber.nextApp("X")), "no crossing interest yet");
            other.send(order("s1", SELL, 20, "99.00", TimeInForce.DAY));
            assertFields(other.nextApp("8"), 150, "0", 11, "s1", 39, "0"); // collects, no trade in a call
            // 20 trades at every price from 99 to 101, 10 left over at each; no reference price: the lowest
            assertEquals(List.of("0 1 99 20", "0 Q 99 20"), entries(subscriber.nextApp("X")));
            other.send(order("s2", SELL, 10, "100.00", TimeInForce.DAY));
            assertFields(other.nextApp("8"), 150, "0", 11, "s2");
            // now 30 trade at every price from 100 to 101 with nothing left over: the lowest (docs/MATCHING.md)
            List<String> moved = entries(subscriber.nextApp("X"));
            assertEquals(List.of("0 1 100 10", "1 Q 100 30"), moved);
            client.send(order("c1", BUY, 7, "98.00", TimeInForce.AT_THE_CLOSE));
            assertFields(client.nextApp("8"), 150, "0", 11, "c1", 59, "7");

            clock.set(day.plus(Duration.ofHours(9).plusSeconds(1))); // past the opening uncross: the engine's timer
            assertFields(client.nextApp("8"), 150, "F", 11, "b1", 31, dec("100"), 32, "20");
            assertFields(client.nextApp("8"), 150, "F", 11, "b1", 31, dec("100"), 32, "10", 39, "2");
            assertFields(other.nextApp("8"), 150, "F", 11, "s1", 31, dec("100"), 32, "20", 39, "2");
            assertFields(other.nextApp("8"), 150, "F", 11, "s2", 31, dec("100"), 32, "10", 39, "2");
            List<String> uncross = entries(subscriber.nextApp("X"));
            assertTrue(uncross.contains("2 Q 100 -"), uncross.toString());
            other.send(order("s3", SELL, 5, "98.00", TimeInForce.DAY)); // continuous: nothing rests to trade with
            assertFields(other.nextApp("8"), 150, "0", 11, "s3");

            clock.set(day.plus(Duration.ofHours(16).plusSeconds(1))); // the closing call: c1 joins the book
            other.send(order("s4", SELL, 1, "120.00", TimeInForce.DAY)); // (any command; the timer would too)
            assertFields(other.nextApp("8"), 150, "0", 11, "s4");
            clock.set(day.plus(Duration.ofHours(16).plusMinutes(30).plusSeconds(1)));
            assertFields(client.nextApp("8"), 150, "F", 11, "c1", 31, dec("98"), 32, "5");
            assertFields(client.nextApp("8"), 150, "4", 11, "c1", 151, "0"); // its rest was for the close only
            assertFields(nextReport(other, "s3"), 150, "F", 31, dec("98"), 32, "5", 39, "2");
            assertFields(nextReport(other, "s4"), 150, "C"); // a DAY order left at the close expires
            other.send(order("late", SELL, 1, "98.00", TimeInForce.DAY));
            Message refused = nextReport(other, "late");
            assertFields(refused, 150, "8", 103, "2");
            client.assertNoProtocolErrors();
            other.assertNoProtocolErrors();
            subscriber.assertNoProtocolErrors();
        }
    }

    private static NewOrderSingle order(String id, char side, long qty, String price, char tif) {
        NewOrderSingle order = Orders.limit(id, "AAPL", side, qty, price);
        order.set(new TimeInForce(tif));
        return order;
    }

    /** The next execution report of this ClOrdID, skipping unsolicited ones of others (expiries at the close). */
    private static Message nextReport(QfjClient client, String clOrdId) throws Exception {
        for (int i = 0; i < 10; i++) {
            Message message = client.nextApp("8");
            if (clOrdId.equals(message.getString(11))) {
                return message;
            }
        }
        return fail("no report of " + clOrdId);
    }

    /** A W's or an X's entries as "action type price size" (action 0 for a W; size "-" when absent). */
    static List<String> entries(Message message) throws FieldNotFound {
        List<String> entries = new ArrayList<>();
        for (Group group : message.getGroups(268)) {
            String action = group.isSetField(279) ? group.getString(279) : "0";
            String size = group.isSetField(271) ? new BigDecimal(group.getString(271)).stripTrailingZeros()
                .toPlainString() : "-";
            entries.add(action + " " + group.getString(269) + " "
                + new BigDecimal(group.getString(270)).stripTrailingZeros().toPlainString() + " " + size);
        }
        return entries;
    }
}
