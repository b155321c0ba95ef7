package io.fixmatch.server.rules;

import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;

/**
 * One session's configured pre-trade risk limits and self-trade prevention (docs/CONFIG.md, "Risk and self-trade
 * prevention"); 0 means no limit. The engine holds them as {@link SessionControl}s, set by journaled commands
 * ({@link SessionControlSync}).
 *
 * @param maxOrderQuantity       largest order quantity
 * @param maxNotional            largest price x quantity, in whole units of the price currency
 * @param maxOpenOrders          most live orders
 * @param collarBasisPoints      price collar around the last trade or reference price, in basis points (100 = 1%)
 * @param collarTicks            the same in ticks (one of the two is 0)
 * @param firm                   the firm's name, or null: sessions of one firm are one party for self-trade prevention
 * @param firmId                 the firm's number for the engine (1, 2, ... in order of first mention), 0 for none
 * @param selfTradePrevention    the mode of the session's incoming orders
 * @param killSwitchOnDisconnect engage the session's kill switch when its connection is lost (not on a Logout)
 */
public record SessionRules(long maxOrderQuantity, long maxNotional, long maxOpenOrders, long collarBasisPoints,
                           long collarTicks, String firm, int firmId, SelfTradePrevention selfTradePrevention,
                           boolean killSwitchOnDisconnect) {

    /** No limits, no firm, no self-trade prevention. */
    public static final SessionRules NONE = new SessionRules(0, 0, 0, 0, 0, null, 0, SelfTradePrevention.NONE, false);

    public SessionRules {
        if (maxOrderQuantity < 0 || maxNotional < 0 || maxOpenOrders < 0 || collarBasisPoints < 0 || collarTicks < 0) {
            throw new IllegalArgumentException("risk limits must not be negative");
        }
        if (collarBasisPoints != 0 && collarTicks != 0) {
            throw new IllegalArgumentException("a price collar is in percent or in ticks, not both");
        }
    }

    /** The engine's value of one control for these rules (the kill switch is state, not configuration: 0). */
    public long control(SessionControl control) {
        return switch (control) {
            case MAX_ORDER_QUANTITY -> maxOrderQuantity;
            case MAX_NOTIONAL -> maxNotional;
            case MAX_OPEN_ORDERS -> maxOpenOrders;
            case PRICE_COLLAR_BASIS_POINTS -> collarBasisPoints;
            case PRICE_COLLAR_TICKS -> collarTicks;
            case FIRM -> firmId;
            case SELF_TRADE_PREVENTION -> selfTradePrevention.code();
            case KILL_SWITCH -> 0;
        };
    }
}
