package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.Side;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * A passive order (one that rests without trading) against books of 10, 10,000 and 1,000,000 resting orders
 * (see {@link BookBuilder}: best bid 2 ticks below the center, best ask 2 above, the three best levels of each
 * side one order each).
 *
 * <p><b>What one operation is.</b> The book must not grow, so each op adds the order and cancels it again:
 * <em>one op = one NEW_ORDER (rests) + one CANCEL</em>, events ACCEPTED and CANCELED. The ops rotate over 1,024
 * different orders (client order ids, owners' hash slots, sides and prices), so the order index is not always
 * hit at the same slot.
 * <ul>
 *   <li>{@code joinLevel}: the order joins the back of one of the three best levels of its side (bids and asks
 *       alternate): the common case, an existing level.</li>
 *   <li>{@code newLevel}: the order improves its side by one tick, inside the spread, so it opens a new price
 *       level (taken from the pool, linked in as the new best, indexed) that its cancel removes again.</li>
 * </ul>
 */
public class PassiveAddBenchmark extends EngineBenchmark {
    /** Ticks from the center of the best level of each side. */
    static final long BEST_OFFSET = 2;
    /** Distinct orders the ops rotate over (a power of two). */
    static final int ROTATION = 1024;

    /** Orders resting in the book. */
    @Param({"10", "10000", "1000000"})
    public int bookSize;

    private Command[] joinAdds;
    private Command[] joinCancels;
    private Command[] newLevelAdds;
    private Command[] newLevelCancels;
    private int next;

    @Setup(Level.Trial)
    public void setup() {
        startEngine(bookSize, BEST_OFFSET);
        guard.capture(engine);
        joinAdds = new Command[ROTATION];
        joinCancels = new Command[ROTATION];
        newLevelAdds = new Command[ROTATION];
        newLevelCancels = new Command[ROTATION];
        for (int i = 0; i < ROTATION; i++) {
            Side side = i % 2 == 0 ? Side.BUY : Side.SELL;
            long joinPrice = Fixture.passivePrice(side, BEST_OFFSET + (i / 2) % BookBuilder.TOUCH_LEVELS);
            long quantity = 100L * (1 + i % 7);
            String id = "p" + i;
            joinAdds[i] = Fixture.limit(Fixture.TAKER, id, side, joinPrice, quantity);
            joinCancels[i] = Fixture.cancel(Fixture.TAKER, "pc" + i, id, side);
            newLevelAdds[i] = Fixture.limit(Fixture.TAKER, id, side, Fixture.passivePrice(side, BEST_OFFSET - 1),
                quantity);
            newLevelCancels[i] = joinCancels[i];
        }
        sink.reset();
        Fixture.settle();
    }

    @Benchmark
    public long joinLevel() {
        int i = next;
        engine.process(joinAdds[i]);
        engine.process(joinCancels[i]);
        next = (i + 1) & (ROTATION - 1);
        return sink.checksum();
    }

    @Benchmark
    public long newLevel() {
        int i = next;
        engine.process(newLevelAdds[i]);
        engine.process(newLevelCancels[i]);
        next = (i + 1) & (ROTATION - 1);
        return sink.checksum();
    }

    @Override
    void verify(String benchmark) {
        long accepted = sink.count(EventType.ACCEPTED);
        if (accepted == 0 || sink.count(EventType.CANCELED) != accepted || sink.events() != 2 * accepted) {
            throw new IllegalStateException(benchmark + " book " + bookSize + ": unexpected events " + sink.describe());
        }
        guard.verify(engine, benchmark + " book " + bookSize);
    }
}
