package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.SymbolControl;

/**
 * The settings the engine holds that the configuration decides (each session's risk and self-trade prevention, each
 * symbol's reference price, auction schedule and volatility band): read at start to bring them to the configuration's, from the recovered engine
 * (standalone) or from what the cluster says when a gateway joins it.
 */
public interface TradingSettings {
    /** One of the session's settings (0: none). */
    long sessionControl(int owner, SessionControl control);

    /** The symbol's reference price (0: none). */
    long referencePrice(int symbolId);

    /**
     * One of the symbol's schedule or volatility settings; {@link #UNKNOWN} where it is not known (the welcome of a
     * cluster node of an earlier release carries none): then a configured setting is set by a command anyway.
     */
    default long symbolControl(int symbolId, SymbolControl control) {
        return UNKNOWN;
    }

    /** The id of the time zone of the symbol's schedule; null where it is not known. */
    default String symbolTimeZone(int symbolId) {
        return null;
    }

    long UNKNOWN = Long.MIN_VALUE;
}
