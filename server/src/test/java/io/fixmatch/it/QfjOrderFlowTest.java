package io.fixmatch.it;

import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.OrderQty;
import quickfix.field.OrdType;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TransactTime;
import quickfix.fix44.ExecutionReport;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelReject;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static io.fixmatch.it.Orders.dec;
import static io.fixmatch.it.Orders.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Order entry through unmodified QuickFIX/J initiators (CLIENT1, CLIENT2) against an in-process server, with QFJ
 * validating every message the server sends against FIX44.xml. Each test uses its own symbol, so the books of one
 * test do not meet the orders of another.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@BothModes
class QfjOrderFlowTest {
    @TempDir
    static Path data;
    private static FixmatchServer server;
    private static QfjClient client1;
    private static QfjClient client2;

    @BeforeAll
    static void start() throws Exception {
        try {
            server = TestServers.start(data);
            client1 = new QfjClient("CLIENT1", server.port(), new QfjClient.Options());
            client2 = new QfjClient("CLIENT2", server.port(), new QfjClient.Options());
            client1.start();
            client2.start();
            client1.awaitLogons(1);
            client2.awaitLogons(1);
        } catch (Throwable e) {
            stop();
            throw e;
        }
    }

    @AfterAll
    static void stop() {
        for (QfjClient client : new QfjClient[] {client1, client2}) {
            if (client != null) {
                client.stopForcibly();
            }
        }
        TestServers.closeQuietly(server);
    }

    @AfterEach
    void nothingUnexpected() {
        for (QfjClient client : new QfjClient[] {client1, client2}) {
            client.assertNoProtocolErrors();
            client.assertNoPendingApp();
        }
    }

    private static Message next(QfjClient client, String msgType) throws InterruptedException {
        Message message = client.nextApp(msgType);
        Orders.assertValidFix44(message);
        return message;
    }

    @Test
    void newOrderSingleIsAcknowledgedWithEveryRequiredField() throws Exception {
        client1.send(Orders.limit("JPM-1", "JPM", BUY, 100, "150.25"));

        Message ack = next(client1, "8");
        assertInstanceOf(ExecutionReport.class, ack, "QFJ cracks it as a FIX 4.4 ExecutionReport");
        assertFields(ack,
            8, "FIX.4.4", 49, "FIXMATCH", 56, "CLIENT1",
            11, "JPM-1", 150, "0", 39, "0", 55, "JPM", 54, "1", 38, "100", 40, "2", 44, dec("150.25"), 59, "0",
            151, "100", 14, "0", 6, dec("0"), 41, null, 32, null, 31, null, 103, null);
        assertTrue(Long.parseLong(field(ack, 37)) > 0, "OrderID is the engine's order id: " + ack);
        assertTrue(Long.parseLong(field(ack, 17)) > 0, "ExecID is the engine's exec id: " + ack);
        assertNotNull(field(ack, 60), "TransactTime");
        assertNotNull(field(ack, 52), "SendingTime");

        // A second order: new order id, new exec id.
        client1.send(Orders.limit("JPM-2", "JPM", BUY, 1, "150.24"));
        Message second = next(client1, "8");
        assertFields(second, 11, "JPM-2", 150, "0", 39, "0");
        assertEquals(Long.parseLong(field(ack, 37)) + 1, Long.parseLong(field(second, 37)), "order ids");
        assertTrue(Long.parseLong(field(second, 17)) > Long.parseLong(field(ack, 17)), "exec ids increase");
    }

