package io.fixmatch.fix.codec;

import org.agrona.DirectBuffer;

/**
 * Finds FIX messages in a stream of bytes, where they lie, without copying: checks that a message starts with
 * {@code 8=FIX}, that {@code 9=} (BodyLength) follows, that {@code 10=nnn} (CheckSum) sits exactly where BodyLength
 * says, after a field's SOH, and that it matches, that the message is not larger than allowed, and that BeginString is FIX.4.4.
 *
 * <p>A message whose CheckSum is not where its BodyLength says is garbled up to that place (a BodyLength too long
 * so takes the start of the next message with it), then up to the next {@code 8=FIX}.
 *
 * <p>{@link #scan} looks at the bytes between {@code start} and {@code end} of a buffer and says what they are; the
 * caller then consumes {@link #length()} bytes from {@code start} (a frame, or garbage to skip) or waits for more.
 * The buffer is Agrona's {@link DirectBuffer}, so a socket's read buffer can be framed where it lies.
 * Allocation-free.
 */
public final class FixFramer {
    public static final byte SOH = 1;
    public static final byte[] BEGIN_STRING_FIX44 = {'F', 'I', 'X', '.', '4', '.', '4'};
    /** Every message, of any FIX version, starts so; anything else is garbage. */
    private static final byte[] MESSAGE_START = {'8', '=', 'F', 'I', 'X'};

    /** Not enough bytes yet for a whole message. */
    public static final int NEED_MORE = 0;
    /** A whole, valid FIX 4.4 message of {@link #length()} bytes. */
    public static final int FRAME = 1;
    /** {@link #length()} bytes that are not a message (noise, or a message whose BodyLength is wrong): skip. */
    public static final int GARBLED = 2;
    /** A well delimited message of {@link #length()} bytes whose CheckSum is wrong: skip. */
    public static final int BAD_CHECKSUM = 3;
    /** The next message declares a body larger than allowed: the stream cannot be trusted. */
    public static final int TOO_LARGE = 4;
    /** A well formed message of {@link #length()} bytes of another FIX version. */
    public static final int WRONG_BEGIN_STRING = 5;

    private static final int MAX_BEGIN_STRING = 16;
    private static final int MAX_BODY_LENGTH_DIGITS = 7;
    private static final int TRAILER_LENGTH = 7; // "10=nnn" + SOH

    private final int maxMessageSize;
    private int length;
    private int bodyLength;

    public FixFramer(int maxMessageSize) {
        this.maxMessageSize = maxMessageSize;
    }

    /** The byte count the last {@link #scan} result refers to. */
    public int length() {
        return length;
    }

    /** The BodyLength the last scanned message declared (for TOO_LARGE reports). */
    public int declaredBodyLength() {
        return bodyLength;
    }

