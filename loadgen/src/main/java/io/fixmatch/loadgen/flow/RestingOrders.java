package io.fixmatch.loadgen.flow;

import java.util.SplittableRandom;

/**
 * The flow's own resting orders in one symbol: a dense array of slots (removal swaps the last slot in), enough to
 * pick one at random, find our best price on a side, and take out a whole level. Small (hundreds), so scans are
 * cheap; no allocation.
 */
final class RestingOrders {
    static final long NONE = Long.MIN_VALUE;

    private final long[] ids;
    private final boolean[] buys;
    private final long[] prices;
    private final long[] quantities;
    private final long[] removedQuantities;
    private int size;

    RestingOrders(int capacity) {
        ids = new long[capacity];
        buys = new boolean[capacity];
        prices = new long[capacity];
        quantities = new long[capacity];
        removedQuantities = new long[capacity];
    }

    int size() {
        return size;
    }

    void add(long id, boolean buy, long price, long quantity) {
        ids[size] = id;
        buys[size] = buy;
        prices[size] = price;
        quantities[size] = quantity;
        size++;
    }

    int randomSlot(SplittableRandom random) {
        return random.nextInt(size);
    }

    long id(int slot) { return ids[slot]; }
    boolean isBuy(int slot) { return buys[slot]; }
    long price(int slot) { return prices[slot]; }
    long quantity(int slot) { return quantities[slot]; }

    void remove(int slot) {
        size--;
        ids[slot] = ids[size];
        buys[slot] = buys[size];
        prices[slot] = prices[size];
        quantities[slot] = quantities[size];
    }

    /** Highest bid (buy=true) or lowest ask (buy=false) among our orders, or {@link #NONE}. */
    long bestPrice(boolean buy) {
        long best = NONE;
        for (int i = 0; i < size; i++) {
            if (buys[i] == buy && (best == NONE || (buy ? prices[i] > best : prices[i] < best))) {
                best = prices[i];
            }
        }
        return best;
    }

    /** Removes every order of the side at the price; writes their ids to {@code removedIds}; returns how many. */
    int removeLevel(boolean buy, long price, long[] removedIds) {
        int removed = 0;
        for (int i = 0; i < size; ) {
            if (buys[i] == buy && prices[i] == price) {
                removedIds[removed] = ids[i];
                removedQuantities[removed] = quantities[i];
                removed++;
                remove(i);
            } else {
                i++;
            }
        }
        return removed;
    }

    /** The quantity of the {@code index}-th order taken out by the last {@link #removeLevel}. */
    long lastRemovedQuantity(int index) {
        return removedQuantities[index];
    }
}