    @Test
    void partialFillsAcrossTwoSessions() throws Exception {
        client1.send(Orders.limit("AAPL-S1", "AAPL", SELL, 100, "10.00"));
        Message sellAck = next(client1, "8");
        assertFields(sellAck, 11, "AAPL-S1", 150, "0", 39, "0", 151, "100", 14, "0");
        String sellOrderId = field(sellAck, 37);

        // CLIENT2 buys 30 at a better price: trades at the resting order's price, 10.
        client2.send(Orders.limit("AAPL-B1", "AAPL", BUY, 30, "10.05"));
        assertFields(next(client2, "8"), 11, "AAPL-B1", 150, "0", 39, "0", 151, "30", 14, "0");
        Message buyTrade = next(client2, "8");
        assertFields(buyTrade, 11, "AAPL-B1", 150, "F", 39, "2", 54, "1", 55, "AAPL", 38, "30", 44, dec("10.05"),
            32, "30", 31, dec("10"), 151, "0", 14, "30", 6, dec("10"));
        Message sellTrade = next(client1, "8");
        assertFields(sellTrade, 11, "AAPL-S1", 37, sellOrderId, 150, "F", 39, "1", 54, "2", 32, "30", 31, dec("10"),
            151, "70", 14, "30", 6, dec("10"));
        assertNotEquals(field(buyTrade, 17), field(sellTrade, 17), "each side has its own ExecID");

        // CLIENT1 adds 50 at 10.10; CLIENT2 buys 100 at 10.10: 70 at 10.00, then 30 at 10.10.
        client1.send(Orders.limit("AAPL-S2", "AAPL", SELL, 50, "10.10"));
        assertFields(next(client1, "8"), 11, "AAPL-S2", 150, "0", 151, "50");
        client2.send(Orders.limit("AAPL-B2", "AAPL", BUY, 100, "10.10"));
        assertFields(next(client2, "8"), 11, "AAPL-B2", 150, "0", 151, "100");
        assertFields(next(client2, "8"), 11, "AAPL-B2", 150, "F", 39, "1", 32, "70", 31, dec("10"), 151, "30",
            14, "70", 6, dec("10"));
        assertFields(next(client2, "8"), 11, "AAPL-B2", 150, "F", 39, "2", 32, "30", 31, dec("10.1"), 151, "0",
            14, "100", 6, dec("10.03"));
        assertFields(next(client1, "8"), 11, "AAPL-S1", 150, "F", 39, "2", 32, "70", 31, dec("10"), 151, "0",
            14, "100", 6, dec("10"));
        assertFields(next(client1, "8"), 11, "AAPL-S2", 150, "F", 39, "1", 32, "30", 31, dec("10.1"), 151, "20",
            14, "30", 6, dec("10.1"));

        // Canceling the partially filled rest keeps what was filled.
        client1.send(Orders.cancel("AAPL-S2-C", "AAPL-S2", "AAPL", SELL));
        assertFields(next(client1, "8"), 11, "AAPL-S2-C", 41, "AAPL-S2", 150, "4", 39, "4", 151, "0", 14, "30",
            6, dec("10.1"));
    }

    @Test
    void marketIocAndFokOrders() throws Exception {
        // Nothing to buy from: a market order is rejected.
        NewOrderSingle market = Orders.limit("V-MKT-0", "V", BUY, 10, "1.00");
        market.set(new OrdType(OrdType.MARKET));
        market.removeField(quickfix.field.Price.FIELD);
        client2.send(market);
        assertFields(next(client2, "8"), 11, "V-MKT-0", 150, "8", 39, "8", 103, "99", 40, "1", 44, null);

        client1.send(Orders.limit("V-ASK", "V", SELL, 50, "200.00"));
        assertFields(next(client1, "8"), 11, "V-ASK", 150, "0");

        // Market buy of 80: 50 trade at 200, the other 30 are canceled.
        market.set(new ClOrdID("V-MKT-1"));
        market.set(new OrderQty(80));
        client2.send(market);
        assertFields(next(client2, "8"), 11, "V-MKT-1", 150, "0", 40, "1", 151, "80");
        assertFields(next(client2, "8"), 11, "V-MKT-1", 150, "F", 39, "1", 32, "50", 31, dec("200"), 151, "30",
            14, "50");
        assertFields(next(client2, "8"), 11, "V-MKT-1", 150, "4", 39, "4", 151, "0", 14, "50", 6, dec("200"));
        assertFields(next(client1, "8"), 11, "V-ASK", 150, "F", 39, "2", 32, "50");

        // FOK that cannot be filled whole: canceled, nothing trades. IOC: fills what it can.
        client1.send(Orders.limit("V-ASK2", "V", SELL, 10, "201.00"));
        assertFields(next(client1, "8"), 11, "V-ASK2", 150, "0");
        NewOrderSingle fok = Orders.limit("V-FOK", "V", BUY, 20, "201.00");
        fok.set(new quickfix.field.TimeInForce(quickfix.field.TimeInForce.FILL_OR_KILL));
        client2.send(fok);
        assertFields(next(client2, "8"), 11, "V-FOK", 150, "0", 59, "4");
        assertFields(next(client2, "8"), 11, "V-FOK", 150, "4", 39, "4", 14, "0", 151, "0");
        NewOrderSingle ioc = Orders.limit("V-IOC", "V", BUY, 20, "201.00");
        ioc.set(new quickfix.field.TimeInForce(quickfix.field.TimeInForce.IMMEDIATE_OR_CANCEL));
        client2.send(ioc);
        assertFields(next(client2, "8"), 11, "V-IOC", 150, "0", 59, "3");
        assertFields(next(client2, "8"), 11, "V-IOC", 150, "F", 32, "10", 31, dec("201"), 151, "10");
        assertFields(next(client2, "8"), 11, "V-IOC", 150, "4", 39, "4", 14, "10", 151, "0");
        assertFields(next(client1, "8"), 11, "V-ASK2", 150, "F", 39, "2", 32, "10");
    }

