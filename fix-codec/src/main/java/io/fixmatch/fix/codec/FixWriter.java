package io.fixmatch.fix.codec;

/**
 * Writes one FIX 4.4 message at a time into its own byte array, allocation-free: {@link #begin} the message type,
 * add fields in order, {@link #finish} to get BeginString, BodyLength and CheckSum put around them. The body is
 * written first, after room kept at the front, and the header prefix goes in front once the length is known.
 */
public final class FixWriter {
    private static final byte SOH = FixFramer.SOH;
    private static final byte[] PREFIX = {'8', '=', 'F', 'I', 'X', '.', '4', '.', '4', SOH, '9', '='};
    private static final int ROOM_FOR_PREFIX = 32;
    private static final long[] POWERS_OF_TEN = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
        100_000_000L, 1_000_000_000L, 10_000_000_000L};
    /** DIGITS_FROM[d]: the smallest value of d + 1 digits (10^d), up to 10^18. */
    private static final long[] DIGITS_FROM = new long[19];
    /** "00" to "99": the two digits of n at 2n and 2n + 1. */
    private static final byte[] DIGIT_PAIRS = new byte[200];

    static {
        long power = 1;
        for (int d = 0; d < DIGITS_FROM.length; d++) {
            DIGITS_FROM[d] = power;
            power *= 10;
        }
        for (int n = 0; n < 100; n++) {
            DIGIT_PAIRS[2 * n] = (byte) ('0' + n / 10);
            DIGIT_PAIRS[2 * n + 1] = (byte) ('0' + n % 10);
        }
    }

    private final byte[] buffer;
    private final FixTimestamps timestamps = new FixTimestamps();
    private int position;
    private int start;
    private int length;

    public FixWriter(int capacity) {
        buffer = new byte[capacity + ROOM_FOR_PREFIX];
    }

    /** Starts a message: its first body field is MsgType. */
    public FixWriter begin(int msgType) {
        position = ROOM_FOR_PREFIX;
        tag(FixTags.MSG_TYPE);
        position += MsgTypes.write(msgType, buffer, position);
        buffer[position++] = SOH;
        return this;
    }

    public FixWriter field(int tag, long value) {
        tag(tag);
        writeLong(value);
        buffer[position++] = SOH;
        return this;
    }

    public FixWriter field(int tag, char value) {
        tag(tag);
        buffer[position++] = (byte) value;
        buffer[position++] = SOH;
        return this;
    }

    public FixWriter field(int tag, byte[] value) {
        return field(tag, value, 0, value.length);
    }

    public FixWriter field(int tag, byte[] source, int offset, int count) {
        tag(tag);
        System.arraycopy(source, offset, buffer, position, count);
        position += count;
        buffer[position++] = SOH;
        return this;
    }

    /** A character then a number, as one value: "L" and 42 give "L42" (client order ids, say). */
    public FixWriter field(int tag, char prefix, long number) {
        tag(tag);
        buffer[position++] = (byte) prefix;
        writeLong(number);
        buffer[position++] = SOH;
        return this;
    }

    /** An ASCII text (a reject reason, say); characters outside printable ASCII are written as '?'. */
    public FixWriter field(int tag, CharSequence text) {
        tag(tag);
        writeText(text);
        buffer[position++] = SOH;
        return this;
    }

    /** A text then a number, as one value: "Required tag missing, field=" and 55 give "...field=55". */
    public FixWriter field(int tag, CharSequence text, long number) {
        tag(tag);
        writeText(text);
        writeLong(number);
        buffer[position++] = SOH;
        return this;
    }

    /** A price or other decimal given as an integer of {@code scale} decimal places: 15010 at scale 2 is 150.10. */
    public FixWriter decimal(int tag, long units, int scale) {
        tag(tag);
        writeDecimal(units, scale);
        buffer[position++] = SOH;
        return this;
    }

    /**
     * The quotient {@code numerator / denominator} of integers of {@code scale} decimal places, with
     * {@code extraDigits} more decimals, truncated: an average price from a notional and a quantity.
     */
    public FixWriter quotient(int tag, long numerator, long denominator, int scale, int extraDigits) {
        tag(tag);
        if (denominator == 0) {
            buffer[position++] = '0';
        } else {
            long whole = numerator / denominator;
            long fraction = (numerator % denominator) * POWERS_OF_TEN[extraDigits] / denominator;
            // whole has `scale` decimals; fraction adds `extraDigits` more.
            writeDecimal(whole * POWERS_OF_TEN[extraDigits] + fraction, scale + extraDigits);
        }
        buffer[position++] = SOH;
        return this;
    }

    /** A UTCTimestamp with milliseconds: YYYYMMDD-HH:MM:SS.sss. */
    public FixWriter timestamp(int tag, long epochNanos) {
        tag(tag);
        position += timestamps.write(epochNanos, buffer, position);
        buffer[position++] = SOH;
        return this;
    }

    /**
     * Appends fields already in FIX form ({@code tag=value<SOH>}...), verbatim: a body written earlier (see
     * {@link #bodyBytes}) put behind a header written now.
     */
    public FixWriter raw(byte[] source, int offset, int count) {
        System.arraycopy(source, offset, buffer, position, count);
        position += count;
        return this;
    }

    /** Where the next field goes: mark it before writing fields, and {@link #bodyBytes} copies them out. */
    public int position() {
        return position;
    }

    /** Copies the fields written since {@code mark} (a {@link #position()}) into {@code target}; returns how many bytes. */
    public int bodyBytes(int mark, byte[] target, int offset) {
        int count = position - mark;
        System.arraycopy(buffer, mark, target, offset, count);
        return count;
    }

    /** Copies a field of a parsed message verbatim. */
    public FixWriter copyField(FixMessage message, int field) {
        return field(message.tagAt(field), message.buffer(), message.valueStartAt(field), message.valueLengthAt(field));
    }

    /** Puts BeginString and BodyLength in front, CheckSum behind; returns the message length. */
    public int finish() {
        int bodyLength = position - ROOM_FOR_PREFIX;
        int digits = digitCount(bodyLength);
        start = ROOM_FOR_PREFIX - PREFIX.length - digits - 1;
        System.arraycopy(PREFIX, 0, buffer, start, PREFIX.length);
        int p = start + PREFIX.length + digits;
        buffer[p] = SOH;
        for (int v = bodyLength; digits > 0; digits--) {
            buffer[--p] = (byte) ('0' + v % 10);
            v /= 10;
        }
        int sum = 0;
        for (int k = start; k < position; k++) {
            sum += buffer[k];
        }
        sum &= 0xFF;
        buffer[position++] = '1';
        buffer[position++] = '0';
        buffer[position++] = '=';
        buffer[position++] = (byte) ('0' + sum / 100);
        buffer[position++] = (byte) ('0' + sum / 10 % 10);
        buffer[position++] = (byte) ('0' + sum % 10);
        buffer[position++] = SOH;
        length = position - start;
        return length;
    }

    /** The finished message: {@link #length()} bytes of {@link #buffer()} from {@link #start()}. */
    public byte[] buffer() {
        return buffer;
    }

    public int start() {
        return start;
    }

    public int length() {
        return length;
    }

    private void writeText(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            buffer[position++] = c >= ' ' && c < 127 ? (byte) c : (byte) '?';
        }
    }

    private void tag(int tag) {
        writeLong(tag);
        buffer[position++] = '=';
    }

    private void writeLong(long value) {
        if (value < 0) {
            buffer[position++] = '-';
            if (value == Long.MIN_VALUE) {
                throw new IllegalArgumentException("Long.MIN_VALUE");
            }
            value = -value;
        }
        int p = position + digitCount(value);
        position = p;
        // Two digits per division, right to left (tags, sequence numbers, quantities, ids: every field has one).
        while (value >= 100) {
            long quotient = value / 100;
            int pair = (int) (value - quotient * 100) << 1;
            buffer[--p] = DIGIT_PAIRS[pair + 1];
            buffer[--p] = DIGIT_PAIRS[pair];
            value = quotient;
        }
        if (value >= 10) {
            int pair = (int) value << 1;
            buffer[--p] = DIGIT_PAIRS[pair + 1];
            buffer[--p] = DIGIT_PAIRS[pair];
        } else {
            buffer[--p] = (byte) ('0' + value);
        }
    }

    /** Writes units / 10^scale with trailing zeros of the fraction dropped: 15010 at scale 2 is "150.1". */
    private void writeDecimal(long units, int scale) {
        if (units < 0) {
            buffer[position++] = '-';
            units = -units;
        }
        long divisor = 1;
        for (int i = 0; i < scale; i++) {
            divisor *= 10;
        }
        writeLong(units / divisor);
        long fraction = units % divisor;
        if (fraction == 0) {
            return;
        }
        int fractionDigits = scale;
        while (fraction % 10 == 0) {
            fraction /= 10;
            fractionDigits--;
        }
        buffer[position++] = '.';
        int p = position + fractionDigits;
        for (int i = 0; i < fractionDigits; i++) {
            buffer[--p] = (byte) ('0' + fraction % 10);
            fraction /= 10;
        }
        position += fractionDigits;
    }

    /** The decimal digits of a value >= 0, by comparisons (no division). */
    private static int digitCount(long value) {
        int digits = 1;
        while (digits < DIGITS_FROM.length && value >= DIGITS_FROM[digits]) {
            digits++;
        }
        return digits;
    }
}
