package io.fixmatch.loadgen.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.loadgen.LoadgenMain;
import io.fixmatch.loadgen.LoadgenOptions;
import io.fixmatch.loadgen.report.Json;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Would the generator lie? It runs against an acceptor that answers after a known, injected delay: 200 µs for 98%
 * of requests, 5 ms for 2%, and a 100 ms stall once, during which the acceptor stops reading (small socket buffers on
 * both sides, so the stall soon blocks the generator's sender, as a stalled server does). The reported p50, p99 and
 * worst must match the round trips the acceptor's own clock gives, each answer's write less its request's due time,
 * which on a quiet machine are what the injection implies for a generator that counts every round trip from its due
 * time: at 2,000/s the 200 requests that fell due during the stall waited for its end, a ramp from 100 ms down, and
 * the top 1% of the 10,000 measured round trips are in it: p99 near 50 ms, worst near 100 ms. (On a loaded machine
 * the acceptor itself is slower to drain its small socket after the stall, the ramp lasts longer, p99 is higher: the
 * generator must report that, not the injection, so the test compares with what the acceptor did.)
 *
 * <p>A generator without coordinated-omission correction would charge the requests its blocked sender held back from
 * when they were finally sent, leaving in the ramp only the few dozen the socket buffers took: p99 near 5 ms. So this
 * test fails when JLBH's correction is turned off, when round trips are timed from the send instead of the due time,
 * and when p99 is miscomputed (each checked by applying the mutation). Tolerances: no answer can reach the generator
 * before the acceptor began to write it (the lower bound, 3% for HdrHistogram's buckets, is what catches those);
 * above it, 25%, the machine's own noise measured in the same run, and 500 µs, so that a loaded CI machine does not
 * fail it.
 */
class GeneratorSelfTest {
    private static final int RATE = 2000;
    private static final long INTERVAL_NANOS = 1_000_000_000L / RATE;
    private static final int WARMUP = RATE; // 1 s
    private static final int MEASURED = RATE * 5; // 5 s, one run
    private static final long FAST = 200_000;
    private static final long SLOW = 5_000_000;
    private static final long STALL = 100_000_000;
    /** The measured request during whose reading the acceptor stalls (0-based), and its number at the acceptor. */
    private static final int STALL_INDEX = MEASURED / 2;
    private static final long STALL_AT = WARMUP + STALL_INDEX + 1;

    @TempDir
    Path dir;

    private static long delay(long requestNumber) {
        return requestNumber % 50 == 17 ? SLOW : FAST;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void reportsTheInjectedDelaysCountingAStallFromEachRequestsDueTime() throws Exception {
        JsonNode summary;
        DelayingAcceptor acceptor = new DelayingAcceptor(GeneratorSelfTest::delay, STALL_AT, STALL, 2048, false);
        try (acceptor) {
            summary = run(acceptor, "--rate", Integer.toString(RATE), "--warmup", "1", "--duration", "5",
                "--runs", "1", "--so-sndbuf", "4096");
        }
        assertEquals(0, summary.get("errors").asLong(), summary.get("error_details").toString());
        assertTrue(summary.at("/send_lag/server_backpressure/sends").asLong() > 0,
            "precondition: the stall must block the generator's sender (back-pressure), else it cannot test "
                + "coordinated omission");

        Histogram injected = expectedRoundTrips();
        Histogram expected = acceptorRoundTrips(acceptor);
        assertTrue(expected.getValueAtPercentile(99) >= 0.97 * injected.getValueAtPercentile(99),
            "precondition: the stall's ramp is in the acceptor's p99 (" + expected.getValueAtPercentile(99)
                + " ns; injected " + injected.getValueAtPercentile(99) + " ns), else a generator that omits it would"
                + " pass");
        JsonNode ack = summary.at("/probes/end_to_end");
        JsonNode floor = summary.at("/probes/loopback_echo");
        JsonNode lag = summary.at("/send_lag/server_phase");
        assertEquals(MEASURED, ack.get("count").asLong());
        for (String percentile : List.of("p50", "p99", "worst")) {
            long actual = percentile.equals("worst") ? expected.getMaxValue()
                : expected.getValueAtPercentile(percentile.equals("p50") ? 50 : 99);
            assertClose(percentile, actual, floor.get(percentile + "_us").asDouble()
                + lag.get(percentile + "_us").asDouble(), ack.get(percentile + "_us").asDouble());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void splitsRoundTripsIntoTheServersTracedStages() throws Exception {
        JsonNode summary;
        try (DelayingAcceptor acceptor = new DelayingAcceptor(n -> FAST, -1, 0, 0, true)) {
            // The split must add up whatever the verdict: a generator late on a loaded machine (INVALID) still has
            // every answer's stamps, so this test does not depend on the machine being quiet.
            summary = run(acceptor, true, "--rate", "2000", "--warmup", "1", "--duration", "1", "--runs", "1");
        }
        assertEquals(0, summary.get("errors").asLong(), summary.get("error_details").toString());
        JsonNode stages = summary.get("stages");
        long count = summary.at("/probes/end_to_end/count").asLong();
        assertEquals(List.of("client_send", "wire_in", "decode", "inbound_queue", "journal", "match",
            "outbound_queue", "encode_write", "wire_out"), names(stages));
        double sumOfMeans = 0;
        for (JsonNode stage : stages) {
            assertEquals(count, stage.get("count").asLong(), "every answer carries the trace");
            sumOfMeans += stage.get("mean_us").asDouble();
        }
        // The acceptor stamps its injected delay as the journal stage, and 0.5 µs for decode and for match.
        assertClose("journal p50", FAST - 1_000, 0, stages.at("/journal/p50_us").asDouble());
        assertEquals(0.5, stages.at("/decode/p50_us").asDouble(), 0.01);
        assertEquals(0.5, stages.at("/match/p50_us").asDouble(), 0.01);
        double roundTripMean = summary.at("/probes/end_to_end/mean_us").asDouble();
        assertEquals(roundTripMean, sumOfMeans, roundTripMean * 0.02, "the stages add up to the round trip");
    }

    /** The round trips the injection implies, from each measured request's due time, with a zero-cost network. */
    private static Histogram expectedRoundTrips() {
        Histogram expected = new Histogram(3);
        long stallEnd = STALL_INDEX * INTERVAL_NANOS + STALL;
        for (int i = 0; i < MEASURED; i++) {
            long due = i * INTERVAL_NANOS;
            long waitedForTheStall = i > STALL_INDEX && due < stallEnd ? stallEnd - due : 0;
            expected.recordValue(waitedForTheStall + delay(WARMUP + i + 1L));
        }
        return expected;
    }

    /**
     * The measured round trips by the acceptor's clock: each answer's write less its request's due time. The due
     * times are the schedule's, one every {@link #INTERVAL_NANOS} from the first measured request's, which is found
     * from the reads: no request is read before it is due, so the earliest read less its place in the schedule is
     * the first due time plus the shortest send and wire time (microseconds), and no round trip here is longer than
     * the generator could truthfully report.
     */
    private static Histogram acceptorRoundTrips(DelayingAcceptor acceptor) {
        long firstDue = Long.MAX_VALUE;
        for (int i = 0; i < MEASURED; i++) {
            long read = acceptor.readAt(WARMUP + i + 1L);
            assertTrue(read != 0, "measured request " + i + " never read");
            firstDue = Math.min(firstDue, read - i * INTERVAL_NANOS);
        }
        Histogram roundTrips = new Histogram(3);
        for (int i = 0; i < MEASURED; i++) {
            long answered = acceptor.answeredAt(WARMUP + i + 1L);
            assertTrue(answered != 0, "measured request " + i + " never answered");
            roundTrips.recordValue(answered - (firstDue + i * INTERVAL_NANOS));
        }
        return roundTrips;
    }

    /** See the class comment for the tolerances. */
    private static void assertClose(String what, long expectedNanos, double noiseMicros, double reportedMicros) {
        double expectedMicros = expectedNanos / 1000.0;
        double ceiling = expectedMicros * 1.25 + noiseMicros + 500;
        assertTrue(reportedMicros >= expectedMicros * 0.97 && reportedMicros <= ceiling, what + ": reported "
            + reportedMicros + " µs, expected " + expectedMicros + " µs, ceiling " + ceiling + " µs");
    }
    private JsonNode run(DelayingAcceptor acceptor, String... flags) throws Exception {
        return run(acceptor, false, flags);
    }

    private JsonNode run(DelayingAcceptor acceptor, boolean lateGeneratorAllowed, String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of(flags));
        args.addAll(List.of("--port", Integer.toString(acceptor.port()), "--out", dir.toString(), "--floor-duration",
            "1", "--floor-ratio", "0", "--max-send-lag", "1000000", "--timeout", "5"));
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        int exit;
        try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            exit = LoadgenMain.run(LoadgenOptions.parse(args.toArray(String[]::new)), out);
        }
        String text = output.toString(StandardCharsets.UTF_8);
        System.out.println(text.substring(Math.max(0, text.lastIndexOf("\n\n"))));
        assertTrue(exit == LoadgenMain.EXIT_OK || exit == LoadgenMain.EXIT_THRESHOLD
            || lateGeneratorAllowed && exit == LoadgenMain.EXIT_INVALID, "exit " + exit + ":\n" + text);
        return Json.read(dir.resolve("summary.json"));
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
