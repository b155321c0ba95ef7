package io.fixmatch.cluster;

import io.fixmatch.cluster.client.ClusterEngineLink;
import io.fixmatch.cluster.client.StoredOrigins;
import io.fixmatch.cluster.client.Welcome;
import io.fixmatch.cluster.node.ClusterNode;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.api.TradingPhase;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.matching.BookQueryAnswer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(300)
class ClusterRoundTripTest {
    /**
     * How far ahead the timers these tests wait for fall due (a GTD expiry, a volatility interruption's end): long
     * enough for what must happen before them (a leader killed, snapshots taken: a few hundred ms here, each checked),
     * short enough not to idle the suite (they were 4-6 s: most of this class's time).
     */
    private static final long TIMER_MILLIS = 3_000;

    @Test
    void ordersTradeThroughTheClusterAndSurviveTheLeadersLoss() throws Exception {
        try (LinkedCluster venue = LinkedCluster.open(3, 1 << 20)) {
            TestCluster cluster = venue.cluster;
            int leader = venue.leader;
            InboundCommandRing inbound = venue.inbound;
            OutboundEventRing outbound = venue.outbound;
            assertEquals(0, venue.welcome.lastApplied());
            Command command = new Command();
            assertTrue(inbound.offer(command.newOrder(1, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY,
                15_000, 100)));
            assertTrue(inbound.offer(command.newOrder(2, "s1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY,
                15_000, 40)));
            List<String> events = awaitEvents(outbound, 4);
            assertEquals(List.of("1 ACCEPTED b1", "2 ACCEPTED s1", "2 FILL s1", "1 FILL b1"), events);

            cluster.kill(leader);
            int next = cluster.awaitLeader(TestCluster.WAIT.toMillis());
            assertTrue(next != leader);
            assertTrue(inbound.offer(command.newOrder(2, "s2", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY,
                15_000, 60)));
            assertEquals(List.of("2 ACCEPTED s2", "2 FILL s2", "1 FILL b1"), awaitEvents(outbound, 3));
            assertEquals(0, drain(outbound).size(), "no report twice");
        }
    }

    /**
     * Every command's events reach the gateway with the batch that answers it, however often the service's rings wrap
     * (a read stops at the wrap: a single matching step or read there once left a command, or its events, behind).
     */
    @Test
    void eachCommandsEventsComeWithItsAnswerThroughManyWrapsOfTheRings() throws Exception {
        try (LinkedCluster venue = LinkedCluster.open(1, 1 << 22)) {
            InboundCommandRing inbound = venue.inbound;
            OutboundEventRing outbound = venue.outbound;
            ClusterEngineLink link = venue.link;
            Command command = new Command();
            int orders = 5_000; // the service's 64 KiB inbound ring wraps about every 600 commands
            int[] accepted = {0};
            for (int i = 0; i < orders; i++) {
                // ClOrdIDs of many lengths: records of several sizes, so the rings wrap after a padding record
                String clOrdId = "o" + i + "-" + "x".repeat(i % 17);
                while (!inbound.offer(command.newOrder(1 + i % 3, clOrdId, i % 2, Side.BUY, OrderType.LIMIT,
                    TimeInForce.DAY, 10_000 - i % 100, 1))) {
                    Thread.onSpinWait();
                }
                if (i % 500 == 499) {
                    awaitQuiet(link);
                }
            }
            awaitQuiet(link);
            outbound.poll((ExecutionEvent event) -> {
                if (event.type() == EventType.ACCEPTED) {
                    accepted[0]++;
                }
            }, Integer.MAX_VALUE);
            assertEquals(orders, accepted[0], "every order's acceptance had arrived once it was answered");
        }
    }

    /**
     * The engine's own deadline (a GTD order's expiry) is a cluster timer whose deadline is replicated: with no other
     * command, the order expires at its time, even though the leader that scheduled the timer was killed meanwhile.
     * The expiry is {@link #TIMER_MILLIS} away: the leader is killed well before it (checked), the new leader is elected
     * before it or after it (then the overdue timer fires at once), either way from the replicated log alone.
     */
    @Test
    void aGtdOrderExpiresByTheClustersTimerAfterTheLeaderThatScheduledItDied() throws Exception {
        try (LinkedCluster venue = LinkedCluster.open(3, 1 << 20)) {
            TestCluster cluster = venue.cluster;
            int leader = venue.leader;
            InboundCommandRing inbound = venue.inbound;
            OutboundEventRing outbound = venue.outbound;
            long expire = (System.currentTimeMillis() + TIMER_MILLIS) * 1_000_000L;
            assertTrue(inbound.offer(new Command().newOrder(1, "gtd", 0, Side.BUY, OrderType.LIMIT,
                TimeInForce.GTD, 15_000, 100).expireTimeNanos(expire)));
            assertEquals(List.of("1 ACCEPTED gtd"), awaitEvents(outbound, 1));
            cluster.kill(leader);
            assertTrue(System.currentTimeMillis() * 1_000_000L < expire,
                "precondition: the leader that scheduled the timer died before it was due");
            assertTrue(cluster.awaitLeader(TestCluster.WAIT.toMillis()) != leader);
            assertEquals(List.of("1 EXPIRED gtd"), awaitEvents(outbound, 1));
            assertTrue(System.currentTimeMillis() * 1_000_000L >= expire, "not before its time");
        }
    }

