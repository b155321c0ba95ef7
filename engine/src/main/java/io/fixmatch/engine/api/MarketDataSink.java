package io.fixmatch.engine.api;

/**
 * Receives the public changes of the books, on the matching thread, as they happen within a command: the new total
 * quantity of a price level, and each trade. Aggregated, anonymous: what market data is made of. Must not block or
 * allocate; the matching step only hands these on (see {@code MarketDataPublisher}).
 */
public interface MarketDataSink {
    /** Nobody listens: the engine's calls cost a call each. */
    MarketDataSink NONE = new MarketDataSink() {
        @Override
        public void levelChanged(int symbolId, Side side, long price, long quantity) {
        }

        @Override
        public void traded(int symbolId, long price, long quantity) {
        }
    };

    /** The level at {@code price} on {@code side} now holds {@code quantity} in all (0: the level is gone). */
    void levelChanged(int symbolId, Side side, long price, long quantity);

    /** A trade of {@code quantity} at {@code price} (the resting order's). */
    void traded(int symbolId, long price, long quantity);

    /**
     * During a call: the price the auction would uncross at now and the volume it would execute ({@code phase}: the
     * call's); price and volume 0 when there is none (no crossing interest, or the call ended).
     */
    default void indicative(int symbolId, TradingPhase phase, long price, long volume) {
    }

    /** The symbol entered {@code phase} (a call, the close, continuous trading). */
    default void phase(int symbolId, TradingPhase phase) {
    }

    /** The operator halted ({@code halted}) or resumed trading in the symbol. */
    default void halted(int symbolId, boolean halted) {
    }

    /**
     * The command is done (every change of it was told): called at the end of every command the engine processes,
     * live or replayed, so a sink that groups changes by command groups them alike in both.
     */
    default void commandDone() {
    }
}
