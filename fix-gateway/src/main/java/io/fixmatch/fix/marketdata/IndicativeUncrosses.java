package io.fixmatch.fix.marketdata;

/**
 * Indicative uncross prices and volumes by index: the book's per symbol ({@link LevelBooks}), or what a subscriber
 * holds per symbol slot ({@link Subscription}). 0 and 0: none (no call, or no crossing interest).
 */
final class IndicativeUncrosses {
    private final long[] values;

    IndicativeUncrosses(int count) {
        values = new long[count * 2];
    }

    long price(int index) {
        return values[index * 2];
    }

    long volume(int index) {
        return values[index * 2 + 1];
    }

    void set(int index, long price, long volume) {
        values[index * 2] = price;
        values[index * 2 + 1] = volume;
    }
}
