package io.fixmatch.fix.codec;

import io.fixmatch.fix.codec.testing.FixBuilder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the codec's own tests add to {@link FixBuilder} (the messages they write by hand): input streams of those
 * messages, and the fields of a parsed message or of a message's text, to compare.
 */
final class FixTestSupport {
    private FixTestSupport() {
    }

    static TestStream buf(String text) {
        return TestStream.wrappedBuffer(FixBuilder.bytes(text));
    }

    static TestStream buf(byte[]... parts) {
        TestStream buf = TestStream.buffer();
        for (byte[] part : parts) {
            buf.writeBytes(part);
        }
        return buf;
    }

    /** The fields of a parsed message as "tag=value" strings (ISO-8859-1). */
    static List<String> fields(FixMessage message) {
        List<String> fields = new ArrayList<>();
        for (int i = 0; i < message.fieldCount(); i++) {
            fields.add(message.tagAt(i) + "=" + new String(message.buffer(), message.valueStartAt(i),
                message.valueLengthAt(i), StandardCharsets.ISO_8859_1));
        }
        return fields;
    }

    /** The fields of a message given as text with '|' for SOH, as "tag=value" strings. */
    static List<String> fields(String text) {
        String trimmed = text.endsWith("|") ? text.substring(0, text.length() - 1) : text;
        return new ArrayList<>(Arrays.asList(trimmed.split("\\|")));
    }
}
