package io.fixmatch.it.crash;

import io.fixmatch.feed.handler.FeedHandler;
import io.fixmatch.it.FeedBooks;
import io.fixmatch.it.FeedLog;
import io.fixmatch.it.TestServers;
import io.fixmatch.server.WaitBounds;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The binary market data feed of the replicated venue (docs/FEED.md) through a {@link ClusterCrashRun}: the traders'
 * gateway (1) publishes it to a reference handler from the start; gateway 2 is started once the flow runs, seeded from
 * its welcome, and publishes to a handler of its own. The feed's numbers are decided by the service's matching step,
 * so, whatever the run does to the nodes, both handlers' logs must hold, from each one's join on, every number once and
 * in order (no gap, no repeat), the same message wherever both hold a number, the books gateway 2's snapshot gave as
 * gateway 1's stream had them at its number, and at the end the nodes' books.
 */
final class FeedWatch implements RunObserver, AutoCloseable {
    /** A node's {@code /book} shows 10 levels a side. */
    private static final int DEPTH = 10;
    /**
     * After the flow, what the cluster's timers may still change in the books: a GTD order lives up to 3 s, a
     * volatility call 1 s ({@link ClusterCrashRun}'s flow).
     */
    private static final long TIMERS_SETTLE_MILLIS = 4_000;

    private final List<String> symbols;
    private final FeedLog logOne = new FeedLog();
    private final FeedLog logTwo = new FeedLog();
    private final FeedHandler one;
    private final FeedHandler two;
    private ClusterVenue.Gateway gatewayOne;
    private ClusterVenue.Gateway gatewayTwo;
    private long beforeDisruption = -1;
    private long afterDisruption = -1;

    FeedWatch(List<String> symbols) throws IOException {
        this.symbols = symbols;
        this.one = listening(TestServers.freeUdpPort(), logOne);
        this.two = listening(TestServers.freeUdpPort(), logTwo);
    }

    @Override
    public void gatewayMade(ClusterVenue.Gateway gateway) {
        gatewayOne = publishingTo(gateway, one);
    }

    @Override
    public void flowStarted(ClusterVenue venue) throws Exception {
        TimeUnit.MILLISECONDS.sleep(1_500); // the flow's length before gateway 2 starts
        gatewayTwo = publishingTo(venue.gateway(2, List.of()), two);
        gatewayTwo.start();
    }

    @Override
    public void disrupting() {
        if (beforeDisruption < 0) {
            beforeDisruption = one.health().lastApplied();
        }
    }

    @Override
    public void disrupted() {
        if (afterDisruption < 0) {
            afterDisruption = one.health().lastApplied();
        }
    }

    @Override
    public void flowEnded(ClusterVenue venue, long stoppedNanos) throws Exception {
        long last = awaitSettled(stoppedNanos);
        assertEquals(last, FeedBooks.awaitCaughtUp(two, () -> lastPublished(gatewayTwo)),
            "both gateways published up to the same number");
        System.out.println("feed: " + last + " messages; a node disrupted at " + beforeDisruption + " (" + afterDisruption
            + " once it was back); gateway 1's handler: " + one.health() + "; gateway 2's: " + two.health());

        assertTrue(last > afterDisruption + 500 && beforeDisruption > 500, "the flow ran before and after the "
            + "disruption: " + beforeDisruption + ", " + afterDisruption + ", " + last);
        assertEquals(List.of(), logOne.breaks(), "gateway 1's handler applied every number once, in order");
        assertEquals(List.of(), logTwo.breaks(), "gateway 2's handler applied every number once, in order");
        FeedLog.Comparison comparison = FeedLog.compare(logOne, logTwo, 5);
        assertEquals(0, comparison.different(), "different messages at the same number: " + comparison);
        FeedLog.Installed join = logTwo.snapshots().get(0);
        assertTrue(join.lastSequence() > 0 && comparison.shared() == last - join.lastSequence(),
            "gateway 2's handler joined mid-flow and both hold every number since: " + join.lastSequence() + ", "
                + comparison.shared() + " shared of " + last);
        assertEquals(logOne.statesAt(join.lastSequence()), join.states(),
            "gateway 2's first snapshot holds the books gateway 1's stream had at its number");
        int node = venue.awaitLeader(-1, WaitBounds.CLUSTER);
        for (String symbol : symbols) {
            assertTrue(FeedBooks.matches(one, symbol, venue.book(node, symbol), DEPTH),
                FeedBooks.describe(one, symbol) + " is the nodes' " + venue.book(node, symbol));
            assertTrue(FeedBooks.matches(two, symbol, venue.book(node, symbol), DEPTH),
                FeedBooks.describe(two, symbol) + " is the nodes' " + venue.book(node, symbol));
        }
        gatewayTwo.stop();
    }

    /**
     * Gateway 1's handler caught up with a feed the cluster's timers no longer change (their longest reach after the
     * flow passed, and the last number still the last a moment later); that number.
     */
    private long awaitSettled(long stoppedNanos) throws InterruptedException {
        long settleBy = stoppedNanos + TimeUnit.MILLISECONDS.toNanos(TIMERS_SETTLE_MILLIS);
        long deadline = System.nanoTime() + WaitBounds.CLUSTER.toNanos();
        long last = FeedBooks.awaitCaughtUp(one, () -> lastPublished(gatewayOne));
        while (true) {
            TimeUnit.MILLISECONDS.sleep(500);
            long now = FeedBooks.awaitCaughtUp(one, () -> lastPublished(gatewayOne));
            if (now == last && System.nanoTime() > settleBy) {
                return last;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the feed did not settle within " + WaitBounds.CLUSTER + ": " + one.health());
            }
            last = now;
        }
    }

    @Override
    public void close() {
        one.close();
        two.close();
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
