package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Side;

/**
 * One side of one book: its non-empty price levels as a doubly linked list from best to worst price.
 *
 * <p>Costs: the best level is at hand (O(1)); removing an emptied level is O(1); inserting a level at a new price
 * walks from whichever end of the list is nearer in price, so it costs the number of levels between the new price
 * and that end (small in real flow, where new prices appear near the touch or behind the last level).
 */
final class BookSide {
    final Side side;
    /** Unique per book and side: part of the price level index's key. */
    final int id;
    PriceLevel best;
    PriceLevel worst;
    int levelCount;

    BookSide(Side side, int id) {
        this.side = side;
        this.id = id;
    }

    /** The symbol of this side's book (see {@link OrderBook}: the id is symbol id * 2 + 0 for bids, 1 for asks). */
    int symbolId() {
        return id >> 1;
    }

    /** Whether price {@code a} is strictly better than {@code b} for this side (higher bid, lower ask). */
    boolean isBetter(long a, long b) {
        return side == Side.BUY ? a > b : a < b;
    }

    void insert(PriceLevel level) {
        long price = level.price;
        levelCount++;
        if (best == null) {
            best = level;
            worst = level;
            return;
        }
        if (Math.abs(price - best.price) <= Math.abs(worst.price - price)) {
            // Walk from the best level towards worse prices until the first level the new one beats.
            PriceLevel cursor = best;
            while (cursor != null && !isBetter(price, cursor.price)) {
                cursor = cursor.worse;
            }
            if (cursor == null) {
                linkAfter(worst, level);
            } else {
                linkBefore(cursor, level);
            }
        } else {
            // Walk from the worst level towards better prices until the first level that beats the new one.
            PriceLevel cursor = worst;
            while (cursor != null && !isBetter(cursor.price, price)) {
                cursor = cursor.better;
            }
            if (cursor == null) {
                linkBefore(best, level);
            } else {
                linkAfter(cursor, level);
            }
        }
    }

    void remove(PriceLevel level) {
        if (level.better == null) {
            best = level.worse;
        } else {
            level.better.worse = level.worse;
        }
        if (level.worse == null) {
            worst = level.better;
        } else {
            level.worse.better = level.better;
        }
        level.better = null;
        level.worse = null;
        levelCount--;
    }

    private void linkBefore(PriceLevel anchor, PriceLevel level) {
        level.worse = anchor;
        level.better = anchor.better;
        if (anchor.better == null) {
            best = level;
        } else {
            anchor.better.worse = level;
        }
        anchor.better = level;
    }

    private void linkAfter(PriceLevel anchor, PriceLevel level) {
        level.better = anchor;
        level.worse = anchor.worse;
        if (anchor.worse == null) {
            worst = level;
        } else {
            anchor.worse.better = level;
        }
        anchor.worse = level;
    }
}
