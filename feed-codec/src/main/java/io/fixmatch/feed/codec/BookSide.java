package io.fixmatch.feed.codec;

import java.util.Arrays;

/**
 * One side of a symbol's book of price levels, best first (bids highest first, asks lowest first): price and total
 * quantity per level, in sorted arrays. What the feed's publisher keeps to send snapshots and a handler keeps from the
 * stream; one thread each.
 */
public final class BookSide {
    /** What {@link #set} did to the level. */
    public static final int NEW = 0;
    public static final int CHANGE = 1;
    public static final int DELETE = 2;
    /** {@link #set} of quantity 0 at a price that had no level. */
    public static final int NOTHING = -1;

    private final boolean bids;
    private long[] prices = new long[16];
    private long[] quantities = new long[16];
    private int size;

    public BookSide(boolean bids) {
        this.bids = bids;
    }

    /** The level at {@code price} now holds {@code quantity} in all (0: gone). Returns NEW, CHANGE, DELETE, NOTHING. */
    public int set(long price, long quantity) {
        int at = find(price);
        if (at >= 0) {
            if (quantity == 0) {
                System.arraycopy(prices, at + 1, prices, at, size - at - 1);
                System.arraycopy(quantities, at + 1, quantities, at, size - at - 1);
                size--;
                return DELETE;
            }
            quantities[at] = quantity;
            return CHANGE;
        }
        if (quantity == 0) {
            return NOTHING;
        }
        int insert = -at - 1;
        if (size == prices.length) {
            prices = Arrays.copyOf(prices, size * 2);
            quantities = Arrays.copyOf(quantities, size * 2);
        }
        System.arraycopy(prices, insert, prices, insert + 1, size - insert);
        System.arraycopy(quantities, insert, quantities, insert + 1, size - insert);
        prices[insert] = price;
        quantities[insert] = quantity;
        size++;
        return NEW;
    }

    /** Adds {@code quantity} to the level at {@code price} (seeding from resting orders). */
    public void add(long price, long quantity) {
        int at = find(price);
        set(price, (at >= 0 ? quantities[at] : 0) + quantity);
    }

    public void clear() {
        size = 0;
    }

    public int size() {
        return size;
    }

    /** The price of the level at {@code position} (0: the best). */
    public long price(int position) {
        return prices[position];
    }

    public long quantity(int position) {
        return quantities[position];
    }

    /** The quantity at {@code price}, 0 if no level. */
    public long quantityAt(long price) {
        int at = find(price);
        return at >= 0 ? quantities[at] : 0;
    }

    /** Binary search in best-first order: the position, or -(insertion point) - 1. */
    private int find(long price) {
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long midPrice = prices[mid];
            if (midPrice == price) {
                return mid;
            }
            boolean before = bids ? midPrice > price : midPrice < price;
            if (before) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return -(low + 1);
    }

    /** The levels as text, best first: "price x quantity, ..." (tests and tools). */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < size; i++) {
            text.append(i == 0 ? "" : ", ").append(prices[i]).append(" x ").append(quantities[i]);
        }
        return text.toString();
    }
}
