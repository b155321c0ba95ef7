package io.fixmatch.server.rules;

import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;

/**
 * The venue's trading rules from the configuration: each session's risk limits and self-trade prevention, each
 * symbol's reference price and auction schedule, the end of the trading day.
 *
 * @param sessions        per session, in the order of {@code sessions} (owner k + 1 is the k-th)
 * @param referencePrices per symbol, in the order of {@code symbols}, in price units (0: none)
 * @param endOfDay        when DAY orders expire, or null for never
 * @param timeZone        the zone of {@code endOfDay}
 * @param schedules       per symbol, in the order of {@code symbols}: its auction group's schedule and volatility
 *                        settings ({@link SymbolSchedule#NONE} if in none)
 */
public record TradingRules(List<SessionRules> sessions, List<Long> referencePrices, LocalTime endOfDay,
                           ZoneId timeZone, List<SymbolSchedule> schedules) {

    public TradingRules {
        sessions = List.copyOf(sessions);
        referencePrices = List.copyOf(referencePrices);
        schedules = List.copyOf(schedules);
    }

    /** No limits for {@code sessionCount} sessions, no reference prices, no end of day. */
    public static TradingRules none(int sessionCount, int symbolCount) {
        return new TradingRules(java.util.Collections.nCopies(sessionCount, SessionRules.NONE),
            java.util.Collections.nCopies(symbolCount, 0L), null, ZoneId.of("UTC"),
            java.util.Collections.nCopies(symbolCount, SymbolSchedule.NONE));
    }

    /** The rules of owner {@code k + 1}. */
    public SessionRules ofSession(int index) {
        return sessions.get(index);
    }
}
