package io.fixmatch.fix.marketdata;

import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.codec.MarketDataCodec;
import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * Every symbol's book of price levels, kept by one gateway thread from the engine's market data records, and what
 * the command being applied changed: which symbols, from which position on each side (levels behind a subscriber's
 * depth do not concern it), and its trades. Every gateway keeps its own copy (one writer per state).
 */
final class LevelBooks {
    private final LevelBookSide[] sides;
    /** Per symbol and side: the best position the current command changed, MAX_VALUE if none. */
    private final int[] firstChanged;
    private final boolean[] touched;
    private final int[] touchedSymbols;
    private int touchedCount;
    private int[] tradeSymbols = new int[64];
    private long[] tradePrices = new long[64];
    private long[] tradeQuantities = new long[64];
    private int tradeCount;
    /** Per symbol: the indicative uncross of its call. */
    final IndicativeUncrosses indicative;

    LevelBooks(int symbols) {
        sides = new LevelBookSide[symbols * 2];
        for (int i = 0; i < symbols; i++) {
            sides[i * 2] = new LevelBookSide(true);
            sides[i * 2 + 1] = new LevelBookSide(false);
        }
        firstChanged = new int[symbols * 2];
        Arrays.fill(firstChanged, Integer.MAX_VALUE);
        touched = new boolean[symbols];
        touchedSymbols = new int[symbols];
        indicative = new IndicativeUncrosses(symbols);
    }

    int symbolCount() {
        return touched.length;
    }

    LevelBookSide side(int symbolId, Side side) {
        return sides[symbolId * 2 + side.ordinal()];
    }

    /** Before start: a resting order of the recovered books (adds to its level). */
    void seed(int symbolId, Side side, long price, long quantity) {
        LevelBookSide book = side(symbolId, side);
        book.set(price, book.quantityAt(price) + quantity);
    }

    /** Applies one record's entries; returns whether the command's changes continue in the next record. */
    boolean apply(DirectBuffer buffer, int offset, int length) {
        int entries = MarketDataCodec.entries(length);
        for (int n = 0; n < entries; n++) {
            int symbolId = MarketDataCodec.symbolId(buffer, offset, n);
            if (symbolId < 0 || symbolId >= touched.length) {
                continue; // the engine and the gateway share one symbol table: cannot happen
            }
            long price = MarketDataCodec.price(buffer, offset, n);
            long quantity = MarketDataCodec.quantity(buffer, offset, n);
            byte kind = MarketDataCodec.kind(buffer, offset, n);
            if (kind == MarketDataCodec.PHASE || kind == MarketDataCodec.HALT) {
                continue; // the binary feed's (docs/FEED.md); FIX market data tells neither
            }
            if (kind == MarketDataCodec.TRADE) {
                addTrade(symbolId, price, quantity);
            } else if (kind == MarketDataCodec.INDICATIVE) {
                indicative.set(symbolId, price, quantity);
            } else {
                Side side = MarketDataCodec.side(buffer, offset, n);
                int position = side(symbolId, side).set(price, quantity);
                int slot = symbolId * 2 + side.ordinal();
                if (position >= 0 && position < firstChanged[slot]) {
                    firstChanged[slot] = position;
                }
            }
            touch(symbolId);
        }
        return MarketDataCodec.continued(buffer, offset);
    }

    /** The symbols the current command touched, in the order first touched. */
    int touchedCount() {
        return touchedCount;
    }

    int touchedSymbol(int i) {
        return touchedSymbols[i];
    }

    /** The best position of the side the current command changed ({@code Integer.MAX_VALUE}: none). */
    int firstChanged(int symbolId, Side side) {
        return firstChanged[symbolId * 2 + side.ordinal()];
    }

    int tradeCount() {
        return tradeCount;
    }

    int tradeSymbol(int i) {
        return tradeSymbols[i];
    }

    long tradePrice(int i) {
        return tradePrices[i];
    }

    long tradeQuantity(int i) {
        return tradeQuantities[i];
    }

    /** The command is published: forget what it changed. */
    void commandPublished() {
        for (int i = 0; i < touchedCount; i++) {
            int symbolId = touchedSymbols[i];
            touched[symbolId] = false;
            firstChanged[symbolId * 2] = Integer.MAX_VALUE;
            firstChanged[symbolId * 2 + 1] = Integer.MAX_VALUE;
        }
        touchedCount = 0;
        tradeCount = 0;
    }

    private void touch(int symbolId) {
        if (!touched[symbolId]) {
            touched[symbolId] = true;
            touchedSymbols[touchedCount++] = symbolId;
        }
    }

    private void addTrade(int symbolId, long price, long quantity) {
        if (tradeCount == tradeSymbols.length) {
            tradeSymbols = Arrays.copyOf(tradeSymbols, tradeCount * 2);
            tradePrices = Arrays.copyOf(tradePrices, tradeCount * 2);
            tradeQuantities = Arrays.copyOf(tradeQuantities, tradeCount * 2);
        }
        tradeSymbols[tradeCount] = symbolId;
        tradePrices[tradeCount] = price;
        tradeQuantities[tradeCount] = quantity;
        tradeCount++;
    }
}
