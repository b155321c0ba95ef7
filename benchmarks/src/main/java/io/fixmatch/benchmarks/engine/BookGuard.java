package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.matching.MatchingEngine;

/**
 * Remembers the shape of both sides of a book and checks later that it is unchanged: every benchmark restores
 * the book it measures against, and proves it in its teardown.
 */
final class BookGuard {
    private final BookShape bids = new BookShape();
    private final BookShape asks = new BookShape();
    private final BookShape actual = new BookShape();

    void capture(MatchingEngine engine) {
        bids.copyFrom(actual.of(engine, Side.BUY));
        asks.copyFrom(actual.of(engine, Side.SELL));
    }

    /** Resting orders on both sides. */
    long orders() {
        return bids.orders + asks.orders;
    }

    void verify(MatchingEngine engine, String when) {
        if (!actual.of(engine, Side.BUY).sameAs(bids)) {
            throw new IllegalStateException(when + ": bids changed, were " + bids + ", are " + actual);
        }
        if (!actual.of(engine, Side.SELL).sameAs(asks)) {
            throw new IllegalStateException(when + ": asks changed, were " + asks + ", are " + actual);
        }
    }

    @Override
    public String toString() {
        return "bids " + bids + "; asks " + asks;
    }
}
