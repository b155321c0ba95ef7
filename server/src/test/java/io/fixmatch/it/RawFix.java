package io.fixmatch.it;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * A tiny FIX 4.4 message builder and parser for raw-socket tests: computes BodyLength(9) and CheckSum(10), and can
 * also produce deliberately wrong ones.
 */
public final class RawFix {
    static final char SOH = '\u0001';
    static final DateTimeFormatter UTC_TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS")
        .withZone(ZoneOffset.UTC);

    private RawFix() {
    }

    static String now() {
        return UTC_TIMESTAMP.format(Instant.now());
    }

    /** A message of this type with the standard header: 35, 49, 56, 34, 52 (now). */
    static Builder message(String msgType, String sender, String target, long seqNum) {
        return new Builder().field(35, msgType).field(49, sender).field(56, target).field(34, seqNum)
            .field(52, now());
    }

    /** Builds one message; by default with the right BeginString, BodyLength and CheckSum. */
    static final class Builder {
        private final List<String> fields = new ArrayList<>();
        private String beginString = "FIX.4.4";
        private int bodyLengthDelta;
        private Integer checkSumOverride;

        Builder field(int tag, Object value) {
            fields.add(tag + "=" + value);
            return this;
        }

        /** A field written verbatim, e.g. {@code "38="} (no value) or {@code "abc=1"}. */
        Builder raw(String field) {
            fields.add(field);
            return this;
        }

        Builder beginString(String value) {
            beginString = value;
            return this;
        }

        /** Declares a BodyLength off by {@code delta} from the real one. */
        Builder bodyLengthDelta(int delta) {
            bodyLengthDelta = delta;
            return this;
        }

        /** Writes this CheckSum instead of the right one. */
        Builder checkSum(int value) {
            checkSumOverride = value;
            return this;
        }

        /** The right CheckSum of what {@link #bytes()} writes before the trailer. */
        int rightCheckSum() {
            return sumOf(headAndBody());
        }

        byte[] bytes() {
            byte[] headAndBody = headAndBody();
            int sum = checkSumOverride != null ? checkSumOverride : sumOf(headAndBody);
            byte[] trailer = String.format("10=%03d%c", sum, SOH).getBytes(StandardCharsets.US_ASCII);
            byte[] all = new byte[headAndBody.length + trailer.length];
            System.arraycopy(headAndBody, 0, all, 0, headAndBody.length);
            System.arraycopy(trailer, 0, all, headAndBody.length, trailer.length);
            return all;
        }

        @Override
        public String toString() {
            return new String(bytes(), StandardCharsets.US_ASCII).replace(SOH, '|');
        }

        private byte[] headAndBody() {
            StringBuilder body = new StringBuilder();
            for (String field : fields) {
                body.append(field).append(SOH);
            }
            byte[] bodyBytes = body.toString().getBytes(StandardCharsets.US_ASCII);
            String head = "8=" + beginString + SOH + "9=" + (bodyBytes.length + bodyLengthDelta) + SOH;
            return (head + body).getBytes(StandardCharsets.US_ASCII);
        }
    }

    static int sumOf(byte[] bytes) {
        int sum = 0;
        for (byte b : bytes) {
            sum += b;
        }
        return sum & 0xFF;
    }

    /** A received message: its fields in order. */
    public record Msg(String raw, List<String[]> fields) {
        static Msg parse(String raw) {
            List<String[]> fields = new ArrayList<>();
            for (String field : raw.split(String.valueOf(SOH))) {
                int eq = field.indexOf('=');
                fields.add(new String[] {field.substring(0, eq), field.substring(eq + 1)});
            }
            return new Msg(raw, fields);
        }

        public String type() {
            return get(35);
        }

        /** The first value of the tag, or null. */
        public String get(int tag) {
            String key = String.valueOf(tag);
            for (String[] field : fields) {
                if (field[0].equals(key)) {
                    return field[1];
                }
            }
            return null;
        }

        long seqNum() {
            return Long.parseLong(get(34));
        }

        boolean has(int tag) {
            return get(tag) != null;
        }

        @Override
        public String toString() {
            return raw.replace(SOH, '|');
        }
    }
}
