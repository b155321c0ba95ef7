package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TradingPhase;

/**
 * A reader's own copy of one answer to a book query ({@link EngineView#answer(long)}): the asked symbol's top
 * levels, best first, and every book's summary, all as of the same moment between two commands. Prices and
 * quantities are in the symbol's units.
 */
public final class BookQueryAnswer {
    private final long[] values;
    private final int symbols;

    BookQueryAnswer(long[] values, int symbols) {
        this.values = values;
        this.symbols = symbols;
    }

    public long requestId() {
        return values[EngineView.REQUEST];
    }

    /** The symbol asked about (its levels are below). */
    public int symbolId() {
        return (int) values[EngineView.SYMBOL];
    }

    /** Orders resting in all books. */
    public long liveOrders() {
        return values[EngineView.LIVE_ORDERS];
    }

    /** The asked symbol's trading phase. */
    public TradingPhase phase() {
        return TradingPhase.ofCode((int) values[EngineView.PHASE]);
    }

    /** The asked symbol, during a call: the price its auction would uncross at now (0: none). */
    public long indicativePrice() {
        return values[EngineView.INDICATIVE_PRICE];
    }

    /** The asked symbol, during a call: the volume its auction would execute now (0: none). */
    public long indicativeVolume() {
        return values[EngineView.INDICATIVE_VOLUME];
    }

    /** The asked symbol: its non-empty price levels on this side. */
    public int levelCount(Side side) {
        return (int) values[sideAt(side)];
    }

    /** The asked symbol: how many levels this answer shows on this side (at most {@link EngineView#MAX_LEVELS}). */
    public int shownLevels(Side side) {
        return (int) values[sideAt(side) + 1];
    }

    /** The asked symbol: the price of the {@code level}-th best level (0 is the best). */
    public long price(Side side, int level) {
        return values[levelAt(side, level)];
    }

    public long quantity(Side side, int level) {
        return values[levelAt(side, level) + 1];
    }

    public int orders(Side side, int level) {
        return (int) values[levelAt(side, level) + 2];
    }

    public int symbolCount() {
        return symbols;
    }

    /** Any symbol: its non-empty price levels on this side. */
    public int levelCountOf(int symbolId, Side side) {
        return (int) values[summaryAt(symbolId, side)];
    }

    /** Any symbol: its best price on this side (0 when the side is empty). */
    public long bestPriceOf(int symbolId, Side side) {
        return values[summaryAt(symbolId, side) + 1];
    }

    /** Any symbol: the quantity resting at its best price on this side. */
    public long bestQuantityOf(int symbolId, Side side) {
        return values[summaryAt(symbolId, side) + 2];
    }

    private static int sideAt(Side side) {
        return EngineView.SIDES + (side == Side.BUY ? 0 : EngineView.SIDE_LENGTH);
    }

    private int levelAt(Side side, int level) {
        if (level < 0 || level >= shownLevels(side)) {
            throw new IndexOutOfBoundsException("level " + level + " of " + shownLevels(side) + " shown");
        }
        return sideAt(side) + 2 + level * 3;
    }

    private int summaryAt(int symbolId, Side side) {
        if (symbolId < 0 || symbolId >= symbols) {
            throw new IndexOutOfBoundsException("symbol " + symbolId + " of " + symbols);
        }
        return EngineView.SUMMARY + (symbolId * 2 + (side == Side.BUY ? 0 : 1)) * EngineView.SUMMARY_LENGTH;
    }
}
