package io.fixmatch.it;

import io.fixmatch.feed.handler.FeedHandler;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.WaitBounds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The binary market data feed of a whole server (docs/FEED.md), heard by the reference handler over real loopback UDP
 * while a QuickFIX/J client trades a random flow on three symbols:
 * <ul>
 *   <li>handlers that join mid-day, while the flow runs, take their books from a snapshot: each snapshot's books are
 *       exactly those a handler that followed the stream from the start held after the snapshot's number, and every
 *       handler ends with the engine's books ({@code GET /book});</li>
 *   <li>a server stopped and started again on its disk goes on with the next number: a handler that stays up through
 *       the restart applies every number once, in order, and ends with the engine's books.</li>
 * </ul>
 * (The handler's books against the FIX market data's and {@code /book} through a long flow: MarketDataTest; the
 * stream through a lossy link: FeedRecoveryTest; a cluster's leader killed: ClusterFailoverTest's FeedWatch.)
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@BothModes
class BinaryFeedTest {
    private static final List<String> SYMBOLS = List.of("AAPL", "MSFT", "GOOG");
    /** {@code /book} shows at most 20 levels a side. */
    private static final int DEPTH = 20;

    @TempDir
    Path data;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() {
        for (int i = open.size() - 1; i >= 0; i--) {
            TestServers.closeQuietly(open.get(i));
        }
    }

    private <T extends AutoCloseable> T opened(T closeable) {
        open.add(closeable);
        return closeable;
    }

    private FixmatchServer start(Map<String, String> feed) throws InterruptedException {
        return opened(TestServers.start(data, 0, feed, TestServers.admin(null)));
    }

    private QfjClient logOn(String compId, FixmatchServer server) throws Exception {
        QfjClient client = QfjClient.logOn(compId, server.port());
        open.add(client::stopForcibly);
        return client;
    }

    private FeedHandler listening(FeedHandler handler, FeedLog log) {
        handler.observer(log);
        handler.start();
        return opened(handler);
    }

    @Test
    void handlersJoiningMidDayTakeTheBooksTheStreamHadAtTheirSnapshotsNumber() throws Exception {
        int retransmitPort = TestServers.freeUdpPort();
        String session = FeedBooks.session(retransmitPort); // a stray datagram of another test's server is not heard
        FeedLog earlyLog = new FeedLog();
        FeedHandler early = listening(FeedBooks.handler(0, 0, retransmitPort, session), earlyLog);
        // The late handlers' ports are in the channel from the start, but nothing listens there until each joins.
        int lateStream = TestServers.freeUdpPort();
        int lateSnapshots = TestServers.freeUdpPort();
        Map<String, String> feed = new HashMap<>(FeedBooks.overrides(retransmitPort,
            List.of(early.streamPort(), lateStream), List.of(early.snapshotPort(), lateSnapshots)));
        feed.put("marketData.feed.session", session);
        FixmatchServer server = start(feed);
        AdminClient admin = new AdminClient(server.adminPort(), null);
        RandomOrderFlow flow = new RandomOrderFlow(logOn("CLIENT1", server), 31, SYMBOLS, List.of());
        flow.run(1_000);
        List<FeedLog.Installed> joins = new ArrayList<>();
        FeedHandler late = null;
        FeedLog lateLog = null;
        for (int join = 0; join < 3; join++) {
            if (late != null) {
                late.close(); // the next one binds the same ports
            }
            lateLog = new FeedLog();
            late = listening(FeedBooks.handler(lateStream, lateSnapshots, retransmitPort, session), lateLog);
            long deadline = System.nanoTime() + WaitBounds.ANSWER.toNanos();
            while (!late.synced()) { // the flow goes on while it joins
                flow.run(50);
                if (System.nanoTime() > deadline) {
                    fail("late handler " + join + " did not join: " + late.health());
                }
            }
            flow.run(500);
            joins.add(lateLog.snapshots().get(0));
        }
        flow.barrier();
        long last = FeedBooks.awaitCaughtUp(early, () -> FeedBooks.lastPublished(admin));
        FeedBooks.awaitCaughtUp(late, () -> last);
        for (String symbol : SYMBOLS) {
            String book = admin.getJson("/book/" + symbol + "?depth=" + DEPTH, 200).toString();
            assertTrue(FeedBooks.matches(early, symbol, admin.getJson("/book/" + symbol + "?depth=" + DEPTH, 200),
                DEPTH), "the early handler's " + FeedBooks.describe(early, symbol) + " is the engine's " + book);
            assertTrue(FeedBooks.matches(late, symbol, admin.getJson("/book/" + symbol + "?depth=" + DEPTH, 200),
                DEPTH), "the last late handler's " + FeedBooks.describe(late, symbol) + " is the engine's " + book);
        }
        assertEquals(List.of(), earlyLog.breaks(), "the early handler applied every number in order");
        assertEquals(List.of(), lateLog.breaks(), "the late handler applied every number after its join in order");
        long earlyJoin = earlyLog.snapshots().get(0).lastSequence();
        for (FeedLog.Installed join : joins) {
            assertTrue(join.lastSequence() > earlyJoin && join.states().stream().anyMatch(state -> !state.startsWith(
                "bids [] asks []")), "a join mid-day, books standing: " + join.lastSequence() + " " + join.states());
            assertEquals(earlyLog.statesAt(join.lastSequence()), join.states(),
                "the snapshot stamped " + join.lastSequence() + " holds the books after that message");
        }
        System.out.println("joins at " + joins.stream().map(FeedLog.Installed::lastSequence).toList() + " of " + last
            + "; early handler: " + early.health());
    }

    @Test
    void aServerStartedAgainOnItsDiskGoesOnWithTheNextNumber() throws Exception {
        int retransmitPort = TestServers.freeUdpPort();
        FeedLog log = new FeedLog();
        FeedHandler handler = listening(FeedBooks.handler(retransmitPort), log);
        Map<String, String> feed = new HashMap<>(FeedBooks.overrides(retransmitPort, handler));
        FixmatchServer server = start(feed);
        RandomOrderFlow flow = new RandomOrderFlow(logOn("CLIENT1", server), 37, SYMBOLS, List.of());
        flow.run(1_500);
        flow.barrier();
        AdminClient admin = new AdminClient(server.adminPort(), null);
        long beforeStop = FeedBooks.awaitCaughtUp(handler, () -> FeedBooks.lastPublished(admin));
        server.close();
        open.remove(server);

        server = start(feed);
        AdminClient again = new AdminClient(server.adminPort(), null);
        assertEquals(beforeStop, FeedBooks.lastPublished(again), "the restarted feed goes on after the last number");
        flow = new RandomOrderFlow(logOn("CLIENT2", server), 38, SYMBOLS, List.of());
        flow.run(1_500);
        flow.barrier();
        long last = FeedBooks.awaitCaughtUp(handler, () -> FeedBooks.lastPublished(again));
        assertTrue(last > beforeStop + 1_000, "the flow after the restart was published: " + beforeStop + " -> " + last);
        assertEquals(List.of(), log.breaks(), "the handler applied every number once, in order, through the restart");
        assertEquals(1, log.snapshots().size(), "no snapshot after the join: " + handler.recoveries());
        for (String symbol : SYMBOLS) {
            assertTrue(FeedBooks.matches(handler, symbol, again.getJson("/book/" + symbol + "?depth=" + DEPTH, 200),
                DEPTH), FeedBooks.describe(handler, symbol) + " is the engine's "
                + again.getJson("/book/" + symbol + "?depth=" + DEPTH, 200));
        }
    }
}
