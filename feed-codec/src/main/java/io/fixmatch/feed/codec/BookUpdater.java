package io.fixmatch.feed.codec;

import io.fixmatch.feed.sbe.Side;
import io.fixmatch.feed.sbe.TradingPhase;
import io.fixmatch.feed.sbe.UpdateAction;

/**
 * Applies the incremental stream's messages to a set of books by symbol id (a message of a symbol the set lacks is
 * passed over): what a feed handler does with every message it applies in sequence, and what a tool or test does to
 * replay a recorded stream onto a snapshot's books. One thread.
 */
public final class BookUpdater implements FeedListener {
    private SymbolBook[] books;
    private int lastSymbol;

    public BookUpdater(SymbolBook[] books) {
        this.books = books;
    }

    /** The books messages go to from now on. */
    public void books(SymbolBook[] symbolBooks) {
        books = symbolBooks;
    }

    public SymbolBook[] books() {
        return books;
    }

    /** The symbol id of the last message applied. */
    public int lastSymbol() {
        return lastSymbol;
    }

    private SymbolBook book(int symbolId) {
        lastSymbol = symbolId;
        return symbolId >= 0 && symbolId < books.length ? books[symbolId] : null;
    }

    @Override
    public void onLevel(long sequence, int symbolId, Side side, UpdateAction action, long price, long quantity) {
        SymbolBook book = book(symbolId);
        if (book != null) {
            book.side(side).set(price, action == UpdateAction.DELETE ? 0 : quantity);
        }
    }

    @Override
    public void onTrade(long sequence, int symbolId, long price, long quantity) {
        SymbolBook book = book(symbolId);
        if (book != null) {
            book.lastTradePrice = price;
            book.lastTradeQuantity = quantity;
        }
    }

    @Override
    public void onIndicative(long sequence, int symbolId, long price, long volume) {
        SymbolBook book = book(symbolId);
        if (book != null) {
            book.indicativePrice = price;
            book.indicativeVolume = volume;
        }
    }

    @Override
    public void onPhase(long sequence, int symbolId, TradingPhase phase) {
        SymbolBook book = book(symbolId);
        if (book != null) {
            book.phase = phase;
        }
    }

    @Override
    public void onHalt(long sequence, int symbolId, boolean halted) {
        SymbolBook book = book(symbolId);
        if (book != null) {
            book.halted = halted;
        }
    }
}
