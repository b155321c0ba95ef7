package io.fixmatch.loadgen;

import io.fixmatch.loadgen.phase.PhaseResult;
import io.fixmatch.loadgen.report.Json;
import io.fixmatch.loadgen.report.ProbeStats;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report's maths and the release gate: percentiles, thresholds, the baseline, the verdict and exit status. */
class VerdictTest {
    @TempDir
    Path dir;

    /** 1..1000 µs, one sample each. */
    private static Histogram uniformMicros(int scale) {
        Histogram h = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            h.recordValue(i * 1000L * scale);
        }
        return h;
    }

    @Test
    void percentilesAreTheValuesBelowWhichThatShareOfSamplesFall() {
        ProbeStats stats = ProbeStats.of(uniformMicros(1));
        assertEquals(1000, stats.count());
        assertEquals(500, stats.p50(), 1);
        assertEquals(900, stats.p90(), 1);
        assertEquals(990, stats.p99(), 1);
        assertEquals(999, stats.p999(), 1);
        assertEquals(1000, stats.worst(), 1);
        assertEquals(500.5, stats.mean(), 1);
        assertEquals(0, ProbeStats.of(new Histogram(3)).count());
    }

    @Test
    void aThresholdOnAProbeWithoutSamplesFailsAsDoesAnUnknownProbeOrABreach() {
        Map<String, ProbeStats> stats = Map.of("new_ack", ProbeStats.of(uniformMicros(1)), "fill", ProbeStats.EMPTY);
        assertEquals(List.of(), Thresholds.ceilings(thresholds("new_ack.p99=1000"), stats));
        assertEquals(1, Thresholds.ceilings(thresholds("new_ack.p99=900"), stats).size());
        assertTrue(Thresholds.ceilings(thresholds("fill.p50=1000000"), stats).get(0).contains("no samples"));
        assertTrue(Thresholds.ceilings(thresholds("nope.p50=1"), stats).get(0).contains("unknown probe"));
    }

    @Test
    void aBaselineFlagsARegressionBeyondTheRatioButNotTheFloor() throws Exception {
        Path baseline = dir.resolve("baseline.json");
        Files.writeString(baseline, Json.write(Map.of("probes", Map.of("new_ack", Map.of("p99_us", 500.0),
            "loopback_echo", Map.of("p99_us", 1.0)))));
        Map<String, ProbeStats> now = Map.of("new_ack", ProbeStats.of(uniformMicros(1)), "loopback_echo",
            ProbeStats.of(uniformMicros(1)));
        assertEquals(1, Thresholds.againstBaseline(baseline, "p99", 1.5, now).size(), "990 µs is 1.98x 500");
        assertEquals(0, Thresholds.againstBaseline(baseline, "p99", 2.0, now).size());
    }

    @Test
    void errorsWinOverInvalidWhichWinsOverFail() {
        LoadgenOptions options = LoadgenOptions.parse(new String[] {"--max-send-lag", "100", "--threshold",
            "new_ack.p99=1"});
        Histogram lateSender = uniformMicros(1); // send lag p99 990 µs, above 100
        Report report = report(options, uniformMicros(1), lateSender, 45_000);
        List<String> breaches = Thresholds.ceilings(options.thresholds(), report.allStats());

        Verdict withErrors = Verdict.judge(options, report, 3, breaches);
        assertEquals(Verdict.FAIL, withErrors.verdict());
        assertEquals(LoadgenMain.EXIT_ERRORS, withErrors.exitCode());

        Verdict invalid = Verdict.judge(options, report, 0, breaches);
        assertEquals(Verdict.INVALID, invalid.verdict());
        assertEquals(LoadgenMain.EXIT_INVALID, invalid.exitCode());
        assertTrue(invalid.headline().startsWith("INVALID"));
        assertTrue(invalid.reasons().stream().anyMatch(r -> r.contains("send-lag p99")), invalid.reasons().toString());
    }

    @Test
    void aSendLagUnderATenthOfTheRoundTripP99LeavesTheVerdictStanding() {
        LoadgenOptions options = LoadgenOptions.parse(new String[] {"--max-send-lag", "100", "--floor-ratio", "0"});
        Histogram lag = uniformMicros(1); // p99 990 µs: over 100 µs, under a tenth of the round trips' 20.8 ms
        Report report = report(options, uniformMicros(21), lag, 45_000, uniformMicros(21));
        assertEquals(Verdict.PASS, Verdict.judge(options, report, 0, List.of()).verdict());
        Report lateFloor = report(options, uniformMicros(21), lag, 45_000, uniformMicros(1));
        Verdict invalid = Verdict.judge(options, lateFloor, 0, List.of());
        assertEquals(Verdict.INVALID, invalid.verdict(), "the floor's p99 is 990 µs: its tenth is under the lag");
        assertEquals(1, invalid.reasons().size(), invalid.reasons().toString());
    }

    @Test
    void theGateFailsOnARateBelowTheScheduleAndOnAServerFarAboveTheFloor() {
        LoadgenOptions options = LoadgenOptions.parse(new String[0]);
        Histogram punctual = new Histogram(3);
        punctual.recordValue(1_000);
        assertEquals(Verdict.PASS, Verdict.judge(options, report(options, uniformMicros(1), punctual, 45_000), 0,
            List.of()).verdict());
        Verdict slow = Verdict.judge(options, report(options, uniformMicros(1), punctual, 44_000), 0, List.of());
        assertEquals(LoadgenMain.EXIT_THRESHOLD, slow.exitCode());
        assertTrue(slow.reasons().get(0).contains("under 99%"), slow.reasons().toString());
        Verdict farAboveFloor = Verdict.judge(options, report(options, uniformMicros(21), punctual, 45_000), 0,
            List.of());
        assertEquals(LoadgenMain.EXIT_THRESHOLD, farAboveFloor.exitCode());
        assertTrue(farAboveFloor.reasons().get(0).contains("the floor's p99"), farAboveFloor.reasons().toString());
    }

    /** A report whose floor is {@code echo} (uniform 1..1000 µs unless given) and whose server phase has {@code ack}. */
    private static Report report(LoadgenOptions options, Histogram ack, Histogram sendLag, double achieved) {
        return report(options, ack, sendLag, achieved, uniformMicros(1));
    }

    private static Report report(LoadgenOptions options, Histogram ack, Histogram sendLag, double achieved,
                                 Histogram echo) {
        PhaseResult floor = phase(Map.of(Report.LOOPBACK_ECHO, List.of(echo)), sendLag, 45_000);
        PhaseResult server = phase(Map.of("new_ack", List.of(ack), Report.END_TO_END, List.of(ack)), sendLag,
            achieved);
        return new Report(options, new Report.Context("now", "abc", Map.of(), Map.of()), floor, server, 0, Map.of());
    }

    private static PhaseResult phase(Map<String, List<Histogram>> probes, Histogram sendLag, double achieved) {
        return new PhaseResult(probes, Map.of(), new ArrayList<>(List.of(sendLag)), List.of(achieved), List.of(45_000.0),
            0, 0, 1000, 1, 1, 1, "set", false);
    }

    private static List<LoadgenOptions.Threshold> thresholds(String... texts) {
        return List.of(texts).stream().map(LoadgenOptions.Threshold::parse).toList();
    }
}
