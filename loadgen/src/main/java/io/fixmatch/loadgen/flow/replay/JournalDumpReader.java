package io.fixmatch.loadgen.flow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fixmatch.loadgen.flow.RequestKind;

import java.io.IOException;
import java.time.Instant;
import java.util.Locale;

/**
 * Reads a journal dumped by {@code scripts/journal-dump.sh --json}: one JSON object per line with {@code index},
 * {@code time} (ISO-8601 UTC with nanoseconds), {@code type} (NEW_ORDER, CANCEL, REPLACE, ORDER_STATUS,
 * CANCEL_ALL...), {@code session}, {@code symbol}, {@code side} (BUY/SELL), {@code ordType} (LIMIT/MARKET), {@code tif}
 * (DAY/GTC/IOC/FOK), {@code price} (decimal text), {@code qty}, {@code clOrdId}, {@code origClOrdId}.
 */
final class JournalDumpReader {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JournalDumpReader() {
    }

    /** The request of one line; null for a command that is no client request to replay (returned in skip). */
    static RecordedRequest parse(String line, StringBuilder skip) throws IOException {
        JsonNode json = MAPPER.readTree(line);
        String type = text(json, "type");
        RequestKind kind = switch (type == null ? "" : type) {
            case "NEW_ORDER" -> RequestKind.NEW_ORDER;
            case "CANCEL" -> RequestKind.CANCEL;
            case "REPLACE" -> RequestKind.REPLACE;
            default -> null;
        };
        if (kind == null) {
            skip.append(type);
            return null;
        }
        String time = text(json, "time");
        if (time == null) {
            throw new IllegalArgumentException("no \"time\"");
        }
        Instant instant = Instant.parse(time);
        return new RecordedRequest(instant.getEpochSecond() * 1_000_000_000L + instant.getNano(), kind,
            required(json, "session"), required(json, "clOrdId"), text(json, "origClOrdId"), required(json, "symbol"),
            side(required(json, "side")), ordType(text(json, "ordType"), kind), tif(text(json, "tif")),
            text(json, "price"), json.path("qty").asLong(0));
    }

    private static String text(JsonNode json, String key) {
        JsonNode value = json.get(key);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static String required(JsonNode json, String key) {
        String value = text(json, key);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("no \"" + key + "\"");
        }
        return value;
    }

    private static char side(String side) {
        return switch (side.toUpperCase(Locale.ROOT)) {
            case "BUY" -> '1';
            case "SELL" -> '2';
            default -> throw new IllegalArgumentException("side " + side);
        };
    }

    private static char ordType(String ordType, RequestKind kind) {
        if (ordType == null) {
            return kind == RequestKind.CANCEL ? 0 : '2';
        }
        return switch (ordType.toUpperCase(Locale.ROOT)) {
            case "LIMIT" -> '2';
            case "MARKET" -> '1';
            default -> throw new IllegalArgumentException("ordType " + ordType);
        };
    }

    private static char tif(String tif) {
        if (tif == null) {
            return 0;
        }
        return switch (tif.toUpperCase(Locale.ROOT)) {
            case "DAY" -> '0';
            case "GTC" -> '1';
            case "IOC" -> '3';
            case "FOK" -> '4';
            default -> throw new IllegalArgumentException("tif " + tif);
        };
    }
}