    /**
     * A volatility interruption and the stop its uncross triggers, through the cluster: the symbol's band and
     * interruption length are journaled commands, the call starts on an order, the leader is killed during the call,
     * and the new leader (whose state came from the replicated log alone) uncrosses at the interruption's end by the
     * cluster's timer, triggers the waiting stop-limit order and rests it: the same events a single engine gives.
     */
    @Test
    void aVolatilityInterruptionUncrossesAfterTheLeadersLossAndTriggersAStop() throws Exception {
        try (LinkedCluster venue = LinkedCluster.open(3, 1 << 20)) {
            TestCluster cluster = venue.cluster;
            int leader = venue.leader;
            InboundCommandRing inbound = venue.inbound;
            OutboundEventRing outbound = venue.outbound;
            long beforeTheCall = System.currentTimeMillis();
            startVolatilityCall(inbound, outbound, TIMER_MILLIS);
            long callStarted = System.currentTimeMillis();
            cluster.kill(leader);
            assertTrue(System.currentTimeMillis() - beforeTheCall < TIMER_MILLIS,
                "precondition: the leader died during the call");
            assertTrue(cluster.awaitLeader(TestCluster.WAIT.toMillis()) != leader);
            assertEquals(List.of("2 FILL b1", "1 FILL s1", "1 TRIGGERED sl"), awaitEvents(outbound, 3));
            assertTrue(System.currentTimeMillis() - callStarted >= TIMER_MILLIS - 500,
                "not before the interruption's end");
            assertEquals(0, drain(outbound).size(), "no report twice");
        }
    }

    /**
     * The cluster's snapshot during a call holds the call (phase, its orders, the waiting stop, the interruption's end):
     * a follower restarted from a snapshot taken during the call, and the log after it, comes to the same book as the
     * others after the uncross: the stop triggered and resting, the symbol trading continuously again.
     */
    @Test
    void aNodeRestartedFromASnapshotTakenDuringACallUncrossesLikeTheOthers() throws Exception {
        try (LinkedCluster venue = LinkedCluster.open(3, 1 << 20)) {
            TestCluster cluster = venue.cluster;
            int leader = venue.leader;
            InboundCommandRing inbound = venue.inbound;
            OutboundEventRing outbound = venue.outbound;
            startVolatilityCall(inbound, outbound, TIMER_MILLIS);
            assertTrue(cluster.node(leader).requestSnapshot());
            long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
            for (int id = 0; id < 3; id++) {
                while (cluster.node(id).status().snapshots() == 0) {
                    assertTrue(System.nanoTime() < deadline, "node " + id + " took no snapshot");
                    Thread.sleep(10);
                }
            }
            List<String> uncrossed = drain(outbound); // the uncross's reports, if the call ended before the snapshots
            assertEquals(List.of(), uncrossed, "precondition: every node's snapshot was taken during the call");
            int follower = (leader + 1) % 3;
            cluster.kill(follower);
            cluster.start(follower);
            assertEquals(List.of("2 FILL b1", "1 FILL s1", "1 TRIGGERED sl"), awaitEvents(outbound, 3));
            List<String> books = new ArrayList<>();
            for (int id = 0; id < 3; id++) {
                books.add(book(cluster.node(id), id + 1));
            }
            assertEquals("CONTINUOUS bids [11100x5] asks []", books.get(leader), "the leader's book");
            assertEquals(List.of(books.get(leader), books.get(leader), books.get(leader)), books,
                "every node's book, the restarted one's (" + follower + ") too");
        }
    }

