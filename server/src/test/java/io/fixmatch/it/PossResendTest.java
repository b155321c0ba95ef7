package io.fixmatch.it;

import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.PossResend;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static io.fixmatch.it.Orders.assertFields;

/**
 * A NewOrderSingle resent with PossResend(97)=Y whose ClOrdID the session already used in its trading session is
 * ignored even when that order is done (filled here), before and after a server restart (the record is rebuilt from
 * the session's store); one with a new ClOrdID is entered; a sequence reset starts a new record.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@BothModes
class PossResendTest {
    /** The server's restart drops the connections: QuickFIX/J logs that as an error event. */

    @TempDir
    Path temp;
    @RegisterExtension
    final ServerAndClients running = new ServerAndClients();
    private FixmatchServer server;

    @Test
    void aResentOrderWhoseClOrdIdWasSeenIsIgnoredAcrossARestartAndANewOneIsEntered() throws Exception {
        server = running.use(TestServers.start(temp, 0, Map.of()));
        int port = server.port();
        QfjClient buyer = running.logOn("CLIENT1", port);
        QfjClient seller = running.logOn("CLIENT2", port);
        seller.send(Orders.limit("S1", "AAPL", SELL, 30, "10.00"));
        assertFields(seller.nextApp("8"), 11, "S1", 150, "0");
        buyer.send(Orders.limit("P1", "AAPL", BUY, 10, "10.00"));
        assertFields(buyer.nextApp("8"), 11, "P1", 150, "0");
        assertFields(buyer.nextApp("8"), 11, "P1", 150, "F", 39, "2"); // done: no longer live

        buyer.send(possResend(Orders.limit("P1", "AAPL", BUY, 10, "10.00")));
        buyer.send(Orders.limit("P2", "MSFT", BUY, 1, "1.00"));
        assertFields(buyer.nextApp("8"), 11, "P2", 150, "0"); // nothing for the resent P1

        server.close();
        server = running.use(TestServers.start(temp, port, Map.of()));
        buyer.awaitLogons(2);
        buyer.send(possResend(Orders.limit("P1", "AAPL", BUY, 10, "10.00")));
        buyer.send(possResend(Orders.limit("P2", "AAPL", BUY, 10, "10.00")));
        buyer.send(possResend(Orders.limit("P3", "AAPL", BUY, 10, "10.00"))); // new: entered
        assertFields(buyer.nextApp("8"), 11, "P3", 150, "0");
        assertFields(buyer.nextApp("8"), 11, "P3", 150, "F", 39, "2");

        buyer.assertNoPendingApp();
        buyer.assertNoProtocolErrors(QfjClient.SERVER_RESTARTED);
        buyer.close();

        // a Logon with ResetSeqNumFlag=Y: a new trading session, nothing seen yet
        QfjClient reset = new QfjClient("CLIENT1", port, new QfjClient.Options().resetOnLogon(true));
        running.add(reset);
        reset.start();
        reset.awaitLogons(1);
        reset.send(possResend(Orders.limit("P1", "AAPL", BUY, 10, "10.00")));
        assertFields(reset.nextApp("8"), 11, "P1", 150, "0");
        assertFields(reset.nextApp("8"), 11, "P1", 150, "F", 39, "2"); // the seller's last 10
        reset.assertNoPendingApp();
        reset.assertNoProtocolErrors();
    }

    private static Message possResend(Message order) {
        order.getHeader().setBoolean(PossResend.FIELD, true);
        return order;
    }
}
