package io.fixmatch.benchmarks.engine;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmarks measure what they claim: each op does the commands its Javadoc names and leaves the book as it
 * found it (the teardown checks, run here after a few thousand ops on small books).
 */
class BenchmarkStatesTest {
    private static final int OPS = 3_000;

    @BeforeAll
    static void smallEngines() {
        Fixture.maxOrders = 100_000;
    }

    @AfterAll
    static void fullEngines() {
        Fixture.maxOrders = Fixture.MAX_ORDERS;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 10, 100})
    void cancelOpsRestoreTheLevel(int depth) {
        for (String scenario : new String[] {"cancelFirst", "cancelMiddle", "cancelLast", "cancelNonexistent"}) {
            CancelBenchmark benchmark = new CancelBenchmark();
            benchmark.depth = depth;
            benchmark.setup();
            for (int i = 0; i < OPS; i++) {
                switch (scenario) {
                    case "cancelFirst" -> benchmark.cancelFirst();
                    case "cancelMiddle" -> benchmark.cancelMiddle();
                    case "cancelLast" -> benchmark.cancelLast();
                    default -> benchmark.cancelNonexistent();
                }
            }
            benchmark.verify(scenario);
            assertTrue(benchmark.events() >= OPS, scenario);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 10_000})
    void passiveAddsRestoreTheBook(int bookSize) {
        for (String scenario : new String[] {"joinLevel", "newLevel"}) {
            PassiveAddBenchmark benchmark = new PassiveAddBenchmark();
            benchmark.bookSize = bookSize;
            benchmark.setup();
            for (int i = 0; i < OPS; i++) {
                if (scenario.equals("joinLevel")) {
                    benchmark.joinLevel();
                } else {
                    benchmark.newLevel();
                }
            }
            benchmark.verify(scenario);
            assertEquals(2L * OPS, benchmark.events(), scenario);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 100})
    void stopAndIcebergOpsRestoreTheBook(int waitingStops) {
        long[] eventsPerOp = {4, 6, 13, 12};
        String[] scenarios = {"plainTrade", "icebergRefill", "stopTrigger", "stoplessEquivalent"};
        for (int s = 0; s < scenarios.length; s++) {
            OrderAttributesBenchmark benchmark = new OrderAttributesBenchmark();
            benchmark.waitingStops = waitingStops;
            benchmark.setup();
            for (int i = 0; i < OPS; i++) {
                switch (scenarios[s]) {
                    case "plainTrade" -> benchmark.plainTrade();
                    case "icebergRefill" -> benchmark.icebergRefill();
                    case "stopTrigger" -> benchmark.stopTrigger();
                    default -> benchmark.stoplessEquivalent();
                }
            }
            benchmark.verify(scenarios[s]);
            assertEquals(eventsPerOp[s] * OPS, benchmark.events(), scenarios[s]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 10_000})
    void sweepsRestoreTheBook(int bookSize) {
        AggressiveSweepBenchmark benchmark = new AggressiveSweepBenchmark();
        benchmark.bookSize = bookSize;
        benchmark.setup();
        for (int i = 0; i < OPS; i++) {
            benchmark.sweep3Levels();
        }
        benchmark.verify("sweep3Levels");
        assertEquals(10L * OPS, benchmark.events());
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 10_000})
    void mixedFlowReplaysToTheSameBook(int bookSize) {
        MixedFlowBenchmark benchmark = newFlow(bookSize, 2);
        int ops = benchmark.flowLength() + benchmark.flowLength() / 3;
        for (int i = 0; i < ops; i++) {
            benchmark.command();
        }
        benchmark.verify("command");
    }

    /** The risk limits of {@code risk=limits} refuse nothing: the same flow gives the same events with and without. */
    @Test
    void wideRiskLimitsLeaveTheFlowUnchanged() {
        long[] events = new long[2];
        String[] risks = {"none", "limits"};
        for (int i = 0; i < 2; i++) {
            MixedFlowBenchmark benchmark = newFlow(10, 2, risks[i]);
            for (int op = 0; op < benchmark.flowLength(); op++) {
                benchmark.command();
            }
            benchmark.verify("command");
            events[i] = benchmark.events();
        }
        assertEquals(events[0], events[1]);
    }

    @Test
    void mixedFlowCanBeMostlyCancels() {
        FlowGenerator generator = new FlowGenerator(MixedFlowBenchmark.SEED, 3, 4, 40);
        CountingSink sink = new CountingSink();
        var engine = Fixture.engine(sink);
        BookBuilder.build(engine, sink, 10, FlowGenerator.BACKGROUND_OFFSET);
        int length = generator.generate(engine, sink, 20_000).length;
        double cancels = generator.cancels + generator.lateCancels + generator.closingCancels;
        assertTrue(cancels / length > 0.6 && cancels / length < 0.7, generator.describe());
        assertTrue((double) generator.passiveAdds / length < 0.3, generator.describe());
    }

    @Test
    void aSweepNeedsThreeLevelsASide() {
        AggressiveSweepBenchmark benchmark = new AggressiveSweepBenchmark();
        benchmark.bookSize = 4;
        assertThrows(IllegalArgumentException.class, benchmark::setup);
    }

    private static MixedFlowBenchmark newFlow(int bookSize, int lateCancelPercent) {
        return newFlow(bookSize, lateCancelPercent, "none");
    }

    private static MixedFlowBenchmark newFlow(int bookSize, int lateCancelPercent, String risk) {
        MixedFlowBenchmark benchmark = new MixedFlowBenchmark();
        benchmark.risk = risk;
        benchmark.bookSize = bookSize;
        benchmark.aggressivePercent = 3;
        benchmark.replacePercent = 4;
        benchmark.lateCancelPercent = lateCancelPercent;
        benchmark.setup();
        return benchmark;
    }
}
