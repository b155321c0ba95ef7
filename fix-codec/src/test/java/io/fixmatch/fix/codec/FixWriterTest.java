package io.fixmatch.fix.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.fixmatch.fix.codec.testing.FixBuilder.bytes;
import static io.fixmatch.fix.codec.testing.FixBuilder.checksum;
import static io.fixmatch.fix.codec.testing.FixBuilder.message;
import static io.fixmatch.fix.codec.testing.FixBuilder.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FixWriterTest {
    private static final DateTimeFormatter UTC_MILLIS =
        DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final FixWriter writer = new FixWriter(8192);

    private String written() {
        return text(writer.buffer(), writer.start(), writer.length());
    }

    private byte[] writtenBytes() {
        return Arrays.copyOfRange(writer.buffer(), writer.start(), writer.start() + writer.length());
    }

    /** The body of a message holding one field written by {@code writer}, e.g. "44=150.1". */
    private String singleFieldValue(String prefix) {
        String body = written().substring(written().indexOf("35="));
        String field = body.split("\\|")[1];
        assertTrue(field.startsWith(prefix), field);
        return field.substring(prefix.length());
    }

    @Test
    void heartbeatHasExactHandComputedBytes() {
        int length = writer.begin(MsgTypes.HEARTBEAT).field(49, "SRV").field(56, "CLI").field(34, 1L).finish();
        // Body "35=0|49=SRV|56=CLI|34=1|" is 24 bytes; the checksum of everything before 10= is 209.
        String expected = "8=FIX.4.4|9=24|35=0|49=SRV|56=CLI|34=1|10=209|";
        assertEquals(expected, written());
        assertEquals(expected.length(), length);
        assertEquals(length, writer.length());
        assertEquals(message("35=0|49=SRV|56=CLI|34=1|"), expected);
    }

    @Test
    void newOrderHasExactBytesWithIndependentLengthAndChecksum() {
        writer.begin(MsgTypes.NEW_ORDER_SINGLE).field(11, "ORD1").field(55, "AAPL").field(54, '1').field(38, 100L)
            .field(40, '2').decimal(44, 15010, 2).finish();
        String body = "35=D|11=ORD1|55=AAPL|54=1|38=100|40=2|44=150.1|";
        assertEquals("8=FIX.4.4|9=47|" + body + "10=234|", written());
        assertEquals(message(body), written());
    }

    @Test
    void bodyLengthAndChecksumAgreeWithIndependentComputation() {
        writer.begin(MsgTypes.EXECUTION_REPORT).field(37, 12345L).field(17, "E-1").field(150, 'F').field(39, '2')
            .field(58, "some text with spaces").decimal(31, -123456, 3).finish();
        byte[] out = writtenBytes();
        String text = text(out);
        int bodyStart = text.indexOf("|35=") + 1;
        int trailerStart = text.lastIndexOf("10=");
        int declaredBodyLength = Integer.parseInt(text.substring(text.indexOf("|9=") + 3, bodyStart - 1));
        assertEquals(trailerStart - bodyStart, declaredBodyLength);
        assertEquals(String.format("%03d", checksum(out, 0, trailerStart)), text.substring(trailerStart + 3,
            trailerStart + 6));
        assertTrue(text.startsWith("8=FIX.4.4|9="));
        assertTrue(text.endsWith("|"));
        assertEquals(trailerStart + 7, out.length);
    }

    @ParameterizedTest
    @CsvSource({
        "15010, 2, 150.1",
        "15000, 2, 150",
        "15001, 2, 150.01",
        "15099, 2, 150.99",
        "-15010, 2, -150.1",
        "-15000, 2, -150",
        "-5, 2, -0.05",
        "5, 2, 0.05",
        "50, 2, 0.5",
        "0, 2, 0",
        "0, 0, 0",
        "12345, 0, 12345",
        "-12345, 0, -12345",
        "1234567, 4, 123.4567",
        "1230000, 4, 123",
        "1230500, 4, 123.05",
        "1, 4, 0.0001",
        "-1, 4, -0.0001",
        "10000, 4, 1",
        "999999999999999999, 2, 9999999999999999.99",
        "1, 1, 0.1",
    })
    void decimalFormatting(long units, int scale, String expected) {
        writer.begin(MsgTypes.NEW_ORDER_SINGLE).decimal(44, units, scale).finish();
        assertEquals(expected, singleFieldValue("44="));
        assertEquals(message("35=D|44=" + expected + "|"), written());
    }

    @ParameterizedTest
    @CsvSource({
        // numerator (scale units), denominator (integer), scale, extra digits -> text
        "100, 3, 2, 4, 0.333333",
        "-100, 3, 2, 4, -0.333333",
        "30000, 2, 2, 4, 150",
        "30001, 2, 2, 4, 150.005",
        "1000, 8, 2, 4, 1.25",
        "2, 3, 0, 4, 0.6666",
        "2, 3, 0, 0, 0",
        "7, 2, 0, 0, 3",
        "1, 3, 2, 0, 0",
        "45030, 3, 2, 4, 150.1",
        "0, 5, 2, 4, 0",
        "123, 0, 2, 4, 0",
        "10, 3, 2, 10, 0.033333333333",
    })
    void quotientFormatting(long numerator, long denominator, int scale, int extraDigits, String expected) {
        writer.begin(MsgTypes.EXECUTION_REPORT).quotient(6, numerator, denominator, scale, extraDigits).finish();
        assertEquals(expected, singleFieldValue("6="));
        assertEquals(message("35=8|6=" + expected + "|"), written());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1970-01-01T00:00:00Z", "2024-02-29T23:59:59.999Z", "2026-11-23T08:00:00.123Z",
        "2100-01-01T00:00:00.001Z", "2100-12-31T12:34:56.789Z", "1969-12-31T23:59:59.999Z"})
    void timestampField(String iso) {
        Instant instant = Instant.parse(iso);
        long nanos = instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
        writer.begin(MsgTypes.EXECUTION_REPORT).timestamp(60, nanos).finish();
        String expected = UTC_MILLIS.format(instant);
        assertEquals(expected, singleFieldValue("60="));
        assertEquals(message("35=8|60=" + expected + "|"), written());
    }

    @Test
    void timestampTruncatesSubMillisecondNanos() {
        writer.begin(MsgTypes.EXECUTION_REPORT).timestamp(60, 1_779_523_200_123_999_999L).finish();
        assertEquals(UTC_MILLIS.format(Instant.ofEpochMilli(1_779_523_200_123L)), singleFieldValue("60="));
        writer.begin(MsgTypes.EXECUTION_REPORT).timestamp(60, -1L).finish();
        assertEquals("19691231-23:59:59.999", singleFieldValue("60="));
    }

    @Test
    void longValuesIncludingNegativeAndExtremes() {
        writer.begin(MsgTypes.HEARTBEAT).field(34, 0L).field(1, -1L).field(2, Long.MAX_VALUE)
            .field(3, -Long.MAX_VALUE).field(4, 9L).field(5, 10L).finish();
        assertEquals(message("35=0|34=0|1=-1|2=" + Long.MAX_VALUE + "|3=-" + Long.MAX_VALUE + "|4=9|5=10|"),
            written());
    }

    /** Every number of digits, at both its edges and in between, with and without a sign, as Long.toString. */
    @Test
    void longValuesAtEveryDigitCountBoundary() {
        long power = 1;
        for (int digits = 1; digits <= 19; digits++) {
            long next = digits == 19 ? Long.MAX_VALUE : power * 10 - 1;
            for (long value : new long[] {power, power + 1, power + (next - power) / 3, next - 1, next}) {
                for (long signed : new long[] {value, -value}) {
                    writer.begin(MsgTypes.HEARTBEAT).field(34, signed).field(value < 1_000_000 ? (int) value : 9,
                        'L', value).finish();
                    String tag = Long.toString(value < 1_000_000 ? value : 9);
                    assertEquals(message("35=0|34=" + signed + "|" + tag + "=L" + value + "|"), written(),
                        "value " + signed);
                }
            }
            power *= 10;
        }
    }

    @Test
    void twoCharacterMsgType() {
        int ae = ('A' << 8) | 'E';
        writer.begin(ae).field(34, 7L).finish();
        assertEquals(message("35=AE|34=7|"), written());
    }

    @Test
    void textFieldReplacesNonPrintableCharactersWithQuestionMarks() {
        writer.begin(MsgTypes.REJECT).field(58, "a\u0001b\u00e9c\u007f\td~ ").finish();
        assertEquals(message("35=3|58=a?b?c??d~ |"), written());
    }

    @Test
    void byteArrayFieldsAreCopiedVerbatimIncludingHighBytes() {
        byte[] value = {'x', (byte) 0xC3, (byte) 0xA9, (byte) 0xFF, 'y'};
        byte[] source = {'-', '-', 'A', 'B', 'C', '-'};
        writer.begin(MsgTypes.NEW_ORDER_SINGLE).field(58, value).field(55, source, 2, 3).finish();
        byte[] out = writtenBytes();
        String body = "35=D|58=x\u00c3\u00a9\u00ffy|55=ABC|";
        assertArrayEquals(bytes(message(body)), out);
        // The checksum is over unsigned bytes: the high bytes count 0xC3 + 0xA9 + 0xFF.
        int trailer = out.length - 7;
        assertEquals(checksum(out, 0, trailer), Integer.parseInt(text(out, trailer + 3, 3)));
    }

    @Test
    void copyFieldCopiesAParsedFieldVerbatim() {
        byte[] in = bytes(message("35=D|11=abc-123|55=MSFT|"));
        FixMessage parsed = new FixMessage();
        assertEquals(FixParser.OK, FixParser.parse(in, 0, in.length, parsed));
        writer.begin(MsgTypes.EXECUTION_REPORT).copyField(parsed, parsed.indexOf(11)).copyField(parsed,
            parsed.indexOf(55)).finish();
        assertEquals(message("35=8|11=abc-123|55=MSFT|"), written());
    }

    @Test
    void writerIsReusableForMessagesWrittenBackToBack() {
        List<String> expected = new ArrayList<>();
        TestStream stream = TestStream.buffer();
        for (int i = 0; i < 50; i++) {
            String text = "x".repeat(i * 37 % 300);
            writer.begin(i % 2 == 0 ? MsgTypes.HEARTBEAT : MsgTypes.TEST_REQUEST).field(34, (long) i)
                .field(112, text.isEmpty() ? "t" : text).finish();
            String body = (i % 2 == 0 ? "35=0" : "35=1") + "|34=" + i + "|112=" + (text.isEmpty() ? "t" : text) + "|";
            assertEquals(message(body), written(), "message " + i);
            expected.add(message(body));
            stream.writeBytes(writer.buffer(), writer.start(), writer.length());
        }
        // A long message followed by a short one: nothing of the long one leaks into the short one.
        writer.begin(MsgTypes.TEST_REQUEST).field(112, "L".repeat(5000)).finish();
        writer.begin(MsgTypes.HEARTBEAT).finish();
        assertEquals(message("35=0|"), written());

        FixFramer framer = new FixFramer(8192);
        for (String message : expected) {
            assertEquals(FixFramer.FRAME, stream.scanWith(framer));
            assertEquals(message.length(), framer.length());
            assertEquals(message, text(bytesOf(stream, framer.length())));
        }
        assertEquals(FixFramer.NEED_MORE, stream.scanWith(framer));
    }

    private static byte[] bytesOf(TestStream stream, int length) {
        byte[] out = new byte[length];
        stream.readBytes(out);
        return out;
    }

    @Test
    void longFieldsAndEveryBodyLengthDigitCountBoundary() {
        // The body is "35=0|58=" + n x's + "|" = 9 + n bytes; try bodies around 10, 100, 1000 and 10000 bytes.
        FixWriter big = new FixWriter(20_000);
        FixFramer framer = new FixFramer(20_100);
        FixMessage parsed = new FixMessage();
        for (int bodyLength : new int[] {10, 11, 99, 100, 101, 999, 1000, 1001, 9999, 10_000, 10_001, 19_900}) {
            String value = "x".repeat(bodyLength - 9);
            int length = big.begin(MsgTypes.HEARTBEAT).field(58, value).finish();
            String expected = message("35=0|58=" + value + "|");
            assertTrue(expected.contains("|9=" + bodyLength + "|"));
            assertEquals(expected, text(big.buffer(), big.start(), length), "body length " + bodyLength);

            TestStream buf = TestStream.wrappedBuffer(big.buffer(), big.start(), length);
            assertEquals(FixFramer.FRAME, buf.scanWith(framer));
            assertEquals(length, framer.length());
            assertEquals(FixParser.OK, FixParser.parse(big.buffer(), big.start(), length, parsed));
            assertEquals(value, parsed.stringValue(58));
            assertEquals(bodyLength, parsed.longValue(9));
        }
    }

    @Test
    void roundTripThroughFramerAndParser() {
        String id = "c7a1e5d0-1f2b-4c3d-9e8f-0123456789ab";
        long nanos = 1_795_420_800_123_000_000L; // 2026-11-23T08:00:00.123Z
        writer.begin(MsgTypes.EXECUTION_REPORT).field(49, "FIXMATCH").field(56, "CLIENT").field(34, 42L)
            .timestamp(52, nanos).field(37, 9_000_000_001L).field(11, id).field(17, "E42").field(150, 'F')
            .field(39, '1').field(55, "AAPL").field(54, '2').field(38, 500L).decimal(44, 15010, 2)
            .field(32, 200L).decimal(31, 15000, 2).field(151, 300L).field(14, 200L).quotient(6, 3_000_000, 200, 2, 4)
            .timestamp(60, nanos).field(58, "partial fill").finish();
        List<String> expected = List.of("8=FIX.4.4", "9=" + (written().lastIndexOf("10=") - written().indexOf("35=")),
            "35=8", "49=FIXMATCH", "56=CLIENT", "34=42", "52=20261123-08:00:00.123", "37=9000000001",
            "11=c7a1e5d0-1f2b-4c3d-9e8f-0123456789ab", "17=E42", "150=F", "39=1", "55=AAPL", "54=2", "38=500",
            "44=150.1", "32=200", "31=150", "151=300", "14=200", "6=150", "60=20261123-08:00:00.123",
            "58=partial fill", "10=" + written().substring(written().length() - 4, written().length() - 1));
        assertEquals(UTC_MILLIS.format(Instant.ofEpochSecond(0, nanos)), "20261123-08:00:00.123");
        assertRoundTrip(expected);

        FixMessage parsed = new FixMessage();
        FixParser.parse(writer.buffer(), writer.start(), writer.length(), parsed);
        assertEquals(MsgTypes.EXECUTION_REPORT, parsed.msgType());
        assertEquals(15010, FixDecimals.parse(parsed.buffer(), parsed.valueStartAt(parsed.indexOf(44)),
            parsed.valueLengthAt(parsed.indexOf(44)), 2));
        int sending = parsed.indexOf(52);
        assertEquals(nanos / 1_000_000, FixTimestamps.parseMillis(parsed.buffer(), parsed.valueStartAt(sending),
            parsed.valueLengthAt(sending)));
        assertEquals(id, parsed.stringValue(11));
    }

    /** Random messages: the fields written come back from the framer and parser unchanged. */
    @Test
    void randomizedRoundTrip() {
        Random random = new Random(20261123);
        FixFramer framer = new FixFramer(8192 + 64);
        FixMessage parsed = new FixMessage();
        for (int round = 0; round < 1000; round++) {
            int msgType = random.nextBoolean() ? "0123458ADFGHj".charAt(random.nextInt(13))
                : (('A' + random.nextInt(26)) << 8) | ('A' + random.nextInt(26));
            writer.begin(msgType);
            List<String> fields = new ArrayList<>();
            fields.add("35=" + MsgTypes.toString(msgType));
            int count = random.nextInt(30);
            for (int f = 0; f < count; f++) {
                int tag = 1000 + random.nextInt(5000); // not singular: may repeat
                switch (random.nextInt(6)) {
                    case 0 -> {
                        long v = random.nextLong() / (1 + random.nextInt(1000));
                        writer.field(tag, v);
                        fields.add(tag + "=" + v);
                    }
                    case 1 -> {
                        char c = (char) ('!' + random.nextInt(94));
                        writer.field(tag, c);
                        fields.add(tag + "=" + c);
                    }
                    case 2 -> {
                        long units = random.nextInt(2_000_000) - 1_000_000;
                        int scale = random.nextInt(7);
                        writer.decimal(tag, units, scale);
                        String expected = new java.math.BigDecimal(java.math.BigInteger.valueOf(units), scale)
                            .stripTrailingZeros().toPlainString();
                        fields.add(tag + "=" + expected);
                    }
                    case 3 -> {
                        byte[] value = new byte[1 + random.nextInt(40)];
                        for (int k = 0; k < value.length; k++) {
                            int b;
                            do {
                                b = random.nextInt(256);
                            } while (b == 1);
                            value[k] = (byte) b;
                        }
                        writer.field(tag, value);
                        fields.add(tag + "=" + new String(value, StandardCharsets.ISO_8859_1));
                    }
                    case 4 -> {
                        // Epoch nanos in a long reach 2262-04-11; stay within.
                        long millis = random.nextLong(-9_223_372_036_000L, 9_223_372_036_000L);
                        writer.timestamp(tag, millis * 1_000_000L + random.nextInt(1_000_000));
                        fields.add(tag + "=" + UTC_MILLIS.format(Instant.ofEpochMilli(millis)));
                    }
                    default -> {
                        String s = randomPrintable(random, 1 + random.nextInt(100));
                        writer.field(tag, s);
                        fields.add(tag + "=" + s);
                    }
                }
            }
            int length = writer.finish();
            byte[] out = writtenBytes();
            int bodyStart = text(out).indexOf("|35=") + 1;
            int trailer = length - 7;
            List<String> expected = new ArrayList<>();
            expected.add("8=FIX.4.4");
            expected.add("9=" + (trailer - bodyStart));
            expected.addAll(fields);
            expected.add("10=" + String.format("%03d", checksum(out, 0, trailer)));

            TestStream buf = TestStream.wrappedBuffer(writer.buffer(), writer.start(), length);
            assertEquals(FixFramer.FRAME, buf.scanWith(framer), "round " + round);
            assertEquals(length, framer.length());
            assertEquals(FixParser.OK, FixParser.parse(writer.buffer(), writer.start(), length, parsed));
            assertEquals(expected, FixTestSupport.fields(parsed), "round " + round);
            assertEquals(msgType, parsed.msgType());
        }
    }

    private static String randomPrintable(Random random, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) (' ' + random.nextInt(95)));
        }
        return sb.toString();
    }

    private void assertRoundTrip(List<String> expectedFields) {
        TestStream buf = TestStream.wrappedBuffer(writer.buffer(), writer.start(), writer.length());
        FixFramer framer = new FixFramer(8192);
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
        assertEquals(writer.length(), framer.length());
        FixMessage parsed = new FixMessage();
        assertEquals(FixParser.OK, FixParser.parse(writer.buffer(), writer.start(), writer.length(), parsed));
        assertEquals(expectedFields, FixTestSupport.fields(parsed));
        assertEquals(FixTestSupport.fields(written()), FixTestSupport.fields(parsed));
    }
}
