package io.fixmatch.engine.loop;

import com.sun.management.ThreadMXBean;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The matching step with what the admin endpoint added to it (counters on every event, halts, resumes and book
 * queries answered through the published view) allocates nothing in steady state: offer, match, publish, drain, all
 * on this thread (the one-thread layout), measured with the JVM's per-thread allocation counter.
 */
class MatchingStepAllocationTest {
    private static final EngineConfig ENGINE = new EngineConfig(List.of(SymbolSpec.of("X", 2, 1, 1),
        SymbolSpec.of("Y", 2, 1, 1)), 10_000, 1_000);
    private static final String[] IDS = new String[64];

    static {
        for (int i = 0; i < IDS.length; i++) {
            IDS[i] = "o" + i;
        }
    }

    private final Command command = new Command();
    private final long[] events = new long[1];
    private final EventSink sink = event -> events[0]++;

    @ParameterizedTest(name = "market data {0}")
    @ValueSource(booleans = {false, true})
    void steadyStateAllocatesNothing(boolean marketData) {
        MatchingRuntime runtime = new MatchingRuntime(ENGINE, LoopConfig.defaults(), EnginePersistence.NONE);
        runtime.publishMarketData(marketData);
        runtime.recover();
        runtime.startInline();
        run(runtime, 50_000); // warm up: the JIT's own allocations happen here
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        run(runtime, 200_000);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 10_000, allocated + " bytes allocated by 200,000 steps");
        assertTrue(runtime.counters().trades(0) > 1_000, "the flow trades");
        assertEquals(0, runtime.inbound().size());
        runtime.close();
    }

    /** Orders that rest and trade, cancels, and now and then a halt, a resume and a book query. */
    private void run(MatchingRuntime runtime, int steps) {
        for (int i = 0; i < steps; i++) {
            int slot = i % IDS.length;
            switch (i % 100) {
                case 17 -> command.haltSymbol(1);
                case 53 -> command.resumeSymbol(1);
                case 71 -> command.bookQuery(0, i);
                default -> {
                    if (i % 3 == 2) {
                        command.cancel(1, "c", IDS[slot], i % 2, Side.BUY);
                    } else {
                        Side side = (i & 4) == 0 ? Side.BUY : Side.SELL;
                        command.newOrder(1, IDS[slot], i % 2, side, OrderType.LIMIT, TimeInForce.DAY,
                            1_000 + (i % 7), 10);
                    }
                }
            }
            runtime.inbound().offer(command);
            runtime.doWork();
            runtime.outbound().poll(sink, 1_000);
        }
    }
}
