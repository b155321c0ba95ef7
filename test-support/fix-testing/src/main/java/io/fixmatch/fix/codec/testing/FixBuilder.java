package io.fixmatch.fix.codec.testing;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * FIX messages written by hand for tests, the one builder of every module's tests (the fix-testing module, a test
 * dependency of each): it computes BodyLength(9) and CheckSum(10) itself, never with the codec under test, and writes
 * them deliberately wrong when asked. Text shows SOH as '|': {@link #body} and the static {@link #message} take it
 * so, {@link #text} and {@link #toString} give it so. One byte per char (ISO-8859-1), so chars 128..255 become single
 * bytes above 127.
 * <pre>
 *   byte[] order = FixBuilder.header("D", "CLIENT1", "FIXMATCH", 2).field(11, "o1").field(55, "AAPL").bytes();
 *   byte[] wrong = new FixBuilder().body("35=0|").bodyLengthDelta(3).checkSum(7).bytes();
 *   String text = FixBuilder.message("35=0|34=2|");  // "8=FIX.4.4|9=10|35=0|34=2|10=...|"
 * </pre>
 */
public final class FixBuilder {
    public static final char SOH = '\u0001';
    private static final DateTimeFormatter UTC_TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS")
        .withZone(ZoneOffset.UTC);

    private final StringBuilder body = new StringBuilder();
    private String beginString = "FIX.4.4";
    private int bodyLengthDelta;
    private String bodyLengthText;
    private String checkSumText;

    /** A FIX.4.4 message with an empty body, right BodyLength and CheckSum: add its fields. */
    public FixBuilder() {
    }

    /** A message of this type with the standard header: 35, 49, 56, 34, 52 (now). */
    public static FixBuilder header(String msgType, String sender, String target, long seqNum) {
        return new FixBuilder().field(35, msgType).field(49, sender).field(56, target).field(34, seqNum)
            .field(52, now());
    }

    public FixBuilder field(int tag, Object value) {
        return raw(tag + "=" + value);
    }

    /** A field written verbatim, e.g. {@code "38="} (no value) or {@code "abc=1"}; its SOH is added. */
    public FixBuilder raw(String field) {
        body.append(field).append(SOH);
        return this;
    }

    /** Body text as it is, '|' for SOH (each field ends with one): {@code "35=0|34=2|"}. */
    public FixBuilder body(String text) {
        body.append(text.replace('|', SOH));
        return this;
    }

    public FixBuilder beginString(String value) {
        beginString = value;
        return this;
    }

    /** Declares a BodyLength off by {@code delta} from the real one. */
    public FixBuilder bodyLengthDelta(int delta) {
        bodyLengthDelta = delta;
        return this;
    }

    /** Writes this BodyLength text (any text, a number or not) instead of the real length. */
    public FixBuilder bodyLength(String text) {
        bodyLengthText = text;
        return this;
    }

    /** Writes this CheckSum instead of the right one (three digits). */
    public FixBuilder checkSum(int value) {
        return checkSum(String.format("%03d", value));
    }

    /** Writes this CheckSum text (any text) instead of the right one. */
    public FixBuilder checkSum(String text) {
        checkSumText = text;
        return this;
    }

    /** The right CheckSum of what {@link #bytes()} writes before the trailer. */
    public int rightCheckSum() {
        byte[] headAndBody = headAndBody();
        return checksum(headAndBody, 0, headAndBody.length);
    }

    public byte[] bytes() {
        String checkSum = checkSumText != null ? checkSumText : String.format("%03d", rightCheckSum());
        return concat(headAndBody(), ("10=" + checkSum + SOH).getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The message with '|' for SOH. */
    public String text() {
        return text(bytes());
    }

    @Override
    public String toString() {
        return text();
    }

    private byte[] headAndBody() {
        byte[] bodyBytes = body.toString().getBytes(StandardCharsets.ISO_8859_1);
        String bodyLength = bodyLengthText != null ? bodyLengthText
            : String.valueOf(bodyBytes.length + bodyLengthDelta);
        return concat(("8=" + beginString + SOH + "9=" + bodyLength + SOH).getBytes(StandardCharsets.ISO_8859_1),
            bodyBytes);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] all = new byte[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    /** A FIX 4.4 message around {@code body} (the part after 9=n|, before 10=), as text with '|' for SOH. */
    public static String message(String body) {
        return new FixBuilder().body(body).text();
    }

    public static String message(String beginString, String body) {
        return new FixBuilder().beginString(beginString).body(body).text();
    }

    /** A message with a given (possibly wrong) BodyLength text and a correct checksum. */
    public static String message(String beginString, String bodyLengthText, String body) {
        return new FixBuilder().beginString(beginString).bodyLength(bodyLengthText).body(body).text();
    }

    /** A FIX 4.4 message with a given (possibly wrong) CheckSum text. */
    public static String messageWithChecksum(String body, String checksumText) {
        return new FixBuilder().body(body).checkSum(checksumText).text();
    }

    /** The FIX checksum of {@code bytes[from, to)}: the sum of the unsigned byte values modulo 256. */
    public static int checksum(byte[] bytes, int from, int to) {
        int sum = 0;
        for (int i = from; i < to; i++) {
            sum += Byte.toUnsignedInt(bytes[i]);
        }
        return sum % 256;
    }

    /** The CheckSum field that ends {@code headAndBody}, SOH included: {@code "10=nnn\u0001"}. */
    public static String trailer(String headAndBody) {
        byte[] bytes = headAndBody.getBytes(StandardCharsets.ISO_8859_1);
        return String.format("10=%03d%c", checksum(bytes, 0, bytes.length), SOH);
    }

    /** The bytes of {@code text} with '|' replaced by SOH, one byte per char (ISO-8859-1). */
    public static byte[] bytes(String text) {
        return text.replace('|', SOH).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The text of bytes with SOH shown as '|'. */
    public static String text(byte[] bytes, int offset, int length) {
        return new String(bytes, offset, length, StandardCharsets.ISO_8859_1).replace(SOH, '|');
    }

    public static String text(byte[] bytes) {
        return text(bytes, 0, bytes.length);
    }

    /** A UTCTimestamp with milliseconds, as SendingTime(52) and TransactTime(60) take it. */
    public static String timestamp(Instant instant) {
        return UTC_TIMESTAMP.format(instant);
    }

    /** {@link #timestamp} of now. */
    public static String now() {
        return timestamp(Instant.now());
    }
}
