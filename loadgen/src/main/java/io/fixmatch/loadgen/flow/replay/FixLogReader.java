package io.fixmatch.loadgen.flow.replay;

import io.fixmatch.loadgen.flow.RequestKind;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a FIX message log: one message per line, fields split by SOH or '|', optionally behind a
 * "timestamp: " prefix as QuickFIX/J's file log writes it ({@code 20261123-14:07:34.123: 8=FIX.4.4|...}). Only the
 * client requests are replayed (NewOrderSingle, OrderCancelRequest, OrderCancelReplaceRequest); the log's answers and
 * session messages are passed over. A request is timed by its prefix, else by its SendingTime(52).
 */
final class FixLogReader {
    private static final DateTimeFormatter FIX_TIME = new DateTimeFormatterBuilder()
        .appendPattern("yyyyMMdd-HH:mm:ss")
        .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
        .toFormatter();

    private FixLogReader() {
    }

    /** The request of one line; null for a line that is no client request (its MsgType is put in skip). */
    static RecordedRequest parse(String line, StringBuilder skip) {
        int begin = line.indexOf("8=FIX");
        if (begin < 0) {
            throw new IllegalArgumentException("no FIX message (8=FIX...)");
        }
        String prefix = line.substring(0, begin).trim();
        if (prefix.endsWith(":")) {
            prefix = prefix.substring(0, prefix.length() - 1).trim();
        }
        char delimiter = line.indexOf('\u0001', begin) >= 0 ? '\u0001' : '|';
        Map<Integer, String> fields = new HashMap<>();
        for (String field : line.substring(begin).split(delimiter == '|' ? "\\|" : "\u0001")) {
            int equals = field.indexOf('=');
            if (equals > 0) {
                try {
                    fields.putIfAbsent(Integer.parseInt(field.substring(0, equals).trim()), field.substring(equals + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad field " + field);
                }
            }
        }
        String msgType = fields.getOrDefault(35, "");
        RequestKind kind = switch (msgType) {
            case "D" -> RequestKind.NEW_ORDER;
            case "F" -> RequestKind.CANCEL;
            case "G" -> RequestKind.REPLACE;
            default -> null;
        };
        if (kind == null) {
            skip.append("MsgType ").append(msgType);
            return null;
        }
        String time = !prefix.isEmpty() ? prefix : fields.get(52);
        if (time == null) {
            throw new IllegalArgumentException("no time: neither a prefix nor SendingTime(52)");
        }
        LocalDateTime when = LocalDateTime.parse(time, FIX_TIME);
        long nanos = when.toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L + when.getNano();
        return new RecordedRequest(nanos, kind, required(fields, 49), required(fields, 11), fields.get(41),
            required(fields, 55), required(fields, 54).charAt(0),
            kind == RequestKind.CANCEL ? 0 : fields.getOrDefault(40, "2").charAt(0),
            fields.containsKey(59) ? fields.get(59).charAt(0) : 0, fields.get(44),
            fields.containsKey(38) ? Long.parseLong(fields.get(38).trim()) : 0);
    }

    private static String required(Map<Integer, String> fields, int tag) {
        String value = fields.get(tag);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("required tag " + tag + " missing");
        }
        return value;
    }
}