    /**
     * A snapshot taken while a gateway is connected holds the numbering of that gateway's egress batches: with every
     * node restarted from it, the new leader numbers its next batches after those the gateway has seen, so a new
     * order's reports arrive, once. (A restored slot numbering from 1 again would have the gateway drop every batch
     * as one it already had: no report would arrive.)
     */
    @Test
    void everyNodeRestartedFromASnapshotTakenWithAGatewayConnectedAnswersANewOrderOnce() throws Exception {
        try (LinkedCluster venue = LinkedCluster.open(3, 1 << 20)) {
            TestCluster cluster = venue.cluster;
            InboundCommandRing inbound = venue.inbound;
            OutboundEventRing outbound = venue.outbound;
            Command command = new Command();
            assertTrue(inbound.offer(command.newOrder(1, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY,
                15_000, 100)));
            assertTrue(inbound.offer(command.newOrder(2, "s1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY,
                15_000, 40)));
            assertEquals(List.of("1 ACCEPTED b1", "2 ACCEPTED s1", "2 FILL s1", "1 FILL b1"), awaitEvents(outbound, 4));
            assertTrue(cluster.node(venue.leader).requestSnapshot());
            long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
            for (int id = 0; id < 3; id++) {
                while (cluster.node(id).status().snapshots() == 0) {
                    assertTrue(System.nanoTime() < deadline, "node " + id + " took no snapshot");
                    Thread.sleep(10);
                }
            }
            for (int id = 0; id < 3; id++) {
                cluster.kill(id);
            }
            for (int id = 0; id < 3; id++) {
                cluster.start(id);
            }
            cluster.awaitLeader(60_000);
            assertTrue(inbound.offer(command.newOrder(2, "s2", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY,
                15_000, 60)));
            assertEquals(List.of("2 ACCEPTED s2", "2 FILL s2", "1 FILL b1"), awaitEvents(outbound, 3));
            assertEquals(0, drain(outbound).size(), "no report twice");
        }
    }

    /**
     * A gateway joining during a call is welcomed with the symbols' schedule and volatility settings as the engine
     * holds them (so it sends only where the configuration differs, resets included) and the call's indicative uncross
     * (so its market data shows it at once, as a standalone server's does from the recovered engine).
     */
    @Test
    void aGatewayJoiningDuringACallIsWelcomedWithTheSymbolsSettingsAndTheIndicativeUncross() throws Exception {
        try (LinkedCluster venue = LinkedCluster.open(3, 1 << 20)) {
            assertTrue(venue.inbound.offer(new Command().setSymbolTimeZone(1, "Europe/London")));
            startVolatilityCall(venue.inbound, venue.outbound, 60_000);
            ClusterEngineLink second = new ClusterEngineLink(venue.cluster.linkSettings(2),
                new InboundCommandRing(1 << 16), new OutboundEventRing(1 << 20, new BackoffIdleStrategy()), 2);
            try {
                Welcome welcome = second.connect(StoredOrigins.NONE);
                List<String> settings = new ArrayList<>();
                for (int symbol = 0; symbol < 2; symbol++) {
                    StringBuilder text = new StringBuilder(String.valueOf(welcome.symbolTimeZone(symbol)));
                    for (SymbolControl control : SymbolControl.values()) {
                        text.append(' ').append(welcome.symbolControl(symbol, control));
                    }
                    settings.add(text.toString());
                }
                assertEquals(List.of("UTC -1 -1 -1 -1 0 500 60000 0", "Europe/London -1 -1 -1 -1 0 0 0 0"), settings,
                    "per symbol: the zone, then every control in SymbolControl's order");
                List<String> indicatives = new ArrayList<>();
                welcome.forEachIndicative((symbol, price, volume) -> indicatives.add(symbol + " " + price + "x"
                    + volume));
                assertEquals(List.of("0 11000x5"), indicatives, "symbol 0's call uncrosses 5 at 11,000");
            } finally {
                second.close();
            }
        }
    }