    @Test
    void cancelRestingOrder() throws Exception {
        client1.send(Orders.limit("MSFT-1", "MSFT", BUY, 50, "20.00"));
        Message ack = next(client1, "8");
        assertFields(ack, 11, "MSFT-1", 150, "0");

        client1.send(Orders.cancel("MSFT-1-C", "MSFT-1", "MSFT", BUY));
        Message canceled = next(client1, "8");
        assertFields(canceled, 11, "MSFT-1-C", 41, "MSFT-1", 37, field(ack, 37), 150, "4", 39, "4", 55, "MSFT",
            54, "1", 151, "0", 14, "0", 38, "50");

        // Gone: a second cancel is refused.
        client1.send(Orders.cancel("MSFT-1-C2", "MSFT-1", "MSFT", BUY));
        assertFields(next(client1, "9"), 11, "MSFT-1-C2", 41, "MSFT-1", 434, "1", 102, "1", 39, "8");
    }

    @Test
    void cancelOfUnknownOrderIsRejected() throws Exception {
        client1.send(Orders.cancel("UNK-C", "NEVER-SENT", "AAPL", BUY));
        Message reject = next(client1, "9");
        assertInstanceOf(OrderCancelReject.class, reject);
        assertFields(reject, 11, "UNK-C", 41, "NEVER-SENT", 37, "NONE", 39, "8", 434, "1", 102, "1");
    }

    @Test
    void replaceThenCancelByTheNewId() throws Exception {
        client1.send(Orders.limit("GOOG-1", "GOOG", BUY, 10, "100.00"));
        Message ack = next(client1, "8");
        String orderId = field(ack, 37);

        client1.send(Orders.replace("GOOG-2", "GOOG-1", "GOOG", BUY, 20, "99.50"));
        Message replaced = next(client1, "8");
        assertFields(replaced, 11, "GOOG-2", 41, "GOOG-1", 37, orderId, 150, "5", 39, "0", 38, "20",
            44, dec("99.5"), 151, "20", 14, "0", 55, "GOOG", 54, "1");

        // The old id is no longer live.
        client1.send(Orders.cancel("GOOG-3", "GOOG-1", "GOOG", BUY));
        assertFields(next(client1, "9"), 11, "GOOG-3", 41, "GOOG-1", 434, "1", 102, "1");
        // A replace of an unknown order: OrderCancelReject in response to a replace.
        client1.send(Orders.replace("GOOG-4", "NO-SUCH", "GOOG", BUY, 5, "99.00"));
        assertFields(next(client1, "9"), 11, "GOOG-4", 41, "NO-SUCH", 434, "2", 102, "1", 39, "8");

        // A replace to a ClOrdID that is already live: OrderCancelReject, CxlRejReason 6 (duplicate ClOrdID).
        client1.send(Orders.limit("GOOG-OTHER", "GOOG", BUY, 1, "90.00"));
        assertFields(next(client1, "8"), 11, "GOOG-OTHER", 150, "0");
        client1.send(Orders.replace("GOOG-OTHER", "GOOG-2", "GOOG", BUY, 20, "99.00"));
        assertFields(next(client1, "9"), 11, "GOOG-OTHER", 41, "GOOG-2", 37, orderId, 434, "2", 102, "6",
            39, "0");

        client1.send(Orders.cancel("GOOG-5", "GOOG-2", "GOOG", BUY));
        assertFields(next(client1, "8"), 11, "GOOG-5", 41, "GOOG-2", 37, orderId, 150, "4", 39, "4", 151, "0");
    }

