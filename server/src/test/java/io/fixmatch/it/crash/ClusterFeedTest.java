package io.fixmatch.it.crash;

import io.fixmatch.feed.handler.FeedHandler;
import io.fixmatch.it.FeedBooks;
import io.fixmatch.it.FeedLog;
import io.fixmatch.it.TestServers;
import io.fixmatch.server.WaitBounds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The binary market data feed of the replicated venue (docs/FEED.md) through a leader change under load: three node
 * processes, two gateway processes each publishing the feed to a reference handler of its own (gateway 1 from the
 * start, gateway 2 started mid-flow, seeded from its welcome), QuickFIX/J traders at 1,000 requests/s through gateway
 * 1, the leader killed (SIGKILL) and left down. The feed's numbers are decided by the service's matching step, so
 * both handlers' logs must hold, from each one's join on, every number once and in order (no gap, no repeat), the
 * same message wherever both hold a number, the books gateway 2's snapshot gave as gateway 1's stream had them at its
 * number, and at the end the nodes' books.
 */
@WholeVenue
class ClusterFeedTest {
    private static final long SEED = 31;
    private static final List<String> SESSIONS = List.of("CLIENT1", "CLIENT2", "CLIENT3", "CLIENT4");
    private static final List<String> SYMBOLS = List.of("AAPL", "MSFT");
    /** A node's {@code /book} shows 10 levels a side. */
    private static final int DEPTH = 10;

    @TempDir
    Path tempDirectory;

    @Test
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void theFeedGoesOnWithoutAGapOrARepeatWhenTheLeaderIsKilledUnderLoad() throws Exception {
        Path directory = ClusterVenue.testFolder(tempDirectory);
        FeedLog logOne = new FeedLog();
        FeedLog logTwo = new FeedLog();
        try (ClusterVenue venue = new ClusterVenue(directory.resolve("venue"), 3, SESSIONS, SYMBOLS, List.of());
             FeedHandler one = listening(TestServers.freeUdpPort(), logOne);
             FeedHandler two = listening(TestServers.freeUdpPort(), logTwo)) {
            ClusterVenue.Gateway gatewayOne = publishingTo(venue.gateway(1, List.of()), one);
            ClusterVenue.Gateway gatewayTwo = publishingTo(venue.gateway(2, List.of()), two);
            venue.startNodes();
            venue.startGateways(gatewayOne);
            Traders traders = new Traders(SESSIONS, gatewayOne.fixPort, directory.resolve("clients"));
            long beforeKill;
            long afterKill;
            try {
                traders.start();
                traders.awaitLogons(1, WaitBounds.CLUSTER);
                traders.startLoad(SYMBOLS, SEED, 250);
                TimeUnit.MILLISECONDS.sleep(1_500); // the flow's length before gateway 2 starts
                gatewayTwo.start();
                TimeUnit.MILLISECONDS.sleep(1_500); // the flow's length before the kill
                int leader = venue.awaitLeader(-1, WaitBounds.CLUSTER);
                beforeKill = one.health().lastApplied();
                venue.kill(leader);
                venue.awaitLeader(leader, WaitBounds.CLUSTER);
                // The killed leader stays down: the feed is the gateways' and the new leader's (ClusterFailoverTest
                // brings a killed leader back on its disk).
                afterKill = one.health().lastApplied();
                TimeUnit.MILLISECONDS.sleep(2_000); // the flow's length after the new leader took over
                traders.stopLoad();
                traders.awaitQuiet(WaitBounds.CLUSTER);
                traders.finish();
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\ngateway 1:\n" + venue.output(gatewayOne.process)
                    + "\ngateway 2:\n" + venue.output(gatewayTwo.process), e);
            } finally {
                traders.close();
            }
            venue.awaitNodesCaughtUp(WaitBounds.CLUSTER);
            long last = FeedBooks.awaitCaughtUp(one, () -> lastPublished(gatewayOne));
            assertEquals(last, FeedBooks.awaitCaughtUp(two, () -> lastPublished(gatewayTwo)),
                "both gateways published up to the same number");
            System.out.println("feed: " + last + " messages; killed the leader at " + beforeKill + " (" + afterKill
                + " once another led); gateway 1's handler: " + one.health() + "; gateway 2's: " + two.health());

            assertTrue(last > afterKill + 500 && beforeKill > 500, "the flow ran before and after the kill: "
                + beforeKill + ", " + afterKill + ", " + last);
            assertEquals(List.of(), logOne.breaks(), "gateway 1's handler applied every number once, in order");
            assertEquals(List.of(), logTwo.breaks(), "gateway 2's handler applied every number once, in order");
            FeedLog.Comparison comparison = FeedLog.compare(logOne, logTwo, 5);
            assertEquals(0, comparison.different(), "different messages at the same number: " + comparison);
            FeedLog.Installed join = logTwo.snapshots().get(0);
            assertTrue(join.lastSequence() > 0 && comparison.shared() == last - join.lastSequence(),
                "gateway 2's handler joined mid-flow and both hold every number since: " + join.lastSequence()
                    + ", " + comparison.shared() + " shared of " + last);
            assertEquals(logOne.statesAt(join.lastSequence()), join.states(),
                "gateway 2's first snapshot holds the books gateway 1's stream had at its number");
            int node = venue.awaitLeader(-1, WaitBounds.CLUSTER);
            for (String symbol : SYMBOLS) {
                assertTrue(FeedBooks.matches(one, symbol, venue.book(node, symbol), DEPTH),
                    FeedBooks.describe(one, symbol) + " is the nodes' " + venue.book(node, symbol));
                assertTrue(FeedBooks.matches(two, symbol, venue.book(node, symbol), DEPTH),
                    FeedBooks.describe(two, symbol) + " is the nodes' " + venue.book(node, symbol));
            }
        }
    }

    private static FeedHandler listening(int retransmitPort, FeedLog log) {
        FeedHandler handler = FeedBooks.handler(retransmitPort);
        handler.observer(log);
        handler.start();
        return handler;
    }

    /** The gateway's feed to the handler's ports, its retransmission service on the port the handler asks. */
    private static ClusterVenue.Gateway publishingTo(ClusterVenue.Gateway gateway, FeedHandler handler) {
        gateway.keys.put("marketData.feed.channel", "127.0.0.1:" + handler.streamPort());
        gateway.keys.put("marketData.feed.snapshotChannel", "127.0.0.1:" + handler.snapshotPort());
        gateway.keys.put("marketData.feed.retransmitPort", Integer.toString(handler.settings().retransmit().getPort()));
        gateway.keys.put("marketData.feed.snapshotIntervalMs", "200");
        return gateway;
    }

    private static long lastPublished(ClusterVenue.Gateway gateway) {
        try {
            return gateway.feed().get("lastSequence").asLong();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
