package io.fixmatch.fix.marketdata;

import io.fixmatch.engine.api.Side;
import io.fixmatch.fix.session.FixSession;

import java.util.Arrays;

/**
 * One live MarketDataRequest of one session (its MDReqID): the symbols, the depth, the entry types asked for, and
 * per symbol and side the levels it was last sent (what the client's book holds), from which each update is the
 * difference. While its connection is behind, the symbols that changed are marked stale instead of sent.
 */
final class Subscription {
    final FixSession session;
    private final byte[] mdReqId;
    final int[] symbols;
    final int depth;
    final boolean bids;
    final boolean offers;
    final boolean trades;
    /** Whether it wants the indicative uncross during calls (269=Q), and per symbol slot what the client holds. */
    final boolean indicative;
    final IndicativeUncrosses sentIndicative;
    /** Per symbol slot k and side s, at [k * 2 + s]: the levels the client holds, best first. */
    private final long[][] sentPrices;
    private final long[][] sentQuantities;
    private final int[] sentCounts;
    private final boolean[] stale;
    private boolean behind;

    Subscription(FixSession session, byte[] mdReqId, int[] symbols, int depth, boolean bids, boolean offers,
                 boolean trades, boolean indicative) {
        this.session = session;
        this.mdReqId = mdReqId;
        this.symbols = symbols;
        this.depth = depth;
        this.bids = bids;
        this.offers = offers;
        this.trades = trades;
        this.indicative = indicative;
        sentIndicative = new IndicativeUncrosses(symbols.length);
        sentPrices = new long[symbols.length * 2][depth];
        sentQuantities = new long[symbols.length * 2][depth];
        sentCounts = new int[symbols.length * 2];
        stale = new boolean[symbols.length];
    }

    byte[] mdReqId() {
        return mdReqId;
    }

    boolean hasId(byte[] buffer, int offset, int length) {
        return Arrays.equals(mdReqId, 0, mdReqId.length, buffer, offset, offset + length);
    }

    boolean wants(Side side) {
        return side == Side.BUY ? bids : offers;
    }

    int sentCount(int slot, Side side) {
        return sentCounts[slot * 2 + side.ordinal()];
    }

    long sentPrice(int slot, Side side, int index) {
        return sentPrices[slot * 2 + side.ordinal()][index];
    }

    long sentQuantity(int slot, Side side, int index) {
        return sentQuantities[slot * 2 + side.ordinal()][index];
    }

    /** The client now holds exactly the first {@code count} levels of {@code book}. */
    void sent(int slot, Side side, LevelBookSide book, int count) {
        int at = slot * 2 + side.ordinal();
        for (int i = 0; i < count; i++) {
            sentPrices[at][i] = book.price(i);
            sentQuantities[at][i] = book.quantity(i);
        }
        sentCounts[at] = count;
    }

    boolean isBehind() {
        return behind;
    }

    void behind(boolean value) {
        behind = value;
    }

    boolean isStale(int slot) {
        return stale[slot];
    }

    void stale(int slot, boolean value) {
        stale[slot] = value;
    }
}
