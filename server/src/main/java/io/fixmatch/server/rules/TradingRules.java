package io.fixmatch.server.rules;

import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;

/**
 * The venue's trading rules from the configuration: each session's risk limits and self-trade prevention, each
 * symbol's reference price, the end of the trading day.
 *
 * @param sessions        per session, in the order of {@code sessions} (owner k + 1 is the k-th)
 * @param referencePrices per symbol, in the order of {@code symbols}, in price units (0: none)
 * @param endOfDay        when DAY orders expire, or null for never
 * @param timeZone        the zone of {@code endOfDay}
 */
public record TradingRules(List<SessionRules> sessions, List<Long> referencePrices, LocalTime endOfDay,
                           ZoneId timeZone) {

    public TradingRules {
        sessions = List.copyOf(sessions);
        referencePrices = List.copyOf(referencePrices);
    }

    /** No limits for {@code sessionCount} sessions, no reference prices, no end of day. */
    public static TradingRules none(int sessionCount, int symbolCount) {
        return new TradingRules(java.util.Collections.nCopies(sessionCount, SessionRules.NONE),
            java.util.Collections.nCopies(symbolCount, 0L), null, ZoneId.of("UTC"));
    }

    /** The rules of owner {@code k + 1}. */
    public SessionRules ofSession(int index) {
        return sessions.get(index);
    }
}