    /** What the bytes {@code [start, end)} of {@code in} begin with; see the result constants. */
    public int scan(DirectBuffer in, int start, int end) {
        length = 0;
        int startLength = Math.min(end - start, MESSAGE_START.length);
        if (!matches(in, start, MESSAGE_START, startLength)) {
            return garbledUntilNextMessage(in, start, end);
        }
        if (startLength < MESSAGE_START.length) {
            return NEED_MORE;
        }
        int beginStringEnd = indexOfSoh(in, start + 2, Math.min(end, start + 2 + MAX_BEGIN_STRING + 1));
        if (beginStringEnd < 0) {
            return end - start > 2 + MAX_BEGIN_STRING ? garbledUntilNextMessage(in, start, end) : NEED_MORE;
        }
        int i = beginStringEnd + 1;
        if (end - i < 2) {
            return NEED_MORE;
        }
        if (in.getByte(i) != '9' || in.getByte(i + 1) != '=') {
            return garbledUntilNextMessage(in, start, end);
        }
        i += 2;
        int body = 0;
        int digits = 0;
        while (true) {
            if (i == end) {
                return NEED_MORE;
            }
            byte b = in.getByte(i);
            if (b == SOH) {
                break;
            }
            if (b < '0' || b > '9' || ++digits > MAX_BODY_LENGTH_DIGITS) {
                return garbledUntilNextMessage(in, start, end);
            }
            body = body * 10 + (b - '0');
            i++;
        }
        if (digits == 0) {
            return garbledUntilNextMessage(in, start, end);
        }
        bodyLength = body;
        int headerLength = i + 1 - start;
        int total = headerLength + body + TRAILER_LENGTH;
        if (total > maxMessageSize) {
            length = total;
            return TOO_LARGE;
        }
        if (end - start < total) {
            return NEED_MORE;
        }
        int trailer = start + headerLength + body;
        // The body ends with a field's SOH (or is empty: then the SOH is BodyLength's), and CheckSum follows it.
        if (in.getByte(trailer - 1) != SOH
            || in.getByte(trailer) != '1' || in.getByte(trailer + 1) != '0' || in.getByte(trailer + 2) != '='
            || in.getByte(trailer + TRAILER_LENGTH - 1) != SOH) {
            // A wrong BodyLength: everything up to where it pointed belongs to this message, as QuickFIX/J frames
            // it. One too long takes the start of the next message, which is then garbled too; the peer that
            // resends both in order sees no gap, and nothing of the next message can pass for a message.
            return garbledUntilNextMessage(in, start, trailer, end);
        }
        int declared = digit(in, trailer + 3) * 100 + digit(in, trailer + 4) * 10 + digit(in, trailer + 5);
        int sum = 0;
        for (int k = start; k < trailer; k++) {
            sum += in.getByte(k);
        }
        length = total;
        if (declared < 0 || (sum & 0xFF) != declared) {
            return BAD_CHECKSUM;
        }
        if (beginStringEnd - (start + 2) != BEGIN_STRING_FIX44.length || !matches(in, start + 2, BEGIN_STRING_FIX44)) {
            return WRONG_BEGIN_STRING;
        }
        return FRAME;
    }

    /**
     * Skips to the next place where a message may start: "8=FIX" not after a digit (so not inside a field such as
     * "18=FIX"). Near the end of what has arrived, bytes that may be the beginning of one are kept, and so is the
     * last byte (it decides whether what follows it can start a message): the result must not depend on how the
     * stream was cut into reads.
     */
    private int garbledUntilNextMessage(DirectBuffer in, int start, int end) {
        return garbledUntilNextMessage(in, start, start + 1, end);
    }

    /** As {@link #garbledUntilNextMessage(DirectBuffer, int, int)}, looking for the next start from {@code from}. */
    private int garbledUntilNextMessage(DirectBuffer in, int start, int from, int end) {
        for (int k = from; k < end; k++) {
            int available = Math.min(end - k, MESSAGE_START.length);
            if (!isDigit(in.getByte(k - 1)) && matches(in, k, MESSAGE_START, available)) {
                length = k - start;
                return GARBLED;
            }
        }
        // The next read starts at what is kept: an '8' after a digit must keep that digit, or it would pass for a start.
        int keep = end - start >= 2 && in.getByte(end - 1) == '8' && isDigit(in.getByte(end - 2)) ? 2 : 1;
        length = end - start - keep;
        return length > 0 ? GARBLED : NEED_MORE;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static int indexOfSoh(DirectBuffer in, int from, int to) {
        for (int k = from; k < to; k++) {
            if (in.getByte(k) == SOH) {
                return k;
            }
        }
        return -1;
    }

    private static int digit(DirectBuffer in, int index) {
        int d = in.getByte(index) - '0';
        return d >= 0 && d <= 9 ? d : -1000;
    }

    private static boolean matches(DirectBuffer in, int from, byte[] expected) {
        return matches(in, from, expected, expected.length);
    }

    /** Whether the {@code count} bytes at {@code from} are the first {@code count} of {@code expected}. */
    private static boolean matches(DirectBuffer in, int from, byte[] expected, int count) {
        for (int k = 0; k < count; k++) {
            if (in.getByte(from + k) != expected[k]) {
                return false;
            }
        }
        return true;
    }
}
