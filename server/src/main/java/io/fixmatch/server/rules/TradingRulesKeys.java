package io.fixmatch.server.rules;

import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.server.ConfigKeys;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the trading rules' keys (docs/CONFIG.md): {@code session.<ID>.risk.*}, {@code session.<ID>.firm},
 * {@code session.<ID>.selfTradePrevention}, {@code firm.<FIRM>.selfTradePrevention} (for the firms sessions name),
 * {@code session.<ID>.killSwitchOnDisconnect}, {@code symbol.<NAME>.referencePrice}, {@code engine.endOfDay},
 * {@code engine.timeZone}, and the auction groups ({@link AuctionGroupKeys}).
 */
public final class TradingRulesKeys {
    private static final DateTimeFormatter HOURS_MINUTES = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);
    private static final long MAX_COLLAR_BASIS_POINTS = 1_000_000; // 10,000%

    private TradingRulesKeys() {
    }

    public static TradingRules read(ConfigKeys keys, List<String> sessionIds, List<SymbolSpec> symbols) {
        Map<String, Integer> firmIds = new LinkedHashMap<>();
        Map<String, SelfTradePrevention> firmModes = new LinkedHashMap<>();
        List<SessionRules> sessions = new ArrayList<>();
        for (String id : sessionIds) {
            String firm = keys.optional(keys.each("session.<ID>.firm", id));
            SelfTradePrevention firmMode = SelfTradePrevention.NONE;
            int firmId = 0;
            if (firm != null) {
                firmId = firmIds.computeIfAbsent(firm, name -> firmIds.size() + 1);
                if (!firmModes.containsKey(firm)) {
                    firmModes.put(firm, mode(keys, keys.each("firm.<FIRM>.selfTradePrevention", firm),
                        SelfTradePrevention.NONE));
                }
                firmMode = firmModes.get(firm);
            }
            long[] collar = collar(keys, keys.each("session.<ID>.risk.priceCollar", id));
            long maxOrderQuantity = nonNegative(keys, keys.each("session.<ID>.risk.maxOrderQuantity", id));
            long maxNotional = nonNegative(keys, keys.each("session.<ID>.risk.maxNotional", id));
            long maxOpenOrders = nonNegative(keys, keys.each("session.<ID>.risk.maxOpenOrders", id));
            SelfTradePrevention mode = mode(keys, keys.each("session.<ID>.selfTradePrevention", id), firmMode);
            boolean killSwitchOnDisconnect = keys.bool(keys.each("session.<ID>.killSwitchOnDisconnect", id), false);
            sessions.add(new SessionRules(maxOrderQuantity, maxNotional, maxOpenOrders, collar[0], collar[1], firm,
                firmId, mode, killSwitchOnDisconnect));
        }
        List<Long> referencePrices = new ArrayList<>();
        for (SymbolSpec symbol : symbols) {
            referencePrices.add(referencePrice(keys, keys.each("symbol.<NAME>.referencePrice", symbol.name()),
                symbol));
        }
        String endOfDay = keys.optional("engine.endOfDay");
        String zone = keys.text("engine.timeZone", "UTC");
        ZoneId timeZone;
        try {
            timeZone = ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw keys.invalid("engine.timeZone", "is not a time zone (e.g. UTC, America/New_York), was " + zone);
        }
        LocalTime at = null;
        if (endOfDay != null) {
            try {
                at = LocalTime.parse(endOfDay, HOURS_MINUTES);
            } catch (DateTimeParseException e) {
                throw keys.invalid("engine.endOfDay", "must be a time HH:mm (e.g. 17:30), was " + endOfDay);
            }
        }
        return new TradingRules(sessions, referencePrices, at, timeZone,
            AuctionGroupKeys.read(keys, symbols, timeZone));
    }

    private static SelfTradePrevention mode(ConfigKeys keys, String key, SelfTradePrevention fallback) {
        String value = keys.text(key, fallback.configName());
        try {
            return SelfTradePrevention.byConfigName(value);
        } catch (IllegalArgumentException e) {
            throw keys.invalid(key, e.getMessage());
        }
    }

    /** A whole number, 0 (the default) for no limit. */
    private static long nonNegative(ConfigKeys keys, String key) {
        String value = keys.text(key, "0");
        long number;
        try {
            number = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw keys.invalid(key, "must be a whole number, was " + value);
        }
        if (number < 0) {
            throw keys.invalid(key, "must not be negative (0: no limit), was " + number);
        }
        return number;
    }

    /** "5%" or "0.5%" (basis points), "20ticks" or "20 ticks"; absent: none. Returns {basis points, ticks}. */
    static long[] collar(ConfigKeys keys, String key) {
        String value = keys.optional(key);
        if (value == null) {
            return new long[] {0, 0};
        }
        String text = value.replace(" ", "").toLowerCase(Locale.ROOT);
        try {
            if (text.endsWith("%")) {
                long basisPoints = new BigDecimal(text.substring(0, text.length() - 1)).movePointRight(2)
                    .longValueExact();
                if (basisPoints > 0 && basisPoints <= MAX_COLLAR_BASIS_POINTS) {
                    return new long[] {basisPoints, 0};
                }
            } else if (text.endsWith("ticks")) {
                long ticks = Long.parseLong(text.substring(0, text.length() - "ticks".length()));
                if (ticks > 0) {
                    return new long[] {0, ticks};
                }
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // refused below
        }
        throw keys.invalid(key, "must be a percentage with at most two decimals (e.g. 5% or 0.25%, at most 10000%)"
            + " or a number of ticks (e.g. 20ticks), was " + value);
    }

    private static long referencePrice(ConfigKeys keys, String key, SymbolSpec symbol) {
        String value = keys.optional(key);
        if (value == null) {
            return 0;
        }
        long units;
        try {
            units = new BigDecimal(value).movePointRight(symbol.priceScale()).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw keys.invalid(key, "must be a price at the symbol's precision, was " + value);
        }
        if (units <= 0 || units > symbol.maxPrice() || units % symbol.tickSize() != 0) {
            throw keys.invalid(key, "must be a positive price on the symbol's tick, at most its maxPrice, was "
                + value);
        }
        return units;
    }
}
