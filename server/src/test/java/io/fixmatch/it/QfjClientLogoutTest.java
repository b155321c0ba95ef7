package io.fixmatch.it;

import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Responder;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The test client's own race, made certain: QuickFIX/J writes its Logout, then marks it sent; here its thread stops
 * for 300 ms between the two (a responder that holds it after the write), so the server's reply always overtakes the
 * mark. Without {@link QfjClient}'s wait, QFJ takes the reply for the server's own Logout and answers it with a second
 * one (seen once in a full run, failing QfjSessionLifecycleTest); with it, {@code close()} sends one Logout.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class QfjClientLogoutTest {
    private static final String LOGOUT = FixBuilder.SOH + "35=5" + FixBuilder.SOH;

    @TempDir
    Path temp;

    @Test
    void closeSendsOneLogoutWhenTheServersReplyOvertakesQfjsMark() throws Exception {
        try (FixmatchServer server = TestServers.start(temp, 0, Map.of())) {
            QfjClient client = QfjClient.logOn("CLIENT1", server.port());
            Responder socket = client.session().getResponder();
            client.session().setResponder(new Responder() {
                @Override
                public boolean send(String data) {
                    boolean sent = socket.send(data);
                    if (data.contains(LOGOUT)) {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300)); // the reply arrives meanwhile
                    }
                    return sent;
                }

                @Override
                public void disconnect() {
                    socket.disconnect();
                }

                @Override
                public String getRemoteAddress() {
                    return socket.getRemoteAddress();
                }
            });
            client.close();
            assertEquals(1, client.outgoingRaw().stream().filter(raw -> raw.contains(LOGOUT)).count(),
                "Logouts sent: " + client.outgoingRaw());
            assertEquals(1, client.incomingRaw().stream().filter(raw -> raw.contains(LOGOUT)).count(),
                "the server's reply: " + client.incomingRaw());
            client.assertNoProtocolErrors();
        }
    }
}
