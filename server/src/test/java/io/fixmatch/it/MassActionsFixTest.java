package io.fixmatch.it;

import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.MassCancelRequestType;
import quickfix.field.MassStatusReqID;
import quickfix.field.MassStatusReqType;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TransactTime;
import quickfix.fix44.OrderMassCancelRequest;
import quickfix.fix44.OrderMassStatusRequest;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;
import static io.fixmatch.it.Orders.field;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * OrderMassCancelRequest (q) and OrderMassStatusRequest (AF) through real FIX sessions (QuickFIX/J initiators
 * validating every message with FIX44.xml): by session, by symbol, by side; the OrderMassCancelReport (r) with the
 * count, an ExecutionReport per canceled order; one ExecType I report per live order with MassStatusReqID,
 * TotNumReports and LastRptRequested; the clear rejects of what is not supported.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MassActionsFixTest {
    private static final String MASS_CANCELED = "canceled by an order mass cancel request";

    @TempDir
    Path data;

    private static OrderMassCancelRequest massCancel(String id, char type, String symbol, Character side) {
        OrderMassCancelRequest request = new OrderMassCancelRequest(new ClOrdID(id), new MassCancelRequestType(type),
            new TransactTime(LocalDateTime.now(ZoneOffset.UTC)));
        if (symbol != null) {
            request.set(new Symbol(symbol));
        }
        if (side != null) {
            request.set(new Side(side));
        }
        return request;
    }

    private static OrderMassStatusRequest massStatus(String id, int type, String symbol) {
        OrderMassStatusRequest request = new OrderMassStatusRequest(new MassStatusReqID(id),
            new MassStatusReqType(type));
        if (symbol != null) {
            request.set(new Symbol(symbol));
        }
        return request;
    }

    private static void place(QfjClient client, String id, String symbol, char side, String price)
        throws InterruptedException {
        client.send(Orders.limit(id, symbol, side, 10, price));
        assertFields(client.nextApp("8"), 150, "0", 11, id);
    }

    @Test
    void massStatusReportsEachLiveOrderAndMassCancelBySymbolSideAndSessionReportsTheCount() throws Exception {
        try (FixmatchServer server = TestServers.start(data, 0, Map.of());
             QfjClient client = QfjClient.logOn("CLIENT1", server.port());
             QfjClient other = QfjClient.logOn("CLIENT2", server.port())) {
            place(client, "b1", "AAPL", BUY, "99.00");
            place(client, "s1", "AAPL", SELL, "101.00");
            place(client, "m1", "MSFT", BUY, "50.00");
            place(other, "o1", "AAPL", BUY, "98.00");

            client.send(massStatus("q1", MassStatusReqType.STATUS_FOR_ALL_ORDERS, null));
            Set<String> reported = new HashSet<>();
            for (int i = 1; i <= 3; i++) {
                Message report = client.nextApp("8");
                assertFields(report, 150, "I", 39, "0", 17, "0", 584, "q1", 911, "3", 912, i == 3 ? "Y" : null,
                    41, null);
                reported.add(field(report, 11));
            }
            assertEquals(Set.of("b1", "s1", "m1"), reported, "each live order of the session, once");

            client.send(massCancel("c1", MassCancelRequestType.CANCEL_ORDERS_FOR_A_SECURITY, "AAPL", SELL));
            assertFields(client.nextApp("r"), 11, "c1", 530, "1", 531, "1", 533, "1", 55, "AAPL", 54, "2");
            assertFields(client.nextApp("8"), 150, "4", 39, "4", 11, "s1", 151, "0", 58, MASS_CANCELED);

            client.send(massCancel("c2", MassCancelRequestType.CANCEL_ALL_ORDERS, null, null));
            Message all = client.nextApp("r");
            assertFields(all, 11, "c2", 530, "7", 531, "7", 533, "2", 55, null, 54, null);
            assertFields(client.nextApp("8"), 150, "4", 11, "m1", 58, MASS_CANCELED);
            assertFields(client.nextApp("8"), 150, "4", 11, "b1", 58, MASS_CANCELED);

            client.send(massStatus("q2", MassStatusReqType.STATUS_FOR_ORDERS_FOR_A_SECURITY, "AAPL"));
            assertFields(client.nextApp("8"), 150, "I", 39, "8", 584, "q2", 911, "0", 912, "Y", 11, null,
                58, "no live order matches the request");
            other.send(massStatus("q3", MassStatusReqType.STATUS_FOR_ALL_ORDERS, null));
            assertFields(other.nextApp("8"), 150, "I", 11, "o1", 584, "q3", 911, "1", 912, "Y");

            client.send(massCancel("c3", MassCancelRequestType.CANCEL_ORDERS_FOR_A_SECURITY, "NOPE", null));
            assertFields(client.nextApp("r"), 11, "c3", 531, "0", 532, "1", 533, "0", 58, "unknown symbol");

            client.send(massStatus("q4", MassStatusReqType.STATUS_FOR_ORDERS_FOR_A_SECURITY, null));
            assertFields(client.nextAdmin(m -> "3".equals(QfjClient.msgType(m))), 373, "1", 371, "55");
            client.send(massCancel("c4", MassCancelRequestType.CANCEL_ORDERS_FOR_A_PRODUCT, null, null));
            assertFields(client.nextAdmin(m -> "3".equals(QfjClient.msgType(m))), 373, "5", 371, "530");
            other.assertNoProtocolErrors();
        }
    }
}
