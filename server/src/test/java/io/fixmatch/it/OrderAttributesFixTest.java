package io.fixmatch.it;

import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ExecInst;
import quickfix.field.ExpireDate;
import quickfix.field.ExpireTime;
import quickfix.field.MaxFloor;
import quickfix.field.MinQty;
import quickfix.field.OrdType;
import quickfix.field.StopPx;
import quickfix.field.TimeInForce;
import quickfix.fix44.NewOrderSingle;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static io.fixmatch.it.Orders.dec;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stop and stop-limit orders, icebergs, post-only, GTD (ExpireTime and ExpireDate) and MinQty through real FIX
 * sessions (QuickFIX/J initiators validating every message with FIX44.xml): what the client sends, what it gets back
 * (ExecType D with ExecRestatementReason 99 for a trigger, StopPx and ExpireTime echoed, the GTD expiry sent by the server on its own), and the
 * clear rejects of what does not fit (a session Reject for a missing StopPx or an ExecInst other than 6, a rejecting
 * ExecutionReport 103=11 for an attribute the order's type or time in force does not take).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OrderAttributesFixTest {
    private static final String TRIGGERED_TEXT = "stop order triggered: the last trade price reached its stop price";

    @TempDir
    Path data;
    private FixmatchServer server;
    private QfjClient client;
    private QfjClient other;

    /** Each case: a server of its own, CLIENT1 and CLIENT2 logged on. */
    @BeforeEach
    void start() throws Exception {
        server = TestServers.start(data, 0, Map.of());
        client = QfjClient.logOn("CLIENT1", server.port());
        other = QfjClient.logOn("CLIENT2", server.port());
    }

    @AfterEach
    void stop() {
        if (other != null) {
            other.close();
        }
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static NewOrderSingle order(String id, char side, char ordType, long qty, String price, char tif) {
        NewOrderSingle order = Orders.limit(id, "AAPL", side, qty, price == null ? "1" : price);
        order.set(new OrdType(ordType));
        if (price == null) {
            order.removeField(quickfix.field.Price.FIELD);
        }
        order.set(new TimeInForce(tif));
        return order;
    }

    @Test
    void aStopWaitsIsTriggeredAsARestatementAndTrades() throws Exception {
        NewOrderSingle stop = order("stop", BUY, OrdType.STOP_STOP_LOSS, 10, null, TimeInForce.DAY);
        stop.set(new StopPx(101.00));
        client.send(stop);
        assertFields(client.nextApp("8"), 150, "0", 39, "0", 11, "stop", 40, "3", 99, dec("101"), 44, null);
        NewOrderSingle stopLimit = order("sl", BUY, OrdType.STOP_LIMIT, 5, "101.60", TimeInForce.GOOD_TILL_CANCEL);
        stopLimit.set(new StopPx(101.00));
        client.send(stopLimit);
        assertFields(client.nextApp("8"), 150, "0", 40, "4", 99, dec("101"), 44, dec("101.6"));

        other.send(Orders.limit("ask", "AAPL", SELL, 20, "101.50"));
        assertFields(other.nextApp("8"), 150, "0");
        other.send(Orders.limit("x", "AAPL", SELL, 1, "101.00"));
        assertFields(other.nextApp("8"), 150, "0");
        client.send(Orders.limit("y", "AAPL", BUY, 1, "101.00")); // a trade at 101.00 reaches both stops
        assertFields(client.nextApp("8"), 150, "0", 11, "y");
        assertFields(client.nextApp("8"), 150, "F", 11, "y", 31, dec("101"));
        assertFields(client.nextApp("8"), 150, "D", 378, "99", 39, "0", 11, "stop", 40, "3", 99, dec("101"),
            151, "10", 58, TRIGGERED_TEXT);
        assertFields(client.nextApp("8"), 150, "F", 39, "2", 11, "stop", 32, "10", 31, dec("101.5"));
        assertFields(client.nextApp("8"), 150, "D", 378, "99", 11, "sl", 40, "4", 58, TRIGGERED_TEXT);
        assertFields(client.nextApp("8"), 150, "F", 39, "2", 11, "sl", 32, "5", 31, dec("101.5"));
        client.assertNoProtocolErrors();
        other.assertNoProtocolErrors();
    }

    @Test
    void anIcebergShowsItsFloorAndRefillsBehindTheOthers() throws Exception {
        NewOrderSingle iceberg = order("ice", SELL, OrdType.LIMIT, 100, "102.00", TimeInForce.DAY);
        iceberg.set(new MaxFloor(30));
        other.send(iceberg);
        assertFields(other.nextApp("8"), 150, "0", 11, "ice", 151, "100");
        client.send(Orders.limit("plain", "AAPL", SELL, 10, "102.00"));
        assertFields(client.nextApp("8"), 150, "0");
        client.send(Orders.limit("take", "AAPL", BUY, 50, "102.00"));
        assertFields(client.nextApp("8"), 150, "0", 11, "take");
        assertFields(client.nextApp("8"), 150, "F", 11, "take", 32, "30");
        assertFields(client.nextApp("8"), 150, "F", 11, "take", 32, "10");
        assertFields(client.nextApp("8"), 150, "F", 11, "plain", 32, "10");
        assertFields(client.nextApp("8"), 150, "F", 11, "take", 32, "10", 39, "2");
        assertFields(other.nextApp("8"), 150, "F", 11, "ice", 32, "30", 151, "70");
        assertFields(other.nextApp("8"), 150, "F", 11, "ice", 32, "10", 151, "60");
        client.assertNoProtocolErrors();
        other.assertNoProtocolErrors();
    }

    @Test
    void postOnlyGtdAndMinQtyAndTheirRejects() throws Exception {
        other.send(Orders.limit("ask", "AAPL", SELL, 10, "100.00"));
        assertFields(other.nextApp("8"), 150, "0");

        NewOrderSingle crossing = order("po1", BUY, OrdType.LIMIT, 10, "100.00", TimeInForce.DAY);
        crossing.set(new ExecInst("6"));
        client.send(crossing);
        assertFields(client.nextApp("8"), 150, "8", 39, "8", 11, "po1",
            58, "post-only order would take liquidity: its price reaches the opposite side");
        NewOrderSingle passive = order("po2", BUY, OrdType.LIMIT, 10, "99.00", TimeInForce.DAY);
        passive.set(new ExecInst("6"));
        client.send(passive);
        assertFields(client.nextApp("8"), 150, "0", 11, "po2");

        LocalDateTime expire = LocalDateTime.now(ZoneOffset.UTC).plus(1_500, ChronoUnit.MILLIS)
            .truncatedTo(ChronoUnit.MILLIS);
        NewOrderSingle gtd = order("gtd", BUY, OrdType.LIMIT, 10, "98.00", TimeInForce.GOOD_TILL_DATE);
        gtd.set(new ExpireTime(expire));
        client.send(gtd);
        assertFields(client.nextApp("8"), 150, "0", 11, "gtd", 59, "6",
            126, expire.format(DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS")));
        // Nothing else happens: the server's timer expires it at its time.
        Message expired = client.nextApp("8");
        assertFields(expired, 150, "C", 39, "C", 11, "gtd", 151, "0",
            58, "good-till-date order expired at its expire time");
        assertTrue(LocalDateTime.now(ZoneOffset.UTC).isAfter(expire), "not before its time");

        NewOrderSingle byDate = order("gtd2", BUY, OrdType.LIMIT, 10, "97.00", TimeInForce.GOOD_TILL_DATE);
        LocalDate tomorrow = LocalDate.now(ZoneOffset.UTC).plusDays(1);
        byDate.set(new ExpireDate(tomorrow.format(DateTimeFormatter.BASIC_ISO_DATE)));
        client.send(byDate);
        // No engine.endOfDay configured: the end of that date, midnight UTC.
        assertFields(client.nextApp("8"), 150, "0", 11, "gtd2",
            126, tomorrow.plusDays(1).format(DateTimeFormatter.BASIC_ISO_DATE) + "-00:00:00.000");

        NewOrderSingle minQty = order("mq", BUY, OrdType.LIMIT, 30, "100.00", TimeInForce.IMMEDIATE_OR_CANCEL);
        minQty.set(new MinQty(20));
        client.send(minQty);
        assertFields(client.nextApp("8"), 150, "0", 11, "mq");
        assertFields(client.nextApp("8"), 150, "4", 39, "4", 11, "mq", 14, "0",
            58, "less than the order's MinQty could be traded at once: nothing traded");
        NewOrderSingle minQtyOnDay = order("mq2", BUY, OrdType.LIMIT, 30, "99.00", TimeInForce.DAY);
        minQtyOnDay.set(new MinQty(20));
        client.send(minQtyOnDay);
        assertFields(client.nextApp("8"), 150, "8", 103, "11", 11, "mq2");

        NewOrderSingle noStopPx = order("ns", BUY, OrdType.STOP_STOP_LOSS, 10, null, TimeInForce.DAY);
        client.send(noStopPx);
        assertFields(client.nextAdmin(m -> "3".equals(QfjClient.msgType(m))), 373, "1", 371, "99");
        NewOrderSingle otherInstruction = order("ei", BUY, OrdType.LIMIT, 10, "99.00", TimeInForce.DAY);
        otherInstruction.set(new ExecInst("E"));
        client.send(otherInstruction);
        assertFields(client.nextAdmin(m -> "3".equals(QfjClient.msgType(m))), 373, "5", 371, "18");
        other.assertNoProtocolErrors();
    }
}
