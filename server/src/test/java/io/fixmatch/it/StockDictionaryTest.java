package io.fixmatch.it;

import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.ExecInst;
import quickfix.field.Headline;
import quickfix.field.MassCancelRequestType;
import quickfix.field.MassStatusReqID;
import quickfix.field.MassStatusReqType;
import quickfix.field.MaxFloor;
import quickfix.field.OrdType;
import quickfix.field.Price;
import quickfix.field.StopPx;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.News;
import quickfix.fix44.OrderMassCancelRequest;
import quickfix.fix44.OrderMassStatusRequest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.AuctionFixTest.entries;
import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static io.fixmatch.it.Orders.dec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What a trader with an unmodified QuickFIX/J 2.3 client and its standard FIX 4.4 dictionary (FIX44.xml from
 * quickfixj-messages-fix44, QuickFIX/J's default validation: UseDataDictionary=Y, fields out of order, user-defined
 * fields, unordered group fields all checked) gets from the venue through calls and auctions, stops, icebergs,
 * rejects of every kind and market data: nothing it rejects. Every client of the test fails it on the first Reject
 * (35=3) or BusinessMessageReject (35=j) it sends back, or on any error QuickFIX/J logs.
 *
 * <p>Market data during a volatility interruption: the WATCHER session (the stock dictionary, not configured for the
 * indicative uncross) subscribes before and during the call and gets its book and trades without a 269=Q entry (no
 * FIX 4.4 MDEntryType); its request for Q is refused (35=Y 281=8). LOADGEN, configured for it
 * ({@code session.LOADGEN.marketData.indicative=true}) and validating with the venue dictionary, gets the 269=Q
 * entries meanwhile. In both modes: a cluster's gateway reads the same session settings.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StockDictionaryTest {
    private static final String NOT_DURING_CALL =
        "IOC and FOK orders are not accepted while the symbol is in a call (auction)";
    private static final String AUCTION_TIF_NOT_NOW = "At the Opening orders are accepted during the opening call"
        + " only, At the Close orders on symbols with a schedule before the closing auction";
    private static final String AUCTION_ENDED = "the auction the order was for has ended";
    private static final String TRIGGERED = "stop order triggered: the last trade price reached its stop price";

    @TempDir
    Path data;

    @Test
    @BothModes
    void aStockFix44ClientTradesAndWatchesTheBookThroughAVolatilityCallWithoutRejectingAnything() throws Exception {
        Map<String, String> config = Map.of("sessions", "CLIENT1,CLIENT2,LOADGEN,WATCHER",
            "engine.auctionGroups", "VOL", "auctionGroup.VOL.symbols", "AAPL",
            "auctionGroup.VOL.volatilityBand", "5%", "auctionGroup.VOL.interruptionSeconds", "3",
            AuctionFixTest.INDICATIVE_SUBSCRIBER, "true");
        try (FixmatchServer server = TestServers.start(data, 0, config);
             QfjClient trader = QfjClient.logOn("CLIENT1", server.port());
             QfjClient other = QfjClient.logOn("CLIENT2", server.port());
             QfjClient watcher = QfjClient.logOn("WATCHER", server.port());
             QfjClient subscriber = QfjClient.logOn("LOADGEN", server.port(),
                 new QfjClient.Options().dataDictionary(VenueDictionaryTest.DICTIONARY))) {
            assertEquals("FIX44.xml", new QfjClient.Options().dataDictionary, "the traders' stock dictionary");
            watcher.send(MarketDataBook.request("MD", '1', 0, List.of("AAPL"), '0', '1', '2'));
            assertEquals(List.of(), entries(watcher.nextApp("W")));
            subscriber.send(MarketDataBook.request("MDQ", '1', 0, List.of("AAPL"), '0', '1', '2', 'Q'));
            assertEquals(List.of(), entries(subscriber.nextApp("W")));

            // the last trade price: 100.00, so the band is 95.00..105.00
            trader.send(Orders.limit("s0", "AAPL", SELL, 10, "100.00"));
            assertFields(trader.nextApp("8"), 150, "0", 11, "s0");
            other.send(Orders.limit("b0", "AAPL", BUY, 10, "100.00"));
            assertFields(other.nextApp("8"), 150, "0", 11, "b0");
            assertFields(other.nextApp("8"), 150, "F", 11, "b0", 31, dec("100"), 39, "2");
            assertFields(trader.nextApp("8"), 150, "F", 11, "s0", 31, dec("100"), 39, "2");
            assertEquals(List.of("0 1 100 10"), entries(watcher.nextApp("X")));
            assertEquals(List.of("0 2 100 10", "2 1 100 -"), entries(watcher.nextApp("X")));

            // an iceberg inside the band showing 10 of 30, an ask outside it, a stop-limit buy waiting for 105.00
            NewOrderSingle iceberg = Orders.limit("ice", "AAPL", SELL, 30, "101.00");
            iceberg.set(new MaxFloor(10));
            trader.send(iceberg);
            assertFields(trader.nextApp("8"), 150, "0", 11, "ice", 151, "30");
            trader.send(Orders.limit("s1", "AAPL", SELL, 5, "110.00"));
            assertFields(trader.nextApp("8"), 150, "0", 11, "s1");
            assertEquals(List.of("0 1 101 10"), entries(watcher.nextApp("X")), "the iceberg's floor only");
            assertEquals(List.of("0 1 110 5"), entries(watcher.nextApp("X")));
            NewOrderSingle stopLimit = Orders.limit("sl", "AAPL", BUY, 5, "111.00");
            stopLimit.set(new OrdType(OrdType.STOP_LIMIT));
            stopLimit.set(new StopPx(105.00));
            other.send(stopLimit);
            assertFields(other.nextApp("8"), 150, "0", 11, "sl", 40, "4", 99, dec("105"));

            refusals(other);

            // 40 @ 110.00 takes the iceberg whole at 101.00 (its hidden part refilling), then stops at the band:
            // the volatility call starts with its 10 @ 110.00 crossing the 5 @ 110.00
            other.send(Orders.limit("b1", "AAPL", BUY, 40, "110.00"));
            assertFields(other.nextApp("8"), 150, "0", 11, "b1");
            for (int i = 1; i <= 3; i++) {
                assertFields(other.nextApp("8"), 150, "F", 11, "b1", 31, dec("101"), 32, "10", 151,
                    Integer.toString(40 - 10 * i));
                assertFields(trader.nextApp("8"), 150, "F", 11, "ice", 31, dec("101"), 32, "10", 39,
                    i == 3 ? "2" : "1");
            }
            List<String> callStarts = entries(watcher.nextApp("X"));
            assertEquals(List.of("0 2 101 10", "0 2 101 10", "0 2 101 10", "0 0 110 10", "2 1 101 -"), callStarts,
                "the trades and the crossed book, no 269=Q");
            List<String> withIndicative = updateWith(subscriber, "0 Q 110 5");
            assertEquals(callStarts, withIndicative.subList(0, callStarts.size()), "the same, and 269=Q last");

            // subscribing during the call: the crossed book, no 269=Q; asking for Q is refused
            watcher.send(MarketDataBook.request("SNAP", '0', 0, List.of("AAPL"), '0', '1'));
            assertEquals(List.of("0 0 110 10", "0 1 110 5"), entries(watcher.nextApp("W")));
            watcher.send(MarketDataBook.request("MD2", '1', 0, List.of("AAPL"), '0', '1', '2'));
            assertEquals(List.of("0 0 110 10", "0 1 110 5"), entries(watcher.nextApp("W")));
            watcher.send(MarketDataBook.request("Q1", '1', 0, List.of("AAPL"), '0', '1', '2', 'Q'));
            Message refused = watcher.nextApp("Y");
            assertFields(refused, 262, "Q1", 281, "8");
            assertTrue(refused.getString(58).contains("marketData.indicative"), QfjClient.show(refused));

            // in the call: IOC and FOK refused, a market order waits for the uncross
            for (char tif : new char[] {TimeInForce.IMMEDIATE_OR_CANCEL, TimeInForce.FILL_OR_KILL}) {
                NewOrderSingle immediate = Orders.limit("i" + tif, "AAPL", BUY, 1, "110.00");
                immediate.set(new TimeInForce(tif));
                other.send(immediate);
                assertFields(other.nextApp("8"), 150, "8", 39, "8", 59, Character.toString(tif), 103, "99",
                    58, NOT_DURING_CALL);
            }
            NewOrderSingle market = Orders.limit("m1", "AAPL", SELL, 20, "1");
            market.set(new OrdType(OrdType.MARKET));
            market.removeField(Price.FIELD);
            trader.send(market);
            assertFields(trader.nextApp("8"), 150, "0", 39, "0", 11, "m1", 40, "1");
            assertEquals(List.of("1 Q 110 10"), entries(subscriber.nextApp("X")), "the market sell joins the call");

            // the interruption's end (3 s after it began): 10 trade at 110.00, the market order's rest is canceled,
            // and the last trade triggers the stop-limit buy, which takes the 5 @ 110.00
            assertFields(other.nextApp("8"), 150, "F", 11, "b1", 31, dec("110"), 32, "10", 39, "2");
            assertFields(trader.nextApp("8"), 150, "F", 11, "m1", 31, dec("110"), 32, "10", 39, "1");
            assertFields(trader.nextApp("8"), 150, "4", 39, "4", 11, "m1", 151, "0", 14, "10", 58, AUCTION_ENDED);
            assertFields(other.nextApp("8"), 150, "D", 378, "99", 11, "sl", 58, TRIGGERED);
            assertFields(other.nextApp("8"), 150, "F", 11, "sl", 31, dec("110"), 32, "5", 39, "2");
            assertFields(trader.nextApp("8"), 150, "F", 11, "s1", 31, dec("110"), 32, "5", 39, "2");
            List<String> uncross = entries(watcher.nextApp("X"));
            assertTrue(uncross.contains("0 2 110 10") && uncross.contains("0 2 110 5"), uncross.toString());
            List<String> uncrossMd2 = entries(watcher.nextApp("X"));
            assertTrue(uncrossMd2.contains("2 0 110 -"), uncrossMd2.toString());
            updateWith(subscriber, "2 Q 110 -");

            // continuous again: a replace, a mass status and a mass cancel (with a waiting stop)
            trader.send(Orders.limit("g1", "AAPL", SELL, 5, "120.00"));
            assertFields(trader.nextApp("8"), 150, "0", 11, "g1");
            trader.send(Orders.replace("g2", "g1", "AAPL", SELL, 6, "121.00"));
            assertFields(trader.nextApp("8"), 150, "5", 39, "0", 11, "g2", 41, "g1", 38, "6");
            NewOrderSingle stop = Orders.limit("st", "AAPL", SELL, 5, "1");
            stop.set(new OrdType(OrdType.STOP_STOP_LOSS));
            stop.removeField(Price.FIELD);
            stop.set(new StopPx(90.00));
            trader.send(stop);
            assertFields(trader.nextApp("8"), 150, "0", 11, "st", 40, "3");
            OrderMassStatusRequest massStatus = new OrderMassStatusRequest(new MassStatusReqID("ms"),
                new MassStatusReqType(MassStatusReqType.STATUS_FOR_ALL_ORDERS));
            trader.send(massStatus);
            assertFields(trader.nextApp("8"), 150, "I", 584, "ms", 911, "2");
            assertFields(trader.nextApp("8"), 150, "I", 584, "ms", 911, "2", 912, "Y");
            trader.send(new OrderMassCancelRequest(new ClOrdID("mc"),
                new MassCancelRequestType(MassCancelRequestType.CANCEL_ALL_ORDERS),
                new TransactTime(LocalDateTime.now(ZoneOffset.UTC))));
            assertFields(trader.nextApp("r"), 11, "mc", 531, "7", 533, "2");
            assertFields(trader.nextApp("8"), 150, "4", 11, "st");
            assertFields(trader.nextApp("8"), 150, "4", 11, "g2");

            trader.assertNoProtocolErrors();
            other.assertNoProtocolErrors();
            watcher.assertNoProtocolErrors();
            subscriber.assertNoProtocolErrors();
        }
    }

    /** The entries of the next X holding {@code entry}, the updates before it passed over (at most 20). */
    private static List<String> updateWith(QfjClient client, String entry) throws Exception {
        for (int i = 0; i < 20; i++) {
            List<String> entries = entries(client.nextApp("X"));
            if (entries.contains(entry)) {
                return entries;
            }
        }
        throw new AssertionError("no X with " + entry);
    }

    /**
     * The refusals a trader may meet, each one validated by the stock dictionary: the gateway's (unknown symbol), the
     * engine's (price off the tick, post-only, At the Opening and At the Close on a symbol without a schedule), an
     * OrderCancelReject of each reason, a BusinessMessageReject and a session Reject.
     */
    private static void refusals(QfjClient client) throws Exception {
        client.send(Orders.limit("u1", "NOPE", BUY, 1, "100.00"));
        assertFields(client.nextApp("8"), 150, "8", 39, "8", 11, "u1", 103, "1");
        client.send(Orders.limit("t1", "AAPL", BUY, 1, "100.005"));
        assertFields(client.nextApp("8"), 150, "8", 11, "t1", 103, "99");
        NewOrderSingle postOnly = Orders.limit("p1", "AAPL", BUY, 1, "101.00");
        postOnly.set(new ExecInst("6"));
        client.send(postOnly);
        assertFields(client.nextApp("8"), 150, "8", 11, "p1", 103, "99");
        for (char tif : new char[] {TimeInForce.AT_THE_OPENING, TimeInForce.AT_THE_CLOSE}) {
            NewOrderSingle auctionOnly = Orders.limit("a" + tif, "AAPL", BUY, 1, "99.00");
            auctionOnly.set(new TimeInForce(tif));
            client.send(auctionOnly);
            assertFields(client.nextApp("8"), 150, "8", 59, Character.toString(tif), 103, "99",
                58, AUCTION_TIF_NOT_NOW);
        }
        client.send(Orders.cancel("c1", "nosuch", "AAPL", BUY));
        assertFields(client.nextApp("9"), 434, "1", 102, "1");
        client.send(Orders.replace("r1", "sl", "AAPL", BUY, 5, "112.00"));
        assertFields(client.nextApp("9"), 434, "2", 102, "99", 41, "sl");
        News news = new News(new Headline("hello"));
        client.send(news);
        assertFields(client.nextApp("j"), 372, "B", 380, "3");
        NewOrderSingle noSymbol = Orders.limit("n1", "AAPL", BUY, 1, "100.00");
        noSymbol.removeField(Symbol.FIELD);
        client.send(noSymbol);
        assertFields(client.nextAdmin(m -> "3".equals(QfjClient.msgType(m))), 373, "1", 371, "55");
    }

    /**
     * A session with {@code latencyTrace=true} gets tags 7101-7107 on its ExecutionReports, OrderCancelRejects and
     * OrderMassCancelReports: a client validating with the venue dictionary accepts all three, and one with the stock
     * dictionary does once told {@code ValidateUserDefinedFields=N} (docs/FIX.md "Data dictionary").
     */
    @Test
    void tracedReportsPassTheVenueDictionaryAndTheStockOneWithoutUserDefinedFieldChecks() throws Exception {
        try (FixmatchServer server = TestServers.start(data, 0, Map.of("session.CLIENT1.latencyTrace", "true",
                "session.CLIENT2.latencyTrace", "true"));
             QfjClient venue = QfjClient.logOn("CLIENT1", server.port(),
                 new QfjClient.Options().dataDictionary(VenueDictionaryTest.DICTIONARY));
             QfjClient stock = QfjClient.logOn("CLIENT2", server.port(),
                 new QfjClient.Options().setting("ValidateUserDefinedFields", "N"))) {
            for (QfjClient client : List.of(venue, stock)) {
                client.send(Orders.limit("b1", "AAPL", BUY, 10, "99.00"));
                assertTraced(client.nextApp("8"));
                client.send(Orders.cancel("c1", "nosuch", "AAPL", BUY));
                assertTraced(client.nextApp("9"));
                client.send(new OrderMassCancelRequest(new ClOrdID("mc"),
                    new MassCancelRequestType(MassCancelRequestType.CANCEL_ALL_ORDERS),
                    new TransactTime(LocalDateTime.now(ZoneOffset.UTC))));
                assertTraced(client.nextApp("r"));
                assertTraced(client.nextApp("8"));
                client.assertNoProtocolErrors();
            }
        }
    }

    private static void assertTraced(Message message) {
        assertTrue(message.isSetField(7101) && message.isSetField(7107), "not traced: " + QfjClient.show(message));
    }

    /**
     * An OrderMassCancelReport refused for another reason than an unknown symbol (here the journal refusing appends:
     * the disk has less free than journal.minFreeMegabytes) carries no MassCancelRejectReason: FIX 4.4 types 532 as a
     * char, so its "99 Other" fails the stock dictionary. Standalone: the refusal comes from the server's journal.
     */
    @Test
    void aMassCancelRefusedForAnotherReasonThanTheSymbolPassesTheStockDictionary() throws Exception {
        long minFreeMegabytes = 1_000_000;
        assumeTrue(!TestServers.clusterMode() && Files.getFileStore(data).getUsableSpace() < minFreeMegabytes << 20,
            "needs a disk with less than " + minFreeMegabytes + " MB free");
        try (FixmatchServer server = TestServers.start(data, 0, Map.of("journal.minFreeMegabytes",
                Long.toString(minFreeMegabytes)));
             QfjClient trader = QfjClient.logOn("CLIENT1", server.port())) {
            trader.send(new OrderMassCancelRequest(new ClOrdID("mc"),
                new MassCancelRequestType(MassCancelRequestType.CANCEL_ALL_ORDERS),
                new TransactTime(LocalDateTime.now(ZoneOffset.UTC))));
            assertFields(trader.nextApp("r"), 11, "mc", 531, "0", 532, null, 58, "the request could not be recorded (journal unavailable); nothing was done");
            trader.assertNoProtocolErrors();
        }
    }
}
