package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.TradingPhase;

/**
 * The operator's halt and resume of a symbol (HALT_SYMBOL, RESUME_SYMBOL): while halted, its new orders and replaces
 * are refused ({@link OrderRequests}) and it does not uncross; the resume reopens it with an auction.
 */
final class TradingHalts {
    private final LiveOrders live;
    private final TradingPhases phases;
    private final TradingSchedule schedule;
    private final EngineView view;

    TradingHalts(LiveOrders live, TradingPhases phases, TradingSchedule schedule, EngineView view) {
        this.live = live;
        this.phases = phases;
        this.schedule = schedule;
        this.view = view;
    }

    /** The operator's halt or resume; a symbol the engine does not have is ignored (the operator checks first). */
    void halt(int symbolId, boolean halted) {
        OrderBook book = live.bookOf(symbolId);
        if (book != null) {
            book.halted = halted;
            view.halted(symbolId, halted);
            live.marketData.halted(symbolId, halted);
        }
    }

    /**
     * The operator's resume: the halt ends with a reopening auction when the symbol was trading continuously (or in
     * an interruption): a volatility call for the interruption length, or, with none, the uncross at once. In a
     * scheduled call or after the close the phase goes on.
     */
    void resume(int symbolId) {
        OrderBook book = live.bookOf(symbolId);
        if (book == null || !book.halted) {
            return;
        }
        halt(symbolId, false);
        TradingSession session = book.session;
        if (session.phase == TradingPhase.CONTINUOUS || session.phase == TradingPhase.VOLATILITY_CALL) {
            if (session.interruptionMillis > 0) {
                phases.startInterruption(book);
            } else {
                phases.setPhase(book, TradingPhase.VOLATILITY_CALL);
                schedule.endCall(book, TradingPhase.CONTINUOUS);
                phases.refreshSessionDeadline();
            }
        }
    }
}
