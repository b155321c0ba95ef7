package io.fixmatch.fix.codec;


import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Independent helpers for the codec tests: builds FIX messages from text where '|' stands for SOH, computing
 * BodyLength and CheckSum here (not with the code under test). Characters are mapped to bytes with ISO-8859-1 so
 * that chars 128..255 become single bytes above 127.
 */
final class FixTestSupport {
    static final char SOH = '\u0001';

    private FixTestSupport() {
    }

    /** The bytes of {@code text} with '|' replaced by SOH, one byte per char (ISO-8859-1). */
    static byte[] bytes(String text) {
        return text.replace('|', SOH).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The text of bytes with SOH shown as '|'. */
    static String text(byte[] bytes, int offset, int length) {
        return new String(bytes, offset, length, StandardCharsets.ISO_8859_1).replace(SOH, '|');
    }

    static String text(byte[] bytes) {
        return text(bytes, 0, bytes.length);
    }

    /** The FIX checksum: the sum of the unsigned byte values modulo 256. */
    static int checksum(byte[] bytes, int from, int to) {
        int sum = 0;
        for (int i = from; i < to; i++) {
            sum += Byte.toUnsignedInt(bytes[i]);
        }
        return sum % 256;
    }

    /** A FIX 4.4 message around {@code body} (the part after 9=n|, before 10=), as text with '|' for SOH. */
    static String message(String body) {
        return message("FIX.4.4", body);
    }

    static String message(String beginString, String body) {
        int bodyLength = bytes(body).length;
        return message(beginString, String.valueOf(bodyLength), body);
    }

    /** A message with a given (possibly wrong) BodyLength text and a correct checksum. */
    static String message(String beginString, String bodyLengthText, String body) {
        String head = "8=" + beginString + "|9=" + bodyLengthText + "|";
        byte[] withoutTrailer = bytes(head + body);
        int sum = checksum(withoutTrailer, 0, withoutTrailer.length);
        return head + body + "10=" + String.format("%03d", sum) + "|";
    }

    /** A message with a given (possibly wrong) CheckSum text. */
    static String messageWithChecksum(String body, String checksumText) {
        return "8=FIX.4.4|9=" + bytes(body).length + "|" + body + "10=" + checksumText + "|";
    }

    static TestStream buf(String text) {
        return TestStream.wrappedBuffer(bytes(text));
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
