package io.fixmatch.fix.marketdata;

import java.util.Arrays;

/**
 * One side of one symbol's book as market data sees it: the price levels and their total quantities, best first,
 * in two sorted arrays. Bids are kept as negated prices, so both sides sort ascending from the best. A change is a
 * binary search and, for a new or vanished level, a shift of the levels behind it (cheap for the few hundred levels
 * of a real book). The arrays grow when a side holds more levels than ever before, and never shrink: nothing is
 * allocated in steady state. One gateway thread owns it.
 */
final class LevelBookSide {
    private static final int INITIAL_LEVELS = 64;

    private final boolean bids;
    private long[] keys = new long[INITIAL_LEVELS];
    private long[] quantities = new long[INITIAL_LEVELS];
    private int count;

    LevelBookSide(boolean bids) {
        this.bids = bids;
    }

    /**
     * The level at {@code price} now holds {@code quantity} (0: it is gone). Returns the level's position (0: best)
     * before the change for a level that went, after it otherwise; -1 if nothing changed.
     */
    int set(long price, long quantity) {
        long key = bids ? -price : price;
        int at = Arrays.binarySearch(keys, 0, count, key);
        if (at >= 0) {
            if (quantity == 0) {
                System.arraycopy(keys, at + 1, keys, at, count - at - 1);
                System.arraycopy(quantities, at + 1, quantities, at, count - at - 1);
                count--;
            } else {
                quantities[at] = quantity;
            }
            return at;
        }
        if (quantity == 0) {
            return -1; // a level we never had: nothing to take away
        }
        int insert = -at - 1;
        if (count == keys.length) {
            keys = Arrays.copyOf(keys, count * 2);
            quantities = Arrays.copyOf(quantities, count * 2);
        }
        System.arraycopy(keys, insert, keys, insert + 1, count - insert);
        System.arraycopy(quantities, insert, quantities, insert + 1, count - insert);
        keys[insert] = key;
        quantities[insert] = quantity;
        count++;
        return insert;
    }

    /** The total quantity at {@code price}, 0 if there is no level. */
    long quantityAt(long price) {
        int at = Arrays.binarySearch(keys, 0, count, bids ? -price : price);
        return at >= 0 ? quantities[at] : 0;
    }

    int count() {
        return count;
    }

    /** The price of the level at position {@code index} (0: best). */
    long price(int index) {
        return bids ? -keys[index] : keys[index];
    }

    long quantity(int index) {
        return quantities[index];
    }

    /** Whether price {@code a} comes before {@code b} on this side (a higher bid, a lower offer). */
    boolean isBetter(long a, long b) {
        return bids ? a > b : a < b;
    }
}