    /**
     * Symbol 0 with a 5% band and this interruption length; a trade at 10,000 (the last price); a stop-limit buy
     * (stop 10,500, limit 11,100) waiting; then a buy at 11,000 against an ask there: 10% above the last trade, outside
     * the band, so it starts a call instead of trading.
     */
    private static void startVolatilityCall(InboundCommandRing inbound, OutboundEventRing outbound,
                                            long interruptionMillis) throws InterruptedException {
        Command command = new Command();
        assertTrue(inbound.offer(command.setSymbolControl(0, SymbolControl.VOLATILITY_BAND_BASIS_POINTS, 500)));
        assertTrue(inbound.offer(command.setSymbolControl(0, SymbolControl.INTERRUPTION_MILLIS, interruptionMillis)));
        assertTrue(inbound.offer(command.newOrder(1, "s0", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY, 10_000, 10)));
        assertTrue(inbound.offer(command.newOrder(2, "b0", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 10_000, 10)));
        assertEquals(List.of("1 ACCEPTED s0", "2 ACCEPTED b0", "2 FILL b0", "1 FILL s0"), awaitEvents(outbound, 4));
        assertTrue(inbound.offer(command.newOrder(1, "sl", 0, Side.BUY, OrderType.STOP_LIMIT, TimeInForce.DAY,
            11_100, 5).stopPrice(10_500)));
        assertTrue(inbound.offer(command.newOrder(1, "s1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY, 11_000, 5)));
        assertTrue(inbound.offer(command.newOrder(2, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 11_000, 5)));
        assertEquals(List.of("1 ACCEPTED sl", "1 ACCEPTED s1", "2 ACCEPTED b1"), awaitEvents(outbound, 3));
    }

    /** The node's book of symbol 0 once it has applied every command the others have: phase and levels. */
    private static String book(ClusterNode node, long requestId) throws InterruptedException {
        long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
        BookQueryAnswer answer = null;
        while (answer == null || answer.liveOrders() != 1 || answer.phase() != TradingPhase.CONTINUOUS) {
            assertTrue(System.nanoTime() < deadline, "node's book: " + (answer == null ? "no answer" : describe(answer)));
            if (node.service().view() != null) {
                node.service().askBookQuery(0, requestId);
                Thread.sleep(20);
                answer = node.service().view().answer(requestId);
            } else {
                Thread.sleep(20);
            }
        }
        return describe(answer);
    }

    private static String describe(BookQueryAnswer answer) {
        StringBuilder text = new StringBuilder(String.valueOf(answer.phase()));
        for (Side side : Side.values()) {
            text.append(side == Side.BUY ? " bids [" : "] asks [");
            for (int i = 0; i < answer.shownLevels(side); i++) {
                text.append(i == 0 ? "" : ", ").append(answer.price(side, i)).append('x').append(answer.quantity(side, i));
            }
        }
        return text.append(']').toString();
    }

    /** A cluster of real nodes and gateway 1's link to it (owners 1, 2, 3), connected and started. */
    static final class LinkedCluster implements AutoCloseable {
        final TestCluster cluster;
        final int leader;
        final InboundCommandRing inbound = new InboundCommandRing(1 << 16);
        final OutboundEventRing outbound;
        final ClusterEngineLink link;
        final Welcome welcome;

        private LinkedCluster(int nodes, int outboundBytes) throws Exception {
            cluster = new TestCluster(TestCluster.tempRoot(), nodes).startAll();
            try {
                leader = cluster.awaitLeader(TestCluster.WAIT.toMillis());
                outbound = new OutboundEventRing(outboundBytes, new BackoffIdleStrategy());
                link = new ClusterEngineLink(cluster.linkSettings(1, 1, 2, 3), inbound, outbound, 2);
            } catch (Exception | AssertionError e) {
                cluster.close();
                throw e;
            }
            try {
                welcome = link.connect(StoredOrigins.NONE);
                link.start(-1);
                TestCluster.claim(inbound, outbound, event -> { }, 1, 2, 3); // its clients log on
            } catch (Exception | AssertionError e) {
                close();
                throw e;
            }
        }

        static LinkedCluster open(int nodes, int outboundBytes) throws Exception {
            return new LinkedCluster(nodes, outboundBytes);
        }

        @Override
        public void close() {
            try {
                link.close();
            } finally {
                cluster.close();
            }
        }
    }

    /** Waits until every command the link took is answered. */
    static void awaitQuiet(ClusterEngineLink link) throws InterruptedException {
        long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
        while (!link.quiet()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("commands still unanswered: " + link.status().unanswered());
            }
            Thread.sleep(1);
        }
    }

    private static List<String> awaitEvents(OutboundEventRing ring, int count) throws InterruptedException {
        List<String> events = new ArrayList<>();
        long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
        while (events.size() < count && System.nanoTime() < deadline) {
            events.addAll(drain(ring));
            Thread.sleep(1);
        }
        Thread.sleep(200);
        events.addAll(drain(ring));
        return events;
    }

    private static List<String> drain(OutboundEventRing ring) {
        List<String> events = new ArrayList<>();
        ring.poll((ExecutionEvent event) -> events.add(event.owner() + " " + describe(event.type()) + " "
            + event.clientOrderId()), 1000);
        return events;
    }

    private static String describe(EventType type) {
        return type.name();
    }
}
