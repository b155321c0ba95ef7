package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * An aggressive order that sweeps the three best levels of the opposite side, against books of 10, 10,000 and
 * 1,000,000 resting orders (see {@link BookBuilder}: the three best levels of each side hold one order of 100
 * each in every book, so the sweep does the same work whatever the book size).
 *
 * <p><b>What one operation is.</b> {@code sweep3Levels}: one IOC limit order of 300 priced at the third level
 * trades with the three resting orders (three trades, six FILL events, three price levels emptied and removed),
 * then the three orders it took are added back, deepest first, with their client order ids, prices and
 * quantities (three NEW_ORDERs, three new price levels), so the next op meets the same book:
 * <em>one op = 4 commands, 10 events</em>. Buy sweeps and sell sweeps alternate.
 */
public class AggressiveSweepBenchmark extends EngineBenchmark {
    static final long BEST_OFFSET = 2;
    static final int LEVELS_SWEPT = BookBuilder.TOUCH_LEVELS;

    /** Orders resting in the book. */
    @Param({"10", "10000", "1000000"})
    public int bookSize;

    private Command buySweep;
    private Command sellSweep;
    /** The asks a buy sweep takes, deepest first; the bids a sell sweep takes, deepest first. */
    private Command[] restoreAsks;
    private Command[] restoreBids;
    private boolean sellNext;

    @Setup(Level.Trial)
    public void setup() {
        if (bookSize < 2 * LEVELS_SWEPT) {
            throw new IllegalArgumentException("a book of " + bookSize + " has fewer than " + LEVELS_SWEPT
                + " levels a side");
        }
        startEngine(bookSize, BEST_OFFSET);
        guard.capture(engine);
        long sweepQuantity = LEVELS_SWEPT * BookBuilder.ORDER_QUANTITY;
        long lastOffset = BookBuilder.offsetOf(LEVELS_SWEPT - 1, BEST_OFFSET);
        buySweep = Fixture.limit(Fixture.TAKER, "t-buy", Side.BUY, TimeInForce.IOC,
            Fixture.passivePrice(Side.SELL, lastOffset), sweepQuantity);
        sellSweep = Fixture.limit(Fixture.TAKER, "t-sell", Side.SELL, TimeInForce.IOC,
            Fixture.passivePrice(Side.BUY, lastOffset), sweepQuantity);
        restoreAsks = restores(Side.SELL);
        restoreBids = restores(Side.BUY);
        sink.reset();
        Fixture.settle();
    }

    private static Command[] restores(Side side) {
        Command[] commands = new Command[LEVELS_SWEPT];
        for (int i = 0; i < LEVELS_SWEPT; i++) {
            int index = LEVELS_SWEPT - 1 - i;
            commands[i] = Fixture.limit(Fixture.MAKER, BookBuilder.id(side, index), side,
                Fixture.passivePrice(side, BookBuilder.offsetOf(index, BEST_OFFSET)), BookBuilder.ORDER_QUANTITY);
        }
        return commands;
    }

    @Benchmark
    public long sweep3Levels() {
        Command[] restore;
        if (sellNext) {
            engine.process(sellSweep);
            restore = restoreBids;
        } else {
            engine.process(buySweep);
            restore = restoreAsks;
        }
        for (Command command : restore) {
            engine.process(command);
        }
        sellNext = !sellNext;
        return sink.checksum();
    }

    @Override
    void verify(String benchmark) {
        long sweeps = sink.count(EventType.ACCEPTED) / (1 + LEVELS_SWEPT);
        boolean ok = sweeps > 0
            && sink.count(EventType.ACCEPTED) == sweeps * (1 + LEVELS_SWEPT)
            && sink.count(EventType.FILL) == sweeps * 2 * LEVELS_SWEPT
            && sink.events() == sweeps * (1 + 3 * LEVELS_SWEPT);
        if (!ok) {
            throw new IllegalStateException(benchmark + " book " + bookSize + ": unexpected events " + sink.describe());
        }
        guard.verify(engine, benchmark + " book " + bookSize);
    }
}
