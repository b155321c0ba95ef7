package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.SessionControl;

/**
 * The settings the engine holds that the configuration decides (each session's risk and self-trade prevention, each
 * symbol's reference price): read at start to bring them to the configuration's, from the recovered engine
 * (standalone) or from what the cluster says when a gateway joins it.
 */
public interface TradingSettings {
    /** One of the session's settings (0: none). */
    long sessionControl(int owner, SessionControl control);

    /** The symbol's reference price (0: none). */
    long referencePrice(int symbolId);
}
