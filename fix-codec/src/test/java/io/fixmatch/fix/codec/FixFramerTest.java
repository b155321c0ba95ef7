package io.fixmatch.fix.codec;

import io.fixmatch.fix.codec.testing.FixBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static io.fixmatch.fix.codec.FixTestSupport.buf;
import static io.fixmatch.fix.codec.testing.FixBuilder.bytes;
import static io.fixmatch.fix.codec.testing.FixBuilder.message;
import static io.fixmatch.fix.codec.testing.FixBuilder.messageWithChecksum;
import static io.fixmatch.fix.codec.testing.FixBuilder.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FixFramerTest {
    private static final String LOGON_BODY = "35=A|49=CLIENT|56=FIXMATCH|34=1|52=20261123-08:00:00.123|98=0|108=30|";
    private static final String ORDER_BODY = "35=D|49=CLIENT|56=FIXMATCH|34=2|52=20261123-08:00:00.456|11=ORD-1|"
        + "55=AAPL|54=1|60=20261123-08:00:00.456|38=100|40=2|44=150.1|";
    private static final String LOGON = message(LOGON_BODY);
    private static final String ORDER = message(ORDER_BODY);

    private final FixFramer framer = new FixFramer(4096);

    /** Scans and consumes what the framer says; returns the results in order until NEED_MORE. */
    private List<String> drain(TestStream buf) {
        List<String> results = new ArrayList<>();
        while (true) {
            int result = buf.scanWith(framer);
            if (result == FixFramer.NEED_MORE) {
                return results;
            }
            assertTrue(framer.length() > 0, "a result other than NEED_MORE consumes bytes");
            byte[] consumed = new byte[framer.length()];
            buf.readBytes(consumed);
            results.add(name(result) + ":" + text(consumed));
            if (result == FixFramer.TOO_LARGE) {
                return results;
            }
        }
    }

    private static String name(int result) {
        return switch (result) {
            case FixFramer.NEED_MORE -> "NEED_MORE";
            case FixFramer.FRAME -> "FRAME";
            case FixFramer.GARBLED -> "GARBLED";
            case FixFramer.BAD_CHECKSUM -> "BAD_CHECKSUM";
            case FixFramer.TOO_LARGE -> "TOO_LARGE";
            case FixFramer.WRONG_BEGIN_STRING -> "WRONG_BEGIN_STRING";
            default -> "?" + result;
        };
    }

    @Test
    void completeFrame() {
        TestStream buf = buf(ORDER);
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
        assertEquals(bytes(ORDER).length, framer.length());
        assertEquals(0, buf.readerIndex(), "scan does not consume");
        assertEquals(bytes(ORDER_BODY).length, framer.declaredBodyLength());
        // Scanning again without consuming gives the same answer.
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
        assertEquals(bytes(ORDER).length, framer.length());
    }

    @Test
    void handComputedMinimalFrame() {
        assertEquals(FixFramer.FRAME, buf("8=FIX.4.4|9=24|35=0|49=SRV|56=CLI|34=1|10=209|").scanWith(framer));
        assertEquals(46, framer.length());
        assertEquals(FixFramer.BAD_CHECKSUM, buf("8=FIX.4.4|9=24|35=0|49=SRV|56=CLI|34=1|10=208|").scanWith(framer));
        assertEquals(46, framer.length());
    }

    @Test
    void frameRespectsReaderIndex() {
        TestStream buf = buf("XXXX" + ORDER);
        buf.readerIndex(4);
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
        assertEquals(bytes(ORDER).length, framer.length());
    }

    @ParameterizedTest
    @ValueSource(strings = {"35=0|", "35=A|49=CLIENT|56=FIXMATCH|34=1|52=20261123-08:00:00.123|98=0|108=30|",
        "35=D|49=CLIENT|56=FIXMATCH|34=2|52=20261123-08:00:00.456|11=ORD-1|55=AAPL|54=1|38=100|40=2|44=150.1|"})
    void everyPrefixNeedsMore(String body) {
        byte[] whole = bytes(message(body));
        for (int n = 0; n < whole.length; n++) {
            TestStream prefix = TestStream.wrappedBuffer(whole, 0, n);
            assertEquals(FixFramer.NEED_MORE, prefix.scanWith(framer), "prefix of " + n + " bytes");
            assertEquals(0, prefix.readerIndex());
        }
        assertEquals(FixFramer.FRAME, TestStream.wrappedBuffer(whole).scanWith(framer));
        assertEquals(whole.length, framer.length());
    }

    @Test
    void bytesFedOneByOneGiveNeedMoreUntilComplete() {
        byte[] whole = bytes(ORDER + LOGON);
        int firstLength = bytes(ORDER).length;
        TestStream stream = TestStream.buffer();
        List<Integer> frameEnds = new ArrayList<>();
        for (int i = 0; i < whole.length; i++) {
            stream.writeByte(whole[i]);
            int result = stream.scanWith(framer);
            if (result == FixFramer.FRAME) {
                frameEnds.add(i + 1);
                stream.skipBytes(framer.length());
            } else {
                assertEquals(FixFramer.NEED_MORE, result, "after byte " + i);
            }
        }
        assertEquals(List.of(firstLength, whole.length), frameEnds);
        assertEquals(0, stream.readableBytes());
    }

    @Test
    void twoMessagesInOneBuffer() {
        TestStream buf = buf(LOGON + ORDER);
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
        assertEquals(bytes(LOGON).length, framer.length());
        buf.skipBytes(framer.length());
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
        assertEquals(bytes(ORDER).length, framer.length());
        buf.skipBytes(framer.length());
        assertEquals(FixFramer.NEED_MORE, buf.scanWith(framer));
    }

    @Test
    void messageFollowedByPartialMessage() {
        String partial = ORDER.substring(0, 40);
        assertEquals(List.of("FRAME:" + LOGON), drain(buf(LOGON + partial)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"garbage", "x", "hello world|", "8=FOO|", "8=FIX.4.4|9=xyz|", "||||",
        "\u00ff\u00fe\u00c3"})
    void garbageBeforeAMessageIsSkippedThenTheMessageFrames(String garbage) {
        TestStream buf = buf(garbage + ORDER);
        assertEquals(FixFramer.GARBLED, buf.scanWith(framer));
        assertEquals(bytes(garbage).length, framer.length(), "skips exactly the garbage");
        buf.skipBytes(framer.length());
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
        assertEquals(bytes(ORDER).length, framer.length());
    }

    @Test
    void garbageBetweenMessages() {
        assertEquals(List.of("FRAME:" + LOGON, "GARBLED:noise|", "FRAME:" + ORDER),
            drain(buf(LOGON + "noise|" + ORDER)));
    }

    @Test
    void garbageWithNoMessageIsSkippedWithoutAFrame() {
        String garbage = "this is not FIX at all, just noise 1234567890 with 8= and =FIX inside";
        TestStream buf = buf(garbage);
        int skipped = 0;
        while (true) {
            int result = buf.scanWith(framer);
            if (result == FixFramer.NEED_MORE) {
                break;
            }
            assertEquals(FixFramer.GARBLED, result);
            assertTrue(framer.length() >= 1);
            skipped += framer.length();
            buf.skipBytes(framer.length());
        }
        assertTrue(buf.readableBytes() < 2, "at most a byte is kept: " + buf.readableBytes());
        assertEquals(bytes(garbage).length, skipped + buf.readableBytes());
        // The first skip takes everything but the last byte: what follows it may start a message only if it is
        // not a digit, and the next read must be able to tell.
        TestStream again = buf(garbage);
        assertEquals(FixFramer.GARBLED, again.scanWith(framer));
        assertEquals(bytes(garbage).length - 1, framer.length());
    }

    @Test
    void garbageEndingInTheStartOfAMessageKeepsThatStart() {
        byte[] order = bytes(ORDER);
        for (int cut = 1; cut <= 12; cut++) {
            TestStream stream = TestStream.buffer();
            stream.writeBytes(bytes("some noise here|"));
            stream.writeBytes(order, 0, cut);
            List<String> results = drain(stream);
            for (String r : results) {
                assertTrue(r.startsWith("GARBLED:"), r);
            }
            stream.writeBytes(order, cut, order.length - cut);
            List<String> rest = drain(stream);
            assertFalse(rest.isEmpty(), "cut " + cut);
            assertEquals("FRAME:" + ORDER, rest.get(rest.size() - 1), "cut " + cut + ": " + rest);
        }
    }

    @Test
    void wrongChecksumIsReportedWithTheMessageLength() {
        String bad = messageWithChecksum(ORDER_BODY, "000");
        String good = message(ORDER_BODY);
        assertFalse(bad.equals(good));
        TestStream buf = buf(bad + LOGON);
        assertEquals(FixFramer.BAD_CHECKSUM, buf.scanWith(framer));
        assertEquals(bytes(bad).length, framer.length());
        buf.skipBytes(framer.length());
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
        assertEquals(bytes(LOGON).length, framer.length());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1a3", "abc", "-12", "99 ", "256", "999"})
    void nonNumericOrOutOfRangeChecksumIsBad(String checksumText) {
        String bad = messageWithChecksum(ORDER_BODY, checksumText);
        assertEquals(FixFramer.BAD_CHECKSUM, buf(bad).scanWith(framer));
        assertEquals(bytes(bad).length, framer.length());
    }

    @Test
    void everyChecksumValueButTheRightOneIsBad() {
        String good = message(ORDER_BODY);
        String right = good.substring(good.length() - 4, good.length() - 1);
        byte[] raw = bytes(good);
        int digits = raw.length - 4;
        for (int c = 0; c < 1000; c++) {
            raw[digits] = (byte) ('0' + c / 100);
            raw[digits + 1] = (byte) ('0' + c / 10 % 10);
            raw[digits + 2] = (byte) ('0' + c % 10);
            String value = text(raw, digits, 3);
            int expected = value.equals(right) ? FixFramer.FRAME : FixFramer.BAD_CHECKSUM;
            assertEquals(expected, TestStream.wrappedBuffer(raw).scanWith(framer), value);
            assertEquals(raw.length, framer.length());
        }
    }

    @Test
    void checksumOfTwoDigitsIsGarbled() {
        // "10=12|" instead of "10=012|": the trailer is not where BodyLength puts it.
        String bad = "8=FIX.4.4|9=" + bytes(ORDER_BODY).length + "|" + ORDER_BODY + "10=12|";
        List<String> results = drain(buf(bad + LOGON));
        assertEquals("FRAME:" + LOGON, results.get(results.size() - 1), results.toString());
        assertEquals("GARBLED:" + bad, results.get(0));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, -5, -20})
    void tooShortBodyLengthIsGarbledAndResyncsToTheNextMessage(int error) {
        int right = bytes(ORDER_BODY).length;
        String bad = message("FIX.4.4", String.valueOf(right + error), ORDER_BODY);
        TestStream buf = buf(bad + LOGON);
        assertEquals(FixFramer.GARBLED, buf.scanWith(framer));
        assertEquals(bytes(bad).length, framer.length(), "skips up to the next message");
        buf.skipBytes(framer.length());
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
        assertEquals(bytes(LOGON).length, framer.length());
    }

    /**
     * As QuickFIX/J frames (its acceptance script 2m_BodyLengthValueNotCorrect): a BodyLength too long puts the
     * CheckSum inside the next message; framing resumes where the wrong length pointed, so the next message, whose
     * start was taken, is garbled too, and the one after it is framed.
     */
    @ParameterizedTest
    @ValueSource(ints = {8, 20, 60})
    void tooLongBodyLengthSwallowsTheStartOfTheNextMessageAndBothAreGarbled(int error) {
        int right = bytes(ORDER_BODY).length;
        String bad = message("FIX.4.4", String.valueOf(right + error), ORDER_BODY);
        assertEquals(List.of("GARBLED:" + bad + LOGON, "FRAME:" + ORDER), drain(buf(bad + LOGON + ORDER)));
    }

    /** Too long by less than the 7 bytes of its own CheckSum field, or by exactly that: the next one is whole. */
    @ParameterizedTest
    @ValueSource(ints = {1, 5, 7})
    void aBodyLengthPointingIntoItsOwnTrailerOrAtTheNextMessageLosesOnlyItsOwn(int error) {
        int right = bytes(ORDER_BODY).length;
        String bad = message("FIX.4.4", String.valueOf(right + error), ORDER_BODY);
        assertEquals(List.of("GARBLED:" + bad, "FRAME:" + LOGON), drain(buf(bad + LOGON)));
    }

    @Test
    void tooLongBodyLengthWaitsThenSwallowsTheStartOfTheNextMessage() {
        int right = bytes(ORDER_BODY).length;
        String bad = message("FIX.4.4", String.valueOf(right + 30), ORDER_BODY);
        TestStream buf = buf(bytes(bad));
        assertEquals(FixFramer.NEED_MORE, buf.scanWith(framer));
        buf.writeBytes(bytes(LOGON + ORDER));
        assertEquals(List.of("GARBLED:" + bad + LOGON, "FRAME:" + ORDER), drain(buf));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1x2", "x", "", "-5", "+5", " 5", "12345678", "1.5"})
    void nonDigitOrMissingBodyLengthIsGarbled(String bodyLengthText) {
        String bad = message("FIX.4.4", bodyLengthText, ORDER_BODY);
        TestStream buf = buf(bad + LOGON);
        assertEquals(FixFramer.GARBLED, buf.scanWith(framer));
        assertEquals(bytes(bad).length, framer.length());
        buf.skipBytes(framer.length());
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
    }

    @Test
    void bodyLengthWithLeadingZerosIsAccepted() {
        String body = "35=0|";
        String withZeros = message("FIX.4.4", "005", body);
        assertEquals(FixFramer.FRAME, buf(withZeros).scanWith(framer));
        assertEquals(bytes(withZeros).length, framer.length());
    }

    @Test
    void missingBodyLengthTagIsGarbled() {
        String bad = "8=FIX.4.4|35=0|10=000|";
        assertEquals(List.of("GARBLED:" + bad, "FRAME:" + LOGON), drain(buf(bad + LOGON)));
    }

    @Test
    void tooLargeWithASmallMaximum() {
        FixFramer small = new FixFramer(64);
        String big = message(ORDER_BODY);
        assertTrue(bytes(big).length > 64);
        TestStream buf = buf(big);
        assertEquals(FixFramer.TOO_LARGE, buf.scanWith(small));
        assertEquals(bytes(big).length, small.length());
        assertEquals(bytes(ORDER_BODY).length, small.declaredBodyLength());
        // Known as soon as BodyLength is read: the rest of the message need not have arrived.
        String header = big.substring(0, big.indexOf("|35=") + 1);
        assertEquals(FixFramer.TOO_LARGE, buf(header).scanWith(small));
        assertEquals(bytes(big).length, small.length());
        // A huge declared body (7 digits) too.
        assertEquals(FixFramer.TOO_LARGE, buf("8=FIX.4.4|9=9999999|").scanWith(small));
        assertEquals(9_999_999, small.declaredBodyLength());
    }

    @Test
    void messageOfExactlyTheMaximumSizeFrames() {
        String m = message("35=0|58=" + "x".repeat(30) + "|");
        int size = bytes(m).length;
        assertEquals(FixFramer.FRAME, buf(m).scanWith(new FixFramer(size)));
        assertEquals(FixFramer.TOO_LARGE, buf(m).scanWith(new FixFramer(size - 1)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"FIX.4.2", "FIX.4.3", "FIXT.1.1", "FIX.4.44", "FIX.4", "FIX.5.0SP2"})
    void wrongBeginStringOfAWellFormedMessage(String beginString) {
        String other = message(beginString, ORDER_BODY);
        TestStream buf = buf(other + LOGON);
        assertEquals(FixFramer.WRONG_BEGIN_STRING, buf.scanWith(framer));
        assertEquals(bytes(other).length, framer.length());
        buf.skipBytes(framer.length());
        assertEquals(FixFramer.FRAME, buf.scanWith(framer));
    }

    @Test
    void wrongBeginStringWithBadChecksumIsABadChecksum() {
        String other = message("FIX.4.2", ORDER_BODY);
        String broken = other.substring(0, other.length() - 4) + "999|";
        if (other.equals(broken)) {
            broken = other.substring(0, other.length() - 4) + "998|";
        }
        assertEquals(FixFramer.BAD_CHECKSUM, buf(broken).scanWith(framer));
    }

    @Test
    void overlongBeginStringIsGarbled() {
        String bad = "8=" + "X".repeat(20) + "|9=5|35=0|10=000|";
        TestStream buf = buf(bad + LOGON);
        assertEquals(FixFramer.GARBLED, buf.scanWith(framer));
        assertEquals(bytes(bad).length, framer.length());
        // Without SOH in the first bytes, a long prefix is garbled rather than waited for.
        assertEquals(FixFramer.GARBLED, (buf("8=FIX" + "X".repeat(14))).scanWith(framer));
        assertEquals(FixFramer.NEED_MORE, (buf("8=FIX" + "X".repeat(13))).scanWith(framer));
    }

    @ParameterizedTest
    @ValueSource(strings = {"8=fix.4.4|9=5|35=0|10=000|", "8=@|9=999999|", "8=FI8=|9=5|", "8=|"})
    void aMessageStartsWith8EqualsFix(String bad) {
        assertEquals(FixFramer.GARBLED, buf(bad + LOGON).scanWith(framer));
        assertEquals(bytes(bad).length, framer.length());
    }

    @Test
    void aMessageAfterADigitIsNotFoundEvenWhenTheReadEndsAtIts8() {
        // Found by fuzzing: garbage "...38=10" then "8=FIX.4.2...": when a read ended right after that '8', the
        // '8' was kept alone and the next read took it for the start of a message.
        TestStream in = buf("xx38=108");
        assertEquals(FixFramer.GARBLED, in.scanWith(framer));
        in.skipBytes(framer.length());
        in.writeBytes(bytes("=FIX.4.2|9=5|35=0|10=000|"));
        int result = in.scanWith(framer);
        assertEquals(FixFramer.GARBLED, result, "the kept bytes start with the digit, not with the '8'");
        assertEquals(FixFramer.NEED_MORE, buf("18").scanWith(framer));
    }

    @Test
    void checkSumMustFollowTheSOHOfTheLastField() {
        // Found by fuzzing: BodyLength one short of the body's last SOH put CheckSum right after a value byte.
        String body = "35=A|49=TW|56=ISLD|34=1|98=0|108=30|=141|Y";
        String bad = message("FIX.4.4", String.valueOf(bytes(body).length), body);
        assertEquals(FixFramer.GARBLED, buf(bad + LOGON).scanWith(framer));
        assertEquals(FixFramer.FRAME, buf(message("35=0|")).scanWith(framer));
    }

    @ParameterizedTest
    @ValueSource(strings = {"8", "8=", "8=F", "8=FI"})
    void aPossibleMessageStartIsWaitedFor(String start) {
        assertEquals(FixFramer.NEED_MORE, buf(start).scanWith(framer));
        // ... and kept when it ends some garbage (not after a digit: "18=FIX" is inside a field)
        assertEquals(FixFramer.GARBLED, buf("xy" + start).scanWith(framer));
        assertEquals(2, framer.length());
        assertEquals(FixFramer.GARBLED, buf("x1" + start).scanWith(framer));
        // skipped up to the last byte, or the last two when they are "18" (the next read must see the digit)
        assertEquals(start.equals("8") ? 1 : start.length() + 1, framer.length());
    }

    @Test
    void bytesAbove127AreSummedUnsigned() {
        String body = "35=D|58=caf\u00e9 \u00ff\u00fe" + "\u0080".repeat(60) + "|55=\u00c3\u00a9|";
        String m = message(body);
        byte[] raw = bytes(m);
        int unsigned = FixBuilder.checksum(raw, 0, raw.length - 7);
        int signedSum = 0;
        for (int i = 0; i < raw.length - 7; i++) {
            signedSum += raw[i];
        }
        assertEquals(unsigned, Integer.parseInt(m.substring(m.length() - 4, m.length() - 1)));
        assertEquals(FixFramer.FRAME, TestStream.wrappedBuffer(raw).scanWith(framer));
        assertEquals(raw.length, framer.length());
        assertTrue(signedSum < 0, "the example's signed byte sum is negative");
        // A checksum taken from a signed sum (Java's % keeps the sign) is refused.
        int signedRemainder = Math.abs(signedSum % 256);
        assertTrue(signedRemainder != unsigned, "the example must tell signed from unsigned sums");
        assertEquals(FixFramer.BAD_CHECKSUM,
            buf(messageWithChecksum(body, String.format("%03d", signedRemainder))).scanWith(framer));
    }

    @Test
    void manyHighByteMessagesFrame() {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 500; round++) {
            StringBuilder value = new StringBuilder();
            int n = 1 + random.nextInt(60);
            for (int i = 0; i < n; i++) {
                char c;
                do {
                    c = (char) random.nextInt(256);
                } while (c == 1 || c == '|');
                value.append(c);
            }
            String m = message("35=D|58=" + value + "|");
            assertEquals(FixFramer.FRAME, buf(m).scanWith(framer), "round " + round);
            assertEquals(bytes(m).length, framer.length());
        }
    }

    @Test
    void digitBeforeEightEqualsFixIsNotTakenAsAMessageStart() {
        // "58=FIX..." inside noise is a field, not a message start; the real message after it is found.
        String noise = "58=FIX.4.4 text|";
        assertEquals(List.of("GARBLED:" + noise, "FRAME:" + ORDER), drain(buf(noise + ORDER)));
    }
}
