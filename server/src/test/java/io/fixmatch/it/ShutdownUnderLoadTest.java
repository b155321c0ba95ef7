package io.fixmatch.it;

import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.fix.session.SessionStore;
import io.fixmatch.journal.ChroniclePersistence;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.ServerConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A clean stop while a client streams orders loses nothing: every order message the session consumed (its next
 * expected MsgSeqNum says how many) has its report numbered and stored for resend, every one the engine took is in
 * the journal, and the session's cancel-on-disconnect (LOADGEN) still reaches the engine during the stop: each
 * order left resting is canceled, reported and stored. Under both thread layouts, whose shutdown paths differ.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@BothModes
class ShutdownUnderLoadTest {
    private static final int REPORTS_BEFORE_STOP = 3_000;
    private static final char SOH = '\u0001';

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"one-thread", "two-threads"})
    void aStopUnderLoadLosesNothing(String layout) throws Exception {
        Assumptions.assumeFalse(TestServers.clusterMode() && layout.equals("two-threads"), "server.layout is the"
            + " standalone process's threads: a cluster gateway has no matching step");
        FixmatchServer server = TestServers.start(temp, 0, Map.of("server.layout", layout));
        AtomicBoolean sending = new AtomicBoolean(true);
        AtomicLong sent = new AtomicLong();
        RawFixClient client = RawFixClient.loggedOn(server.port(), "LOADGEN", 30);
        Thread sender = new Thread(() -> stream(client, sending, sent), "order-stream");
        try {
            sender.start();
            for (int i = 0; i < REPORTS_BEFORE_STOP; i++) {
                client.next(); // the server is busy answering
            }
            server.close();
        } finally {
            sending.set(false);
            sender.join(10_000);
            TestServers.closeQuietly(client, server);
        }

        long consumed;
        long reports = 0;
        long refused = 0;
        long accepted = 0;
        long canceled = 0;
        ServerConfig config = TestServers.config(TestServers.serverFolder(temp), 0, Map.of());
        SessionConfig loadgen = config.sessions().stream().filter(s -> s.clientCompId().equals("LOADGEN")).findFirst()
            .orElseThrow();
        try (SessionStore store = new SessionStore(config.sessionDirectory(loadgen))) {
            store.claimOwnership();
            consumed = store.nextTargetSeqNum() - 2; // after the Logon (MsgSeqNum 1)
            byte[] message = new byte[8192];
            for (long seqNum = store.nextStoredAtOrAfter(1); seqNum != -1;
                 seqNum = store.nextStoredAtOrAfter(seqNum + 1)) {
                String report = new String(message, 0, store.readStored(seqNum, message), StandardCharsets.US_ASCII);
                reports++;
                refused += report.contains(RejectReason.SERVER_BUSY.text()) ? 1 : 0;
                accepted += report.contains(SOH + "150=0" + SOH) ? 1 : 0;
                canceled += report.contains(SOH + "150=4" + SOH) ? 1 : 0;
            }
        }
        assertTrue(consumed > REPORTS_BEFORE_STOP, "orders consumed: " + consumed + " of " + sent.get() + " sent");
        assertEquals(consumed + canceled, reports, "a stored report for every order consumed, and every cancel");
        assertEquals(accepted, canceled, "cancel-on-disconnect canceled every order left resting");
        long journaled;
        ServerConfig engine = TestServers.config(TestServers.engineFolder(temp), 0, Map.of());
        try (ChroniclePersistence journal = ChroniclePersistence.open(engine.journal(), engine.engine().symbols())) {
            journaled = journal.replay(command -> { });
        }
        assertEquals(consumed - refused + 1, journaled, "every order the engine took is journaled (" + refused
            + " refused as busy), and the cancel-on-disconnect");
    }

    /**
     * New orders far from the market, as fast as the socket takes them: they rest (once the books are full, the
     * engine rejects them).
     */
    private static void stream(RawFixClient client, AtomicBoolean sending, AtomicLong sent) {
        try {
            for (int i = 0; sending.get(); i++) {
                client.send(client.newOrder("O" + i, "AAPL", "1", 1, "1.00"));
                sent.incrementAndGet();
            }
        } catch (IOException e) {
            // the server closed the connection: the stream ends
        }
    }
}
