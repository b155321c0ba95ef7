package io.fixmatch.it;

import io.fixmatch.fix.gateway.LatencyStages;
import io.fixmatch.server.FixmatchServer;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Latency trace (docs/FIX.md): the reports of a session with {@code latencyTrace=true} carry the server's stage
 * stamps 7101..7107 in stage order, taken on this process's System.nanoTime() clock between the request's send and
 * the report's arrival; reports of an untraced session, and reports caused by an untraced command, carry none; the
 * server's own stage histograms count the traced reports, the way to the engine as the inbound queue (standalone) or
 * as the replication (cluster mode: the nodes in this JVM share its clock).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@BothModes
class LatencyTraceTest {
    private static final int[] TRACE_TAGS = {7101, 7102, 7103, 7104, 7105, 7106, 7107};

    @TempDir
    Path temp;
    private FixmatchServer server;
    private RawFixClient traced;
    private RawFixClient untraced;

    @AfterEach
    void cleanUp() {
        TestServers.closeQuietly(traced, untraced, server);
    }

    @ParameterizedTest
    @ValueSource(strings = {"one-thread", "two-threads"})
    void tracedSessionsGetOrderedStampsOthersNone(String layout) throws Exception {
        Assumptions.assumeFalse(TestServers.clusterMode() && layout.equals("two-threads"), "server.layout is the"
            + " standalone process's threads: a cluster gateway has no matching step");
        server = TestServers.start(temp, 0, Map.of("server.layout", layout, "session.CLIENT1.latencyTrace", "true"));
        traced = RawFixClient.loggedOn(server.port(), "CLIENT1", 30);
        untraced = RawFixClient.loggedOn(server.port(), "CLIENT2", 30);

        long sent = System.nanoTime();
        traced.send(traced.newOrder("T-1", "AAPL", "2", 100, "50.00"));
        RawFix.Msg ack = traced.expect("8");
        long received = System.nanoTime();
        assertEquals("0", ack.get(150));
        assertStamps(ack, sent, received);

        // An untraced command: its reports carry nothing, also the fill it causes for the traced session.
        untraced.send(untraced.newOrder("U-1", "AAPL", "1", 100, "50.00"));
        assertNoStamps(untraced.expect("8"));
        assertNoStamps(untraced.expect("8"));
        RawFix.Msg passiveFill = traced.expect("8");
        assertEquals("F", passiveFill.get(150));
        assertNoStamps(passiveFill);

        // A traced command that trades with the untraced session: stamps for the traced side only.
        untraced.send(untraced.newOrder("U-2", "AAPL", "2", 60, "50.00"));
        assertNoStamps(untraced.expect("8"));
        sent = System.nanoTime();
        traced.send(traced.newOrder("T-2", "AAPL", "1", 60, "50.00"));
        RawFix.Msg tracedAck = traced.expect("8");
        RawFix.Msg tracedFill = traced.expect("8");
        received = System.nanoTime();
        assertStamps(tracedAck, sent, received);
        assertStamps(tracedFill, sent, received);
        assertEquals(tracedAck.get(7101), tracedFill.get(7101), "both reports of one command: its stamps");
        RawFix.Msg otherSide = untraced.expect("8");
        assertEquals("F", otherSide.get(150));
        assertNoStamps(otherSide);

        // Recorded on the gateway thread just after the write returned: possibly after the report arrived here.
        QfjClient.awaitCondition(() -> server.latencyStages().get(LatencyStages.Stage.TOTAL).getTotalCount() == 3,
            "three traced reports recorded");
        Map<LatencyStages.Stage, Histogram> stages = server.latencyStages();
        LatencyStages.Stage wayIn = TestServers.clusterMode() ? LatencyStages.Stage.REPLICATION
            : LatencyStages.Stage.INBOUND_QUEUE;
        for (LatencyStages.Stage stage : LatencyStages.Stage.values()) {
            boolean otherWayIn = stage != wayIn
                && (stage == LatencyStages.Stage.REPLICATION || stage == LatencyStages.Stage.INBOUND_QUEUE);
            assertEquals(otherWayIn ? 0 : 3, stages.get(stage).getTotalCount(), stage + ": one value per traced"
                + " report (the way to the engine is " + wayIn + ")");
        }
        // TOTAL ends when the socket write returned: after the report's own write stamp (7107).
        long shortestInReport = Math.min(Math.min(span(ack), span(tracedAck)), span(tracedFill));
        assertTrue(stages.get(LatencyStages.Stage.TOTAL).getMinValue() >= shortestInReport * 0.99,
            () -> "TOTAL " + stages.get(LatencyStages.Stage.TOTAL).getMinValue() + " ns against 7107 - 7101 = "
                + shortestInReport + " ns; " + describe(stages));
        traced.assertFramedCorrectly();
        untraced.assertFramedCorrectly();
    }

    private static long span(RawFix.Msg report) {
        return Long.parseLong(report.get(7107)) - Long.parseLong(report.get(7101));
    }

    private static String describe(Map<LatencyStages.Stage, Histogram> stages) {
        StringBuilder text = new StringBuilder();
        stages.forEach((stage, histogram) -> text.append(stage).append(" max ").append(histogram.getMaxValue())
            .append(' '));
        return text.toString();
    }

    /** Every stamp present, non-decreasing in stage order, between the send and the receipt. */
    private static void assertStamps(RawFix.Msg report, long sent, long received) {
        long previous = sent;
        for (int tag : TRACE_TAGS) {
            String value = report.get(tag);
            assertNotNull(value, "tag " + tag + " on " + report);
            long stamp = Long.parseLong(value);
            assertTrue(stamp >= previous, "tag " + tag + " = " + stamp + " before the previous stage " + previous
                + " in " + report);
            previous = stamp;
        }
        assertTrue(previous <= received, "the write stamp is before the report arrived: " + report);
    }

    private static void assertNoStamps(RawFix.Msg report) {
        for (int tag : TRACE_TAGS) {
            assertFalse(report.has(tag), "tag " + tag + " on " + report);
        }
    }
}
