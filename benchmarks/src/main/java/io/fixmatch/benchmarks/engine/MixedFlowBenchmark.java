package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * A volatile-market order flow replayed against books of 10, 10,000 and 1,000,000 resting orders: mostly passive
 * orders placed around a moving mid and canceled again soon after, some re-quoting replaces, a few aggressive IOC
 * orders that take liquidity near the touch, and a few cancels that arrive too late. See {@link FlowGenerator}
 * for the exact mix; the setup prints it: with the defaults about 48% passive adds, 45% cancels (2% of all commands
 * late, so rejected), 4% replaces and 3% aggressive orders. With {@code -p lateCancelPercent=40} the cancels are
 * about 64% of the flow (39% late) and the adds 29%.
 *
 * <p><b>What one operation is.</b> One command of the flow, whatever its kind: the score is commands per second.
 * The flow (one cycle of {@link #STEPS} commands plus the cancels that close it, about 66,000 pre-built
 * {@link Command}s) is generated in the setup through the same engine, and replayed in a loop: the cycle ends
 * with the book exactly as it started (checked in the setup and the teardown), so every pass sees the same states
 * and produces the same events. The resting book lies 100 ticks or more from the flow's prices: it is never
 * traded, only carried (memory, index, price levels).
 */
public class MixedFlowBenchmark extends EngineBenchmark {
    /** Commands in one cycle of the flow, before the cancels that close it. */
    static final int STEPS = 1 << 16;
    static final long SEED = 20_240_517L;

    /** Orders resting in the book the flow runs against. */
    @Param({"10", "10000", "1000000"})
    public int bookSize;

    /** Percent of the flow's commands that are aggressive IOC orders. */
    @Param({"3"})
    public int aggressivePercent;

    /** Percent of the flow's commands that are cancel/replaces. */
    @Param({"4"})
    public int replacePercent;

    /** Percent of the flow's commands that are cancels arriving after their order has gone (rejected). */
    @Param({"2"})
    public int lateCancelPercent;

    /**
     * {@code none}: no session has pre-trade risk limits. {@code limits}: every trader of the flow has all of them
     * (order quantity, notional, open orders, a 50% price collar around the last trade) set too wide to refuse
     * anything, so the flow and its events are the same and the difference is the checks' cost.
     */
    @Param({"none", "limits"})
    public String risk;

    private Command[] flow;
    private int cursor;
    /** Events of one full pass of the flow, by type. */
    private final long[] eventsPerCycle = new long[EventType.count()];

    @Setup(Level.Trial)
    public void setup() {
        startEngine(bookSize, FlowGenerator.BACKGROUND_OFFSET);
        if (risk.equals("limits")) {
            Fixture.setWideRiskLimits(engine, FlowGenerator.FIRST_OWNER, FlowGenerator.OWNERS);
        }
        guard.capture(engine);
        sink.reset();
        FlowGenerator generator = new FlowGenerator(SEED, aggressivePercent, replacePercent, lateCancelPercent);
        flow = generator.generate(engine, sink, STEPS);
        guard.verify(engine, "after generating the flow");
        for (EventType type : EventType.values()) {
            eventsPerCycle[type.ordinal()] = sink.count(type);
        }
        String generated = sink.describe();
        // One pass exactly as the benchmark replays it: the same events, and the book back as it was.
        sink.reset();
        for (Command command : flow) {
            engine.process(command);
        }
        guard.verify(engine, "after replaying the flow");
        for (EventType type : EventType.values()) {
            if (sink.count(type) != eventsPerCycle[type.ordinal()]) {
                throw new IllegalStateException("replay differs from generation: " + sink.describe() + " vs "
                    + generated);
            }
        }
        System.out.println("flow: " + generator.describe());
        System.out.printf("flow events per pass: %s (%.2f per command); book: %s%n", generated,
            (double) sink.events() / flow.length, guard);
        sink.reset();
        Fixture.settle();
        cursor = 0;
    }

    @Benchmark
    public long command() {
        int i = cursor;
        engine.process(flow[i]);
        cursor = i + 1 == flow.length ? 0 : i + 1;
        return sink.checksum();
    }

    /** Runs the pass under way to its end, then checks that the book is back as it was. */
    @Override
    void verify(String benchmark) {
        while (cursor != 0) {
            command();
        }
        long passes = sink.count(EventType.ACCEPTED) / eventsPerCycle[EventType.ACCEPTED.ordinal()];
        for (EventType type : EventType.values()) {
            if (sink.count(type) != passes * eventsPerCycle[type.ordinal()]) {
                throw new IllegalStateException("book " + bookSize + ": " + passes + " passes gave " + sink.describe());
            }
        }
        guard.verify(engine, "book " + bookSize + " after " + passes + " passes");
    }

    int flowLength() {
        return flow.length;
    }
}
