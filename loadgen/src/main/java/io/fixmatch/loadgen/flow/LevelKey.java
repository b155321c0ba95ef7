package io.fixmatch.loadgen.flow;

/**
 * One price level of one side of one symbol's book as a long: the symbol's index in the flow's symbols (16 bits), the
 * side (1 bit), the price in the flow's price units (47 bits). Allocation-free keys for maps and rings.
 */
public final class LevelKey {
    private static final int SIDE_SHIFT = 47;
    private static final int SYMBOL_SHIFT = 48;
    private static final long PRICE_MASK = (1L << SIDE_SHIFT) - 1;

    private LevelKey() {
    }

    public static long of(int symbol, boolean buy, long price) {
        return (long) symbol << SYMBOL_SHIFT | (buy ? 1L : 0L) << SIDE_SHIFT | (price & PRICE_MASK);
    }

    public static int symbol(long key) {
        return (int) (key >>> SYMBOL_SHIFT);
    }

    public static boolean isBuy(long key) {
        return (key >>> SIDE_SHIFT & 1) != 0;
    }

    public static long price(long key) {
        return key & PRICE_MASK;
    }
}
