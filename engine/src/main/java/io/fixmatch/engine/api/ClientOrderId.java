package io.fixmatch.engine.api;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A client's order id (FIX ClOrdID) held as ASCII bytes in fixed storage, so that commands, orders and events
 * can carry it without allocating. Ids longer than {@link #MAX_LENGTH} are refused at the edge.
 */
public final class ClientOrderId {
    /** Longest id accepted: room for a UUID with dashes (36) and a little more. */
    public static final int MAX_LENGTH = 40;

    /** Reads eight bytes of an id as one word, for {@link #contentHash}. */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** An odd 64-bit constant (2^64 / golden ratio): multiplying by it spreads every input bit upwards. */
    private static final long MIX = 0x9E3779B97F4A7C15L;

    private final byte[] bytes = new byte[(MAX_LENGTH + Long.BYTES - 1) & -Long.BYTES]; // whole words (contentHash)
    private int length;

    public int length() {
        return length;
    }

    public boolean isEmpty() {
        return length == 0;
    }

    public byte byteAt(int index) {
        return bytes[index];
    }

    public void clear() {
        length = 0;
    }

    public void copyFrom(ClientOrderId other) {
        System.arraycopy(other.bytes, 0, bytes, 0, other.length);
        length = other.length;
    }

    /** Copies {@code count} bytes; returns false (and leaves this id unchanged) when they do not fit. */
    public boolean copyFrom(byte[] source, int offset, int count) {
        if (count < 0 || count > MAX_LENGTH) {
            return false;
        }
        System.arraycopy(source, offset, bytes, 0, count);
        length = count;
        return true;
    }

    /** Copies an ASCII text; returns false (and leaves this id unchanged) when it does not fit. */
    public boolean copyFrom(CharSequence text) {
        int count = text.length();
        if (count > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            bytes[i] = (byte) text.charAt(i);
        }
        length = count;
        return true;
    }

    /** Reads {@code count} bytes (at most {@link #MAX_LENGTH}: the caller has checked) from a buffer. */
    public void readFrom(DirectBuffer source, int offset, int count) {
        source.getBytes(offset, bytes, 0, count);
        length = count;
    }

    /** Writes the id's bytes into a buffer; returns the number of bytes written. */
    public int writeTo(MutableDirectBuffer target, int offset) {
        target.putBytes(offset, bytes, 0, length);
        return length;
    }

    /** Copies the id into {@code target} at {@code offset}; returns the number of bytes written. */
    public int copyTo(byte[] target, int offset) {
        System.arraycopy(bytes, 0, target, offset, length);
        return length;
    }

    public boolean contentEquals(ClientOrderId other) {
        if (other.length != length) {
            return false;
        }
        return Arrays.equals(bytes, 0, length, other.bytes, 0, length); // (the JDK compares words at a time)
    }

    /**
     * A hash of the bytes taken eight at a time (a byte-at-a-time hash pays a dependent multiply per character, and
     * every new order and cancel hashes its id): each word mixed in by a multiply with an odd constant (a bijection,
     * so ids of one word never collide before the fold), the last word padded with zeros (the bytes past the length
     * are a previous id's), the length as the seed, the two halves folded. The order index spreads it further.
     */
    public int contentHash() {
        long hash = length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            hash = (hash ^ (long) WORDS.get(bytes, i)) * MIX;
        }
        if (i < length) { // the array holds whole words: the word read stays inside it
            long tail = (long) WORDS.get(bytes, i) & (-1L >>> ((Long.BYTES - (length - i)) * Byte.SIZE));
            hash = (hash ^ tail) * MIX;
        }
        return (int) (hash ^ (hash >>> 32));
    }

    /** Allocates: for logs, tests and tools, never the hot path. */
    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.US_ASCII);
    }
}