    @Test
    void replaceThatCrossesTrades() throws Exception {
        client1.send(Orders.limit("AMZN-S", "AMZN", SELL, 100, "101.00"));
        assertFields(next(client1, "8"), 11, "AMZN-S", 150, "0");
        client2.send(Orders.limit("AMZN-B1", "AMZN", BUY, 60, "100.00"));
        assertFields(next(client2, "8"), 11, "AMZN-B1", 150, "0");

        client2.send(Orders.replace("AMZN-B2", "AMZN-B1", "AMZN", BUY, 60, "101.00"));
        assertFields(next(client2, "8"), 11, "AMZN-B2", 41, "AMZN-B1", 150, "5", 39, "0", 44, dec("101"),
            151, "60");
        assertFields(next(client2, "8"), 11, "AMZN-B2", 150, "F", 39, "2", 32, "60", 31, dec("101"), 151, "0",
            14, "60", 6, dec("101"));
        assertFields(next(client1, "8"), 11, "AMZN-S", 150, "F", 39, "1", 32, "60", 31, dec("101"), 151, "40",
            14, "60", 6, dec("101"));
    }

    @Test
    void orderStatusRequest() throws Exception {
        client1.send(Orders.limit("NVDA-1", "NVDA", SELL, 5, "500.01"));
        Message ack = next(client1, "8");

        client1.send(Orders.status("NVDA-1", "NVDA", SELL));
        Message status = next(client1, "8");
        assertFields(status, 11, "NVDA-1", 37, field(ack, 37), 150, "I", 39, "0", 17, "0", 55, "NVDA", 54, "2",
            38, "5", 44, dec("500.01"), 151, "5", 14, "0", 6, dec("0"));

        client1.send(Orders.status("NVDA-X", "NVDA", SELL));
        assertFields(next(client1, "8"), 11, "NVDA-X", 37, "NONE", 150, "I", 39, "8", 151, "0", 14, "0");
    }

    @Test
    void unknownSymbolIsRejectedWithOrdRejReason1() throws Exception {
        client1.send(Orders.limit("ZZ-1", "ZZZZ", BUY, 10, "1.00"));
        Message rejected = next(client1, "8");
        assertFields(rejected, 11, "ZZ-1", 37, "NONE", 150, "8", 39, "8", 103, "1", 55, "ZZZZ", 54, "1",
            151, "0", 14, "0");
        assertEquals("unknown symbol", field(rejected, 58));

        // ExecIDs are unique: another refusal, in this session and in another one, gets another ExecID.
        client1.send(Orders.limit("ZZ-2", "ZZZZ", BUY, 10, "1.00"));
        Message again = next(client1, "8");
        client2.send(Orders.limit("ZZ-1", "ZZZZ", BUY, 10, "1.00"));
        Message other = next(client2, "8");
        assertFields(again, 11, "ZZ-2", 150, "8", 103, "1");
        assertFields(other, 11, "ZZ-1", 150, "8", 103, "1");
        assertEquals(3, java.util.stream.Stream.of(rejected, again, other).map(m -> field(m, 17)).distinct().count(),
            "distinct ExecIDs: " + field(rejected, 17) + ", " + field(again, 17) + ", " + field(other, 17));
    }

