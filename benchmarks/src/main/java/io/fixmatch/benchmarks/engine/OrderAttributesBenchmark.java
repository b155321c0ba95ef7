package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The cost of stop orders and icebergs on the matching path, each against the same work without them, in a book of
 * 10,000 resting orders ({@link BookBuilder}: best bid and ask 2 ticks from the center, so the center C and C +/- 1
 * are free), optionally with {@code waitingStops} stop orders waiting far from the price (they never trigger: what
 * carrying them costs every trade's trigger check).
 *
 * <p><b>What one operation is.</b> Every op leaves the book as it found it:
 * <ul>
 *   <li>{@code plainTrade}: a sell of 1 rests at C, an IOC buy of 1 takes it: 2 commands, 4 events.</li>
 *   <li>{@code icebergRefill}: an iceberg sell of 2 (floor 1) rests at C, an IOC buy of 2 takes its displayed 1, it
 *       refills at the back of its level, the buy takes the other 1: 2 commands, 6 events.</li>
 *   <li>{@code stopTrigger}: a sell of 1 rests at C + 1; a buy STOP of 1 (stop C) waits; a sell of 1 at C and an IOC
 *       buy of 1 trade at C, which triggers the stop, which takes the sell at C + 1; then a buy of 1 at C - 1 and an
 *       IOC sell of 1 trade at C - 1 (the last price back below the stop): 6 commands, 13 events.</li>
 *   <li>{@code stoplessEquivalent}: the same 6 commands with an IOC buy of 1 at C + 1 after the trade at C in the
 *       stop's place: 6 commands, 12 events. Its difference with {@code stopTrigger} is the stop's cost.</li>
 * </ul>
 */
public class OrderAttributesBenchmark extends EngineBenchmark {
    static final int BOOK_SIZE = 10_000;
    static final long BEST_OFFSET = 2;
    private static final int RESTING_OWNER = 3;
    private static final long C = Fixture.CENTER;

    /** Stop orders waiting far from the price (half buy stops far above, half sell stops far below). */
    @Param({"0", "10000"})
    public int waitingStops;

    private Command restAtCenter;
    private Command takeOne;
    private Command iceberg;
    private Command takeTwo;
    private Command restAbove;
    private Command stop;
    private Command takeAbove;
    private Command restBelow;
    private Command hitBelow;

    @Setup(Level.Trial)
    public void setup() {
        startEngine(BOOK_SIZE, BEST_OFFSET);
        Command far = new Command();
        for (int i = 0; i < waitingStops; i++) {
            Side side = i % 2 == 0 ? Side.BUY : Side.SELL;
            long stopPrice = side == Side.BUY ? C + 200_000 + i : C - 200_000 - i;
            engine.process(far.newOrder(Fixture.MAKER, "w" + i, Fixture.SYMBOL, side, OrderType.STOP,
                TimeInForce.GTC, 0, 1).stopPrice(stopPrice).timestampNanos(Fixture.TIMESTAMP));
        }
        guard.capture(engine);
        restAtCenter = Fixture.limit(RESTING_OWNER, "r0", Side.SELL, C, 1);
        takeOne = Fixture.limit(Fixture.TAKER, "t1", Side.BUY, TimeInForce.IOC, C, 1);
        iceberg = Fixture.limit(RESTING_OWNER, "ice", Side.SELL, TimeInForce.GTC, C, 2).maxFloor(1);
        takeTwo = Fixture.limit(Fixture.TAKER, "t2", Side.BUY, TimeInForce.IOC, C, 2);
        restAbove = Fixture.limit(RESTING_OWNER, "r1", Side.SELL, C + 1, 1);
        stop = new Command().newOrder(Fixture.TAKER, "stop", Fixture.SYMBOL, Side.BUY, OrderType.STOP,
            TimeInForce.DAY, 0, 1).stopPrice(C).timestampNanos(Fixture.TIMESTAMP);
        takeAbove = Fixture.limit(Fixture.TAKER, "t3", Side.BUY, TimeInForce.IOC, C + 1, 1);
        restBelow = Fixture.limit(RESTING_OWNER, "r2", Side.BUY, C - 1, 1);
        hitBelow = Fixture.limit(Fixture.TAKER, "t4", Side.SELL, TimeInForce.IOC, C - 1, 1);
        sink.reset();
        Fixture.settle();
    }

    @Benchmark
    public long plainTrade() {
        engine.process(restAtCenter);
        engine.process(takeOne);
        return sink.checksum();
    }

    @Benchmark
    public long icebergRefill() {
        engine.process(iceberg);
        engine.process(takeTwo);
        return sink.checksum();
    }

    @Benchmark
    public long stopTrigger() {
        engine.process(restAbove);
        engine.process(stop);
        engine.process(restAtCenter);
        engine.process(takeOne); // trades at C: the stop triggers and takes the sell at C + 1
        engine.process(restBelow);
        engine.process(hitBelow);
        return sink.checksum();
    }

    @Benchmark
    public long stoplessEquivalent() {
        engine.process(restAbove);
        engine.process(restAtCenter);
        engine.process(takeOne);
        engine.process(takeAbove);
        engine.process(restBelow);
        engine.process(hitBelow);
        return sink.checksum();
    }

    @Override
    void verify(String benchmark) {
        if (sink.count(EventType.REJECTED) != 0 || sink.count(EventType.FILL) == 0
            || (benchmark.endsWith("stopTrigger") && sink.count(EventType.TRIGGERED) * 6
                != sink.count(EventType.ACCEPTED))) {
            throw new IllegalStateException(benchmark + ": unexpected events " + sink.describe());
        }
        guard.verify(engine, benchmark + " with " + waitingStops + " waiting stops");
        if (engine.liveOrderCount() != BOOK_SIZE + waitingStops) {
            throw new IllegalStateException(benchmark + ": " + engine.liveOrderCount() + " live orders");
        }
    }
}
