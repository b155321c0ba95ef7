package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.TradingPhase;

/**
 * Each book's trading phase and what the engine keeps of all of them: how many books are in a call (after each
 * command their indicative uncross is looked at again, {@link CallAuction#refreshIndicatives}) and the earliest of
 * the books' own deadlines (a scheduled point, an interruption's end). Starts a volatility interruption; which phase
 * follows which is decided by {@link TradingSchedule} and {@link TradingHalts}.
 */
final class TradingPhases {
    private final OrderBook[] books;
    private final LiveOrders live;
    private final EngineView view;
    /** Books in a call phase now. */
    int callBooks;
    /** The earliest of the books' own deadlines; NONE if none. */
    long nextSessionDeadline = TradingSession.NONE;
    /** The journal time of the command being processed: an interruption started now ends its length later. */
    long nowNanos;

    TradingPhases(LiveOrders live, EngineView view) {
        this.books = live.books;
        this.live = live;
        this.view = view;
    }

    /** The book enters {@code phase}: leaving a call, its indicative uncross is withdrawn (market data, view). */
    void setPhase(OrderBook book, TradingPhase phase) {
        TradingSession session = book.session;
        if (session.phase.isCall()) {
            callBooks--;
        }
        if (phase.isCall()) {
            callBooks++;
        }
        if (session.phase.isCall() && session.indicativeVolume != 0 && !phase.isCall()) {
            session.indicativePrice = 0;
            session.indicativeVolume = 0;
            live.marketData.indicative(book.symbolId, session.phase, 0, 0);
            view.indicative(book.symbolId, 0, 0);
        }
        session.phase = phase;
        view.phase(book.symbolId, phase);
        live.marketData.phase(book.symbolId, phase);
    }

    /** A volatility interruption (or a halt's reopening auction) begins: a call until its end. */
    void startInterruption(OrderBook book) {
        TradingSession session = book.session;
        session.interruptionEnd = nowNanos + session.interruptionMillis * 1_000_000L;
        setPhase(book, TradingPhase.VOLATILITY_CALL);
        refreshSessionDeadline();
    }

    void refreshSessionDeadline() {
        long deadline = TradingSession.NONE;
        for (OrderBook book : books) {
            deadline = Math.min(deadline, book.session.deadline());
        }
        nextSessionDeadline = deadline;
    }
}
