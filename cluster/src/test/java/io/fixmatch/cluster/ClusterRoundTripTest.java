package io.fixmatch.cluster;

import io.fixmatch.cluster.client.ClusterEngineLink;
import io.fixmatch.cluster.client.StoredOrigins;
import io.fixmatch.cluster.client.Welcome;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.OutboundEventRing;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(120)
class ClusterRoundTripTest {

    @Test
    void ordersTradeThroughTheClusterAndSurviveTheLeadersLoss() throws Exception {
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 3).startAll()) {
            int leader = cluster.awaitLeader(30_000);
            InboundCommandRing inbound = new InboundCommandRing(1 << 16);
            OutboundEventRing outbound = new OutboundEventRing(1 << 20, new BackoffIdleStrategy());
            try (ClusterEngineLink link = new ClusterEngineLink(cluster.linkSettings(1, 1, 2, 3), inbound, outbound, 2)) {
                Welcome welcome = link.connect(StoredOrigins.NONE);
                assertEquals(0, welcome.lastApplied());
                link.start(-1);
                Command command = new Command();
                assertTrue(inbound.offer(command.newOrder(1, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY,
                    15_000, 100)));
                assertTrue(inbound.offer(command.newOrder(2, "s1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY,
                    15_000, 40)));
                List<String> events = awaitEvents(outbound, 4);
                assertEquals(List.of("1 ACCEPTED b1", "2 ACCEPTED s1", "2 FILL s1", "1 FILL b1"), events);

                cluster.kill(leader);
                int next = cluster.awaitLeader(20_000);
                assertTrue(next != leader);
                assertTrue(inbound.offer(command.newOrder(2, "s2", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY,
                    15_000, 60)));
                assertEquals(List.of("2 ACCEPTED s2", "2 FILL s2", "1 FILL b1"), awaitEvents(outbound, 3));
                assertEquals(0, drain(outbound).size(), "no report twice");
            }
        }
    }

    /**
     * Every command's events reach the gateway with the batch that answers it, however often the service's rings wrap
     * (a read stops at the wrap: a single matching step or read there once left a command, or its events, behind).
     */
    @Test
    void eachCommandsEventsComeWithItsAnswerThroughManyWrapsOfTheRings() throws Exception {
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 1).startAll()) {
            cluster.awaitLeader(30_000);
            InboundCommandRing inbound = new InboundCommandRing(1 << 16);
            OutboundEventRing outbound = new OutboundEventRing(1 << 22, new BackoffIdleStrategy());
            try (ClusterEngineLink link = new ClusterEngineLink(cluster.linkSettings(1, 1, 2, 3), inbound, outbound, 2)) {
                link.connect(StoredOrigins.NONE);
                link.start(-1);
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
    }

    /**
     * The engine's own deadline (a GTD order's expiry) is a cluster timer whose deadline is replicated: with no other
     * command, the order expires at its time, even though the leader that scheduled the timer was killed meanwhile.
     */
    @Test
    void aGtdOrderExpiresByTheClustersTimerAfterTheLeaderThatScheduledItDied() throws Exception {
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 3).startAll()) {
            int leader = cluster.awaitLeader(30_000);
            InboundCommandRing inbound = new InboundCommandRing(1 << 16);
            OutboundEventRing outbound = new OutboundEventRing(1 << 20, new BackoffIdleStrategy());
            try (ClusterEngineLink link = new ClusterEngineLink(cluster.linkSettings(1, 1, 2, 3), inbound, outbound, 2)) {
                link.connect(StoredOrigins.NONE);
                link.start(-1);
                long expire = (System.currentTimeMillis() + 4_000) * 1_000_000L;
                assertTrue(inbound.offer(new Command().newOrder(1, "gtd", 0, Side.BUY, OrderType.LIMIT,
                    TimeInForce.GTD, 15_000, 100).expireTimeNanos(expire)));
                assertEquals(List.of("1 ACCEPTED gtd"), awaitEvents(outbound, 1));
                cluster.kill(leader);
                assertTrue(cluster.awaitLeader(20_000) != leader);
                assertEquals(List.of("1 EXPIRED gtd"), awaitEvents(outbound, 1));
                assertTrue(System.currentTimeMillis() * 1_000_000L >= expire, "not before its time");
            }
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
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 3).startAll()) {
            int leader = cluster.awaitLeader(30_000);
            InboundCommandRing inbound = new InboundCommandRing(1 << 16);
            OutboundEventRing outbound = new OutboundEventRing(1 << 20, new BackoffIdleStrategy());
            try (ClusterEngineLink link = new ClusterEngineLink(cluster.linkSettings(1, 1, 2, 3), inbound, outbound, 2)) {
                link.connect(StoredOrigins.NONE);
                link.start(-1);
                Command command = new Command();
                assertTrue(inbound.offer(command.setSymbolControl(0, SymbolControl.VOLATILITY_BAND_BASIS_POINTS, 500)));
                assertTrue(inbound.offer(command.setSymbolControl(0, SymbolControl.INTERRUPTION_MILLIS, 4_000)));
                assertTrue(inbound.offer(command.newOrder(1, "s0", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY,
                    10_000, 10)));
                assertTrue(inbound.offer(command.newOrder(2, "b0", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY,
                    10_000, 10)));
                assertEquals(List.of("1 ACCEPTED s0", "2 ACCEPTED b0", "2 FILL b0", "1 FILL s0"),
                    awaitEvents(outbound, 4));
                assertTrue(inbound.offer(command.newOrder(1, "sl", 0, Side.BUY, OrderType.STOP_LIMIT, TimeInForce.DAY,
                    11_100, 5).stopPrice(10_500)));
                assertTrue(inbound.offer(command.newOrder(1, "s1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY,
                    11_000, 5)));
                // 11,000 is 10% above the last trade: outside the 5% band, the buy starts a call instead of trading
                assertTrue(inbound.offer(command.newOrder(2, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY,
                    11_000, 5)));
                assertEquals(List.of("1 ACCEPTED sl", "1 ACCEPTED s1", "2 ACCEPTED b1"), awaitEvents(outbound, 3));
                long callStarted = System.currentTimeMillis();
                cluster.kill(leader);
                assertTrue(cluster.awaitLeader(20_000) != leader);
                assertEquals(List.of("2 FILL b1", "1 FILL s1", "1 TRIGGERED sl"), awaitEvents(outbound, 3));
                assertTrue(System.currentTimeMillis() - callStarted >= 3_500, "not before the interruption's end");
                assertEquals(0, drain(outbound).size(), "no report twice");
            }
        }
    }

    private static void awaitQuiet(ClusterEngineLink link) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!link.quiet()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("commands still unanswered: " + link.status().unanswered());
            }
            Thread.sleep(1);
        }
    }

    private static List<String> awaitEvents(OutboundEventRing ring, int count) throws InterruptedException {
        List<String> events = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
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
