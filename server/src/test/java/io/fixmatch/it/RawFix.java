package io.fixmatch.it;

import io.fixmatch.fix.codec.testing.FixBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * What a raw-socket test receives: {@link Msg}, one message read into its fields. What such a test sends it builds
 * with fix-codec's {@link FixBuilder}.
 */
public final class RawFix {
    private RawFix() {
    }

    /** A received message: its fields in order. */
    public record Msg(String raw, List<String[]> fields) {
        static Msg parse(String raw) {
            List<String[]> fields = new ArrayList<>();
            for (String field : raw.split(String.valueOf(FixBuilder.SOH))) {
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
            return raw.replace(FixBuilder.SOH, '|');
        }
    }
}
