package io.fixmatch.server.rules;

import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.server.ConfigKeys;

import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Reads the auction groups (docs/CONFIG.md "Auctions and volatility interruptions"): {@code engine.auctionGroups}
 * names the groups; each group's {@code auctionGroup.<GROUP>.symbols} and its trading schedule
 * ({@code .openingCall}, {@code .openingUncross}, {@code .closingCall}, {@code .closingUncross}: HH:mm or HH:mm:ss in
 * {@code .timeZone}; {@code .randomEndSeconds}) and volatility settings ({@code .volatilityBand}: a percentage;
 * {@code .interruptionSeconds}). A symbol in no group has none; a symbol in two groups is refused.
 */
final class AuctionGroupKeys {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm[:ss]", Locale.ROOT);
    private static final long MAX_BAND_BASIS_POINTS = 1_000_000; // 10,000%
    private static final long MAX_SECONDS = 24 * 3600;

    private AuctionGroupKeys() {
    }

    /** Per symbol, in the order of {@code symbols}. */
    static List<SymbolSchedule> read(ConfigKeys keys, List<SymbolSpec> symbols, ZoneId defaultZone) {
        List<SymbolSchedule> schedules = new ArrayList<>(Collections.nCopies(symbols.size(), SymbolSchedule.NONE));
        List<String> groupOf = new ArrayList<>(Collections.nCopies(symbols.size(), (String) null));
        if (keys.optional("engine.auctionGroups") == null) {
            return schedules;
        }
        for (String group : keys.list("engine.auctionGroups", "")) {
            SymbolSchedule schedule = group(keys, group, defaultZone);
            String symbolsKey = keys.each("auctionGroup.<GROUP>.symbols", group);
            for (String name : keys.list(symbolsKey, "")) {
                int id = idOf(symbols, name);
                if (id < 0) {
                    throw keys.invalid(symbolsKey, "names " + name + ", which is no configured symbol");
                }
                if (groupOf.get(id) != null) {
                    throw keys.invalid(symbolsKey, "names " + name + ", already in auction group " + groupOf.get(id));
                }
                groupOf.set(id, group);
                schedules.set(id, schedule);
            }
        }
        return schedules;
    }

    private static SymbolSchedule group(ConfigKeys keys, String group, ZoneId defaultZone) {
        long[] values = SymbolSchedule.unset();
        String[] timeKeys = {"openingCall", "openingUncross", "closingCall", "closingUncross"};
        SymbolControl[] timeControls = {SymbolControl.OPENING_CALL, SymbolControl.OPENING_UNCROSS,
            SymbolControl.CLOSING_CALL, SymbolControl.CLOSING_UNCROSS};
        int set = 0;
        String firstKey = null;
        for (int i = 0; i < timeKeys.length; i++) {
            String key = keys.each("auctionGroup.<GROUP>." + timeKeys[i], group);
            firstKey = firstKey == null ? key : firstKey;
            String value = keys.optional(key);
            if (value == null) {
                continue;
            }
            try {
                values[timeControls[i].ordinal()] = LocalTime.parse(value, TIME).toSecondOfDay() * 1000L;
            } catch (DateTimeParseException e) {
                throw keys.invalid(key, "must be a time HH:mm or HH:mm:ss (e.g. 08:00), was " + value);
            }
            set++;
        }
        if (set != 0 && set != timeKeys.length) {
            throw keys.invalid(firstKey, "the four times of auction group " + group + " (openingCall, openingUncross,"
                + " closingCall, closingUncross) go together: " + set + " of them are set");
        }
        long openingCall = values[SymbolControl.OPENING_CALL.ordinal()];
        long openingUncross = values[SymbolControl.OPENING_UNCROSS.ordinal()];
        long closingCall = values[SymbolControl.CLOSING_CALL.ordinal()];
        long closingUncross = values[SymbolControl.CLOSING_UNCROSS.ordinal()];
        if (set != 0 && !(openingCall < openingUncross && openingUncross <= closingCall
            && closingCall < closingUncross)) {
            throw keys.invalid(firstKey, "auction group " + group + "'s times must be in the order openingCall <"
                + " openingUncross <= closingCall < closingUncross within a day");
        }
        values[SymbolControl.RANDOM_END_MILLIS.ordinal()] =
            seconds(keys, keys.each("auctionGroup.<GROUP>.randomEndSeconds", group)) * 1000;
        values[SymbolControl.VOLATILITY_BAND_BASIS_POINTS.ordinal()] =
            band(keys, keys.each("auctionGroup.<GROUP>.volatilityBand", group));
        values[SymbolControl.INTERRUPTION_MILLIS.ordinal()] =
            seconds(keys, keys.each("auctionGroup.<GROUP>.interruptionSeconds", group)) * 1000;
        String zoneKey = keys.each("auctionGroup.<GROUP>.timeZone", group);
        String zone = keys.text(zoneKey, defaultZone.getId());
        try {
            ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw keys.invalid(zoneKey, "is not a time zone (e.g. UTC, Europe/London), was " + zone);
        }
        return new SymbolSchedule(values, zone);
    }

    /** Whole seconds, 0 (the default) to a day. */
    private static long seconds(ConfigKeys keys, String key) {
        String value = keys.text(key, "0");
        try {
            long seconds = Long.parseLong(value);
            if (seconds >= 0 && seconds <= MAX_SECONDS) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw keys.invalid(key, "must be whole seconds, 0.." + MAX_SECONDS + ", was " + value);
    }

    /** "5%" or "0.5%" in basis points; absent: 0 (no band). */
    private static long band(ConfigKeys keys, String key) {
        String value = keys.optional(key);
        if (value == null) {
            return 0;
        }
        long[] collar = TradingRulesKeys.collar(keys, key);
        if (collar[0] == 0 || collar[0] > MAX_BAND_BASIS_POINTS) {
            throw keys.invalid(key, "must be a percentage (e.g. 5% or 0.5%), was " + value);
        }
        return collar[0];
    }

    private static int idOf(List<SymbolSpec> symbols, String name) {
        for (int id = 0; id < symbols.size(); id++) {
            if (symbols.get(id).name().equals(name)) {
                return id;
            }
        }
        return -1;
    }
}
