package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.config.SymbolSpec;

/** The book of one symbol: its rules and its two sides. */
final class OrderBook {
    final int symbolId;
    final SymbolSpec spec;
    final BookSide bids;
    final BookSide asks;
    /** Halted by the operator: new orders and replaces are refused, cancels accepted. */
    boolean halted;
    /** Its stop and stop-limit orders waiting for their stop price. */
    final WaitingStops stops = new WaitingStops();
    /** Its trading day: phase, schedule, volatility band. */
    final TradingSession session;
    /** During a call: its market orders, which come before every limit order of their side in the auction. */
    final OrderQueue marketBuys = new OrderQueue();
    final OrderQueue marketSells = new OrderQueue();
    /** At the Close orders waiting for the closing call. */
    final OrderQueue atClose = new OrderQueue();

    OrderBook(int symbolId, SymbolSpec spec) {
        this.symbolId = symbolId;
        this.spec = spec;
        this.bids = new BookSide(Side.BUY, symbolId * 2);
        this.asks = new BookSide(Side.SELL, symbolId * 2 + 1);
        this.session = new TradingSession(symbolId);
    }

    OrderQueue marketOrders(Side side) {
        return side == Side.BUY ? marketBuys : marketSells;
    }

    BookSide side(Side side) {
        return side == Side.BUY ? bids : asks;
    }
}
