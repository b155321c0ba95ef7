package io.fixmatch.it.crash;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.it.Orders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.field.Side;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A frozen gateway never speaks again for a session it lost (issue #30, fencing). CLIENT1 trades through gateway 1,
 * given gateway 2's address too; CLIENT2 trades on gateway 2. Gateway 1 is frozen (SIGSTOP) with CLIENT1's buy orders
 * resting; CLIENT2 sells into them, so fills for CLIENT1 are made while its session is still gateway 1's; CLIENT1's
 * connection is cut and it moves to gateway 2 by itself, where the cluster gives it the session once gateway 1 has
 * been silent too long. Gateway 1 is then thawed with its old connection still open (through a proxy that counts what
 * it writes): it must write not one byte on it, and CLIENT1 must have every fill once, its numbers unbroken.
 */
@WholeVenue
class SessionFencingTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int ORDERS = 20;

    @TempDir
    Path tempDirectory;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aGatewayFrozenWhileItsSessionMovesNeverWritesForItAgain() throws Exception {
        Path directory = ClusterVenue.testFolder(tempDirectory);
        try (ClusterVenue venue = new ClusterVenue(directory.resolve("venue"), 3, List.of("CLIENT1", "CLIENT2"),
            List.of("AAPL"), List.of());
             CuttableProxy proxy = startVenue(venue)) {
            ClusterVenue.Gateway one = venue.gateways().get(0);
            ClusterVenue.Gateway two = venue.gateways().get(1);
            Traders mover = Traders.withAddresses(List.of("CLIENT1"), new int[] {proxy.port(), two.fixPort},
                directory.resolve("mover"), 1);
            Traders counterparty = Traders.withAddresses(List.of("CLIENT2"), new int[] {two.fixPort},
                directory.resolve("counterparty"), 30);
            try {
                mover.start();
                counterparty.start();
                mover.awaitLogons(1, TIMEOUT);
                counterparty.awaitLogons(1, TIMEOUT);
                for (int i = 0; i < ORDERS; i++) {
                    mover.send("CLIENT1", Orders.limit("B" + i, "AAPL", Side.BUY, 10, "100"));
                }
                mover.awaitAnswered("AAPL", TIMEOUT); // every buy rests, acknowledged by gateway 1

                one.signal("STOP");
                counterparty.send("CLIENT2", Orders.limit("S1", "AAPL", Side.SELL, 10L * ORDERS, "100"));
                counterparty.awaitAnswered("AAPL", TIMEOUT); // CLIENT1's fills made while gateway 1 holds it
                proxy.cut();
                mover.awaitLogons(2, TIMEOUT); // at gateway 2, once the cluster gave it the session
                mover.awaitQuiet(TIMEOUT);

                one.signal("CONT");
                awaitNotLoggedOn(one, "CLIENT1");
                TimeUnit.SECONDS.sleep(3); // three of the session's heartbeat intervals, for any stray write
                assertEquals(0, proxy.bytesFromGatewayAfterCut(), "gateway 1 wrote for a session it lost");

                mover.awaitAnswered("AAPL", TIMEOUT);
                mover.queryStatus(TIMEOUT);
                counterparty.queryStatus(TIMEOUT);
                mover.finish();
                counterparty.finish();
            } finally {
                mover.close();
                counterparty.close();
            }
            List<TraderLog> logs = new ArrayList<>(mover.logs());
            logs.addAll(counterparty.logs());
            assertEquals(List.of(), CrashChecker.check(logs));
            assertEquals(ORDERS, mover.logs().get(0).reports().stream().filter(Report::isFill).count(),
                "CLIENT1 got each of its fills once");
            assertTrue(venue.sessionTakeovers(two) >= 1, "the cluster counted the takeover");
        }
    }

    /** The nodes and both gateways started; a proxy in front of gateway 1. */
    private static CuttableProxy startVenue(ClusterVenue venue) throws Exception {
        venue.startNodes();
        venue.startGateways(venue.gateway(1, List.of()), venue.gateway(2, List.of()));
        return new CuttableProxy(venue.gateways().get(0).fixPort);
    }

    /** Until the gateway's {@code /sessions} says the session is not logged on there (it learned of the move). */
    private static void awaitNotLoggedOn(ClusterVenue.Gateway gateway, String compId) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        JsonNode sessions = null;
        while (true) {
            try {
                sessions = gateway.sessions();
            } catch (java.io.IOException busy) { // a loaded machine: ask again
                sessions = null;
            }
            for (JsonNode session : sessions == null ? List.<JsonNode>of() : sessions.path("sessions")) {
                if (session.path("compId").asText().equals(compId) && !session.path("loggedOn").asBoolean()) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(compId + " still logged on at gateway " + gateway.id + ": " + sessions);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }
}
