package io.fixmatch.cluster;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.aeron.cluster.ElectionState;
import io.fixmatch.cluster.node.ClusterNode;
import io.fixmatch.cluster.node.ElectionWatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node whose election cannot close says so in its log, on real nodes: one node of three started alone has no
 * majority, so its election stays open; the watch's WARN line names the step it waits in and the members it needs,
 * then says nothing more until its reminder is due, and once the other two start and the election closes it says
 * after how long. Once closed, it says nothing more.
 */
@Timeout(180)
class ElectionWatchTest {
    /** Far below the venue's (about 11 s), so the test does not wait it; far above an election's steps. */
    private static final long PATIENCE_MS = 1_500;

    @Test
    void aNodeAloneSaysItsElectionStaysOpenAndThenWhenItCloses() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger watchLog = (Logger) LoggerFactory.getLogger(ElectionWatch.class);
        watchLog.addAppender(log);
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 3)) {
            ClusterNode alone = cluster.start(0);
            ElectionWatch watch = new ElectionWatch(alone, PATIENCE_MS);
            long started = System.nanoTime();
            String open = awaitLine(watch, "election open");
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(waitedMs >= PATIENCE_MS, "not before its patience ran out: " + waitedMs + " ms");
            assertNotEquals(ElectionState.CLOSED, alone.electionState(), "a node alone has no majority");
            assertTrue(open.startsWith("cluster node 0: election open for ") && open.contains("waiting in ")
                && open.contains("2 of the 3 nodes agree")
                && open.contains("1 at " + cluster.members().get(1).consensusEndpoint())
                && open.contains("2 at " + cluster.members().get(2).consensusEndpoint()), open);
            assertNull(watch.check(System.nanoTime()), "no second line before the reminder is due");

            cluster.start(1);
            cluster.start(2);
            cluster.awaitLeader(TestCluster.WAIT.toMillis());
            String closed = awaitLine(watch, "election closed");
            assertTrue(closed.startsWith("cluster node 0: election closed after ") && closed.contains(" in term "),
                closed);

            List<ILoggingEvent> lines = new ArrayList<>(log.list);
            assertEquals(Level.WARN, lines.get(0).getLevel(), "the open election is a warning");
            assertEquals(open, lines.get(0).getFormattedMessage());
            assertEquals(closed, lines.get(lines.size() - 1).getFormattedMessage());
            assertNull(watch.check(System.nanoTime()), "once closed, nothing more to say");
        } finally {
            watchLog.detachAppender(log);
        }
    }

    /** The watch checked as the node's main loop does, until it says {@code what} (reminders skipped). */
    private static String awaitLine(ElectionWatch watch, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            String line = watch.check(System.nanoTime());
            if (line != null && line.contains(what)) {
                return line;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the watch did not say \"" + what + "\" within " + TestCluster.WAIT);
    }
}
