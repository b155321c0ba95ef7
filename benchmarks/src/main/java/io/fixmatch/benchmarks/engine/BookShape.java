package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.engine.matching.RestingOrderView;
import io.fixmatch.engine.matching.RestingOrderVisitor;

/**
 * A fingerprint of one side of a book: how many orders rest, how many distinct prices, the total quantity, and a
 * hash of (price, client order id, leaves) in queue order. Benchmarks take it after setup and check after the
 * run that every measured operation left the book exactly as it found it. Reusable; allocates nothing.
 */
final class BookShape implements RestingOrderVisitor {
    long orders;
    long levels;
    long quantity;
    long hash;
    private long lastPrice = -1;

    /** Fingerprints {@code side} of the benchmark symbol; returns a one-line description. */
    BookShape of(MatchingEngine engine, Side side) {
        orders = 0;
        levels = 0;
        quantity = 0;
        hash = 17;
        lastPrice = -1;
        engine.forEachRestingOrder(Fixture.SYMBOL, side, this);
        return this;
    }

    @Override
    public void visit(RestingOrderView order) {
        if (order.price() != lastPrice) {
            levels++;
            lastPrice = order.price();
        }
        orders++;
        quantity += order.leavesQuantity();
        hash = hash * 31 + order.price();
        hash = hash * 31 + order.clientOrderId().contentHash();
        hash = hash * 31 + order.leavesQuantity();
    }

    boolean sameAs(BookShape other) {
        return orders == other.orders && levels == other.levels && quantity == other.quantity && hash == other.hash;
    }

    void copyFrom(BookShape other) {
        orders = other.orders;
        levels = other.levels;
        quantity = other.quantity;
        hash = other.hash;
    }

    @Override
    public String toString() {
        return orders + " orders in " + levels + " levels, quantity " + quantity + ", hash " + Long.toHexString(hash);
    }
}
