package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.Side;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Cancel cost against the depth of the price level, the scenarios of the classic order-book study: cancel the
 * first order of a level, the last one, one in the middle, and an order that does not exist, with 1, 10, 100 and
 * 1,000 orders resting at that one level (one bid level, nothing else in the book).
 *
 * <p><b>What one operation is.</b> A cancel changes the book, so every operation that cancels a resting order
 * also puts an order of the same shape back (same owner, client order id, price and quantity) at the back of the
 * level: <em>one op = one CANCEL + one NEW_ORDER</em>, two commands, events CANCELED and ACCEPTED. The level keeps
 * its depth, and every op meets the same book. The re-add costs the same at every depth (an append at the tail of
 * an existing level; at depth 1 the cancel empties the level and the re-add creates it again, so that case also
 * pays a price-level removal and insertion). A cost that grows with depth can only come from the cancel.
 * {@code cancelNonexistent} is a single CANCEL that is rejected (CANCEL_REJECTED, UNKNOWN_ORDER): nothing to restore.
 *
 * <ul>
 *   <li>{@code cancelFirst}: cancels the order at the head of the queue (oldest), re-adds it at the back; the next
 *       op cancels the new head, so the op cycles through all orders of the level.</li>
 *   <li>{@code cancelMiddle}: cancels the order at position depth/2, re-adds it at the back; cycles through the
 *       orders at positions depth/2 .. depth-1.</li>
 *   <li>{@code cancelLast}: cancels the order at the tail (newest) and re-adds it: the same two commands each op.</li>
 *   <li>{@code cancelNonexistent}: a cancel naming a client order id no live order has.</li>
 * </ul>
 * The flat result to expect: the engine's orders are nodes of a doubly linked list per level, found through a
 * hash index by (owner, client order id), so a cancel is O(1) wherever the order stands and however deep the level.
 */
public class CancelBenchmark extends EngineBenchmark {
    /** The bid level every order rests at. */
    static final long LEVEL_PRICE = Fixture.passivePrice(Side.BUY, 1);
    static final long QUANTITY = 100;

    /** Orders resting at the level. */
    @Param({"1", "10", "100", "1000"})
    public int depth;

    /** cancels[i] cancels order i; adds[i] puts order i back, at the back of the level. */
    private Command[] cancels;
    private Command[] adds;
    private Command cancelUnknown;
    /** The order at the head of the level (cancelFirst). */
    private int head;
    /** The order at position depth/2 (cancelMiddle), one of depth/2 .. depth-1. */
    private int middle;

    @Setup(Level.Trial)
    public void setup() {
        if (depth < 1) {
            throw new IllegalArgumentException("depth must be at least 1, was " + depth);
        }
        startEngine(0, 0); // (no book: the level is built below)
        cancels = new Command[depth];
        adds = new Command[depth];
        for (int i = 0; i < depth; i++) {
            adds[i] = Fixture.limit(Fixture.MAKER, "o" + i, Side.BUY, LEVEL_PRICE, QUANTITY);
            cancels[i] = Fixture.cancel(Fixture.MAKER, "c" + i, "o" + i, Side.BUY);
            engine.process(adds[i]);
        }
        cancelUnknown = Fixture.cancel(Fixture.MAKER, "c-none", "o-none", Side.BUY);
        head = 0;
        middle = depth / 2;
        guard.capture(engine);
        if (sink.count(EventType.ACCEPTED) != depth || guard.orders() != depth) {
            throw new IllegalStateException("level of " + depth + " built as " + guard + ": " + sink.describe());
        }
        sink.reset();
        Fixture.settle();
    }

    @Benchmark
    public long cancelFirst() {
        int i = head;
        engine.process(cancels[i]);
        engine.process(adds[i]);
        head = i + 1 == depth ? 0 : i + 1;
        return sink.checksum();
    }

    @Benchmark
    public long cancelMiddle() {
        int i = middle;
        engine.process(cancels[i]);
        engine.process(adds[i]);
        middle = i + 1 == depth ? depth / 2 : i + 1;
        return sink.checksum();
    }

    @Benchmark
    public long cancelLast() {
        int last = depth - 1;
        engine.process(cancels[last]);
        engine.process(adds[last]);
        return sink.checksum();
    }

    @Benchmark
    public long cancelNonexistent() {
        engine.process(cancelUnknown);
        return sink.checksum();
    }

    /** Checks that every op did what it claims and that the level is as it was. */
    @Override
    void verify(String benchmark) {
        // Finish the current cycle of the rotating scenarios, so the queue is back in its original order.
        while (head != 0) {
            cancelFirst();
        }
        while (middle != depth / 2) {
            cancelMiddle();
        }
        long canceled = sink.count(EventType.CANCELED);
        long accepted = sink.count(EventType.ACCEPTED);
        long rejected = sink.count(EventType.CANCEL_REJECTED);
        boolean ok = benchmark.endsWith("cancelNonexistent")
            ? canceled == 0 && accepted == 0 && rejected == sink.events()
            : canceled == accepted && canceled > 0 && canceled * 2 == sink.events();
        if (!ok) {
            throw new IllegalStateException(benchmark + " depth " + depth + ": unexpected events " + sink.describe());
        }
        guard.verify(engine, benchmark + " depth " + depth);
    }
}
