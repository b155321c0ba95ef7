package io.fixmatch.feed.codec;

import io.fixmatch.feed.sbe.Side;
import io.fixmatch.feed.sbe.TradingPhase;

/** One symbol's public state as the feed tells it: its levels, phase, halt, the call's indicative uncross, last trade. */
public final class SymbolBook {
    public final int symbolId;
    public final BookSide bids = new BookSide(true);
    public final BookSide asks = new BookSide(false);
    public TradingPhase phase = TradingPhase.CONTINUOUS;
    public boolean halted;
    public long indicativePrice;
    public long indicativeVolume;
    /** 0: no trade seen. */
    public long lastTradePrice;
    public long lastTradeQuantity;

    public SymbolBook(int symbolId) {
        this.symbolId = symbolId;
    }

    public BookSide side(Side side) {
        return side == Side.BUY ? bids : asks;
    }

    public void clear() {
        bids.clear();
        asks.clear();
        phase = TradingPhase.CONTINUOUS;
        halted = false;
        indicativePrice = 0;
        indicativeVolume = 0;
        lastTradePrice = 0;
        lastTradeQuantity = 0;
    }

    /** A copy of this book as it is now (a snapshot kept aside). */
    public SymbolBook copy() {
        SymbolBook copy = new SymbolBook(symbolId);
        for (int i = 0; i < bids.size(); i++) {
            copy.bids.set(bids.price(i), bids.quantity(i));
        }
        for (int i = 0; i < asks.size(); i++) {
            copy.asks.set(asks.price(i), asks.quantity(i));
        }
        copy.phase = phase;
        copy.halted = halted;
        copy.indicativePrice = indicativePrice;
        copy.indicativeVolume = indicativeVolume;
        copy.lastTradePrice = lastTradePrice;
        copy.lastTradeQuantity = lastTradeQuantity;
        return copy;
    }

    /**
     * Everything a snapshot carries, as text: the levels, the phase, the halt, the indicative uncross, the last trade
     * price (not its quantity: a snapshot does not carry it).
     */
    public String state() {
        return levels() + " " + phase + (halted ? " halted" : "") + " indicative " + indicativePrice + " x "
            + indicativeVolume + " last " + lastTradePrice;
    }

    /** The levels as text: "bids [..] asks [..]" (what the tests compare). */
    public String levels() {
        return "bids [" + bids + "] asks [" + asks + "]";
    }
}
