package io.fixmatch.feed.codec;

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

    public BookSide side(io.fixmatch.feed.sbe.Side side) {
        return side == io.fixmatch.feed.sbe.Side.BUY ? bids : asks;
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

    /** The levels as text: "bids [..] asks [..]" (what the tests compare). */
    public String levels() {
        return "bids [" + bids + "] asks [" + asks + "]";
    }
}
