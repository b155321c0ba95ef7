package io.fixmatch.it;

import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.fix.marketdata.MarketDataCounters;
import io.fixmatch.server.FixmatchServer;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * "The hot path allocates nothing", for the whole server: in the one-thread layout the gateway thread (gateway-0)
 * frames and parses FIX, runs the session layer, the matching step and the journal append, encodes the reports, the
 * drop copies and the market data. After a warm-up with every one of those paths busy (a trader whose orders rest,
 * trade and are cancelled, a subscriber with a full-depth and a depth-5 subscription on three symbols, a drop-copy
 * session covering the trader), the bytes the gateway thread allocates over a window of several thousand orders
 * must stay under a small fixed allowance: one allocation per message of any kind would exceed it many times over.
 * Only the server's thread is measured (HotSpot's per-thread allocation counter); the raw clients allocate freely.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GatewayAllocationTest {
    private static final List<String> SYMBOLS = List.of("AAPL", "MSFT", "GOOG");
    /** Resting orders per side per batch: more levels than the depth-5 view, so levels move in and out of it. */
    private static final int LEVELS = 8;
    /** Orders of a batch: per level a resting sell and buy, an aggressive buy and sell, and two cancels. */
    private static final int ORDERS_PER_BATCH = 6 * LEVELS;
    private static final int WARM_UP_BATCHES = 1500;
    private static final int MEASURED_BATCHES = 300;
    /**
     * What the gateway thread may allocate in the measured window. The window has 14,400 orders in and over 50,000
     * messages handled (24,000 reports, as many drop copies, the market-data updates), so the smallest object (16
     * bytes) per market-data update alone (7,200 or more, asserted) would be 115 KB, per drop copy 384 KB. What is
     * left is no message's: observed 2.8 to 4.4 KB in lumps of 150 to 1,600 bytes a few times per window (Chronicle
     * Queue's appender re-creating its index holders, code re-run in the interpreter after a JIT deoptimisation).
     * 16 KB is 1.1 bytes per order, 0.3 per message: room for that noise, a tenth of any per-message allocation.
     */
    private static final long ALLOWED_BYTES = 16_384;

    @TempDir
    Path data;
    private FixmatchServer server;
    private RawFixClient trader;
    private RawFixClient subscriber;
    private RawFixClient dropCopy;
    private long nextId;
    private long copies;
    private long updates;

    /** The tests run Netty's leak detector (pom.xml), which tracks a sampled buffer with a stack trace. */
    private final ResourceLeakDetector.Level leakDetection = ResourceLeakDetector.getLevel();

    @AfterEach
    void stop() {
        TestServers.closeQuietly(trader, subscriber, dropCopy, server);
        ResourceLeakDetector.setLevel(leakDetection);
    }

    @Test
    void theGatewayThreadAllocatesNothingPerMessageWithMarketDataAndDropCopyActive() throws Exception {
        // Off, as the server runs in production (FixAcceptor): its sampling is an allocation of the test set-up.
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        server = TestServers.start(data, 0, Map.of("server.layout", "one-thread", "gateway.threads", "1",
            "sessions", "CLIENT1,CLIENT2,DROPCOPY", "session.DROPCOPY.dropCopyFor", "CLIENT1"));
        trader = RawFixClient.loggedOn(server.port(), "CLIENT1", 60);
        subscriber = RawFixClient.loggedOn(server.port(), "CLIENT2", 60);
        dropCopy = RawFixClient.loggedOn(server.port(), "DROPCOPY", 60);
        subscribe("BOOK", 0);
        subscribe("TOP5", 5);
        for (int i = 0; i < 2 * SYMBOLS.size(); i++) {
            subscriber.expect("W"); // the (empty) snapshots: one per request and symbol
        }

        for (int batch = 0; batch < WARM_UP_BATCHES; batch++) {
            batch(batch);
        }
        Thread gateway = thread("gateway-0");
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long copiesBefore = copies;
        long updatesBefore = updates;
        long sentUpdatesBefore = counters().updates();
        long before = threads.getThreadAllocatedBytes(gateway.getId());
        for (int batch = 0; batch < MEASURED_BATCHES; batch++) {
            batch(WARM_UP_BATCHES + batch);
        }
        long allocated = threads.getThreadAllocatedBytes(gateway.getId()) - before;
        drainQuietly(Duration.ofMillis(200));

        // The window did exercise every path it claims to.
        long orders = (long) MEASURED_BATCHES * ORDERS_PER_BATCH;
        assertTrue(copies - copiesBefore >= orders, "drop copies received in the window: " + (copies - copiesBefore));
        assertTrue(updates - updatesBefore >= orders / 2, "X received in the window: " + (updates - updatesBefore));
        assertEquals(0, counters().conflatedUpdates(), "no conflation: every update was encoded and sent");
        assertTrue(counters().updates() - sentUpdatesBefore >= orders / 2, "updates the feed counted");
        assertTrue(allocated <= ALLOWED_BYTES, "gateway-0 allocated " + allocated + " bytes over " + orders
            + " orders (" + (double) allocated / orders + " per order); allowed " + ALLOWED_BYTES);
    }

    /**
     * One batch on one symbol: {@link #LEVELS} sells and buys that rest on distinct levels, one aggressive buy and
     * sell per level that trade against the best levels, then a cancel of each resting order (rejected when it has
     * traded away), then a status request whose answer says the batch is done. The book is back to empty after it.
     */
    private void batch(int batch) throws Exception {
        String symbol = SYMBOLS.get(batch % SYMBOLS.size());
        long first = nextId;
        for (int level = 0; level < LEVELS; level++) {
            trader.send(trader.newOrder("S" + nextId, symbol, "2", 10, price(10_001 + level)));
            trader.send(trader.newOrder("B" + nextId++, symbol, "1", 10, price(9_999 - level)));
        }
        for (int level = 0; level < LEVELS; level++) {
            trader.send(trader.newOrder("TB" + first + "-" + level, symbol, "1", 4, price(10_020)));
            trader.send(trader.newOrder("TS" + first + "-" + level, symbol, "2", 4, price(9_980)));
        }
        for (long id = first; id < nextId; id++) {
            trader.send(trader.header("F").field(11, "CS" + id).field(41, "S" + id).field(55, symbol)
                .field(54, "2").field(60, FixBuilder.now()));
            trader.send(trader.header("F").field(11, "CB" + id).field(41, "B" + id).field(55, symbol)
                .field(54, "1").field(60, FixBuilder.now()));
        }
        String barrier = "BARRIER" + batch;
        trader.send(trader.header("H").field(11, barrier).field(55, symbol).field(54, "1"));
        long deadline = System.nanoTime() + RawFixClient.TIMEOUT.toNanos();
        while (true) {
            RawFix.Msg message = trader.poll(Duration.ofMillis(100));
            if (message != null) {
                if (!message.type().equals("8") && !message.type().equals("9")) {
                    fail("the trader got " + message);
                }
                if (barrier.equals(message.get(11))) {
                    break;
                }
            }
            if (System.nanoTime() > deadline) {
                fail("no answer to " + barrier);
            }
        }
        drainQuietly(Duration.ZERO);
    }

    /** Takes what the subscriber and the drop copy received, counting X and copies; fails on anything else. */
    private void drainQuietly(Duration wait) throws InterruptedException {
        for (RawFix.Msg message = dropCopy.poll(wait); message != null; message = dropCopy.poll(Duration.ZERO)) {
            if (message.type().equals("0")) {
                continue; // a heartbeat (a slow run)
            }
            if (!"CLIENT1".equals(message.get(128))) {
                fail("the drop copy got " + message);
            }
            copies++;
        }
        for (RawFix.Msg message = subscriber.poll(wait); message != null; message = subscriber.poll(Duration.ZERO)) {
            if (message.type().equals("0")) {
                continue;
            }
            if (!message.type().equals("X")) {
                fail("the subscriber got " + message);
            }
            updates++;
        }
    }

    private void subscribe(String id, int depth) throws Exception {
        FixBuilder request = subscriber.header("V").field(262, id).field(263, "1").field(264, depth)
            .field(265, 1).field(267, 3).field(269, "0").field(269, "1").field(269, "2").field(146, SYMBOLS.size());
        for (String symbol : SYMBOLS) {
            request.field(55, symbol);
        }
        subscriber.send(request);
    }

    private MarketDataCounters counters() {
        return server.gateways().all().get(0).marketData().counters();
    }

    /** A price in cents as FIX text: 10001 is 100.01. */
    private static String price(int cents) {
        return cents / 100 + "." + String.format("%02d", cents % 100);
    }

    private static Thread thread(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst()
            .orElseThrow(() -> new AssertionError("no thread named " + name));
    }
}