    @Test
    void badSideGetsSessionRejectNamingTag54() throws Exception {
        NewOrderSingle order = Orders.limit("BAD-SIDE", "AAPL", BUY, 10, "1.00");
        order.set(new Side('X'));
        client1.send(order);

        Message reject = client1.nextAdmin(m -> QfjClient.msgType(m).equals("3"));
        assertFields(reject, 373, "5", 371, "54", 372, "D", 45, String.valueOf(sentSeqNum(client1, "BAD-SIDE")));
        // The session goes on: the next order is accepted.
        client1.send(Orders.limit("AFTER-BAD-SIDE", "XOM", BUY, 1, "1.00"));
        assertFields(next(client1, "8"), 11, "AFTER-BAD-SIDE", 150, "0");
    }

    @Test
    void missingRequiredTagGetsSessionRejectNamingIt() throws Exception {
        NewOrderSingle order = new NewOrderSingle(new ClOrdID("NO-QTY"), new Side(BUY),
            new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.MARKET));
        order.set(new Symbol("XOM"));
        client1.send(order);
        Message reject = client1.nextAdmin(m -> QfjClient.msgType(m).equals("3"));
        assertFields(reject, 373, "1", 371, String.valueOf(OrderQty.FIELD), 372, "D",
            45, String.valueOf(sentSeqNum(client1, "NO-QTY")));
    }

    @Test
    void duplicateLiveClOrdIdIsRejected() throws Exception {
        client1.send(Orders.limit("META-1", "META", BUY, 1, "10.00"));
        Message ack = next(client1, "8");
        client1.send(Orders.limit("META-1", "META", BUY, 2, "11.00"));
        assertFields(next(client1, "8"), 11, "META-1", 37, "NONE", 150, "8", 39, "8", 103, "6", 38, "2");

        // The original order is untouched.
        client1.send(Orders.status("META-1", "META", BUY));
        assertFields(next(client1, "8"), 11, "META-1", 37, field(ack, 37), 150, "I", 39, "0", 38, "1", 151, "1");
        // The same ClOrdID in another session is another order.
        client2.send(Orders.limit("META-1", "META", SELL, 1, "12.00"));
        assertFields(next(client2, "8"), 11, "META-1", 150, "0", 39, "0");
    }

    @Test
    void aSessionCannotCancelAnotherSessionsOrder() throws Exception {
        client1.send(Orders.limit("TSLA-1", "TSLA", SELL, 10, "50.00"));
        Message ack = next(client1, "8");

        client2.send(Orders.cancel("TSLA-STEAL", "TSLA-1", "TSLA", SELL));
        assertFields(next(client2, "9"), 11, "TSLA-STEAL", 41, "TSLA-1", 37, "NONE", 434, "1", 102, "1", 39, "8");
        client2.send(Orders.replace("TSLA-STEAL2", "TSLA-1", "TSLA", SELL, 10, "49.00"));
        assertFields(next(client2, "9"), 11, "TSLA-STEAL2", 434, "2", 102, "1");

        client1.send(Orders.status("TSLA-1", "TSLA", SELL));
        assertFields(next(client1, "8"), 11, "TSLA-1", 150, "I", 39, "0", 151, "10", 44, dec("50"));
        client1.send(Orders.cancel("TSLA-1-C", "TSLA-1", "TSLA", SELL));
        assertFields(next(client1, "8"), 11, "TSLA-1-C", 41, "TSLA-1", 37, field(ack, 37), 150, "4", 39, "4");
    }

    /** The MsgSeqNum QFJ gave the outgoing message with this ClOrdID. */
    private static long sentSeqNum(QfjClient client, String clOrdId) {
        for (String raw : client.outgoingRaw()) {
            if (raw.contains(FixBuilder.SOH + "11=" + clOrdId + FixBuilder.SOH)) {
                return RawFix.Msg.parse(raw).seqNum();
            }
        }
        throw new AssertionError("no outgoing message with ClOrdID " + clOrdId);
    }
}
