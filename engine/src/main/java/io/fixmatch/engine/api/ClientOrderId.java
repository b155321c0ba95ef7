package io.fixmatch.engine.api;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * A client's order id (FIX ClOrdID) held as ASCII bytes in fixed storage, so that commands, orders and events
 * can carry it without allocating. Ids longer than {@link #MAX_LENGTH} are refused at the edge.
 */
public final class ClientOrderId {
    /** Longest id accepted: room for a UUID with dashes (36) and a little more. */
    public static final int MAX_LENGTH = 40;

    private final byte[] bytes = new byte[MAX_LENGTH];
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
        for (int i = 0; i < length; i++) {
            if (bytes[i] != other.bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** FNV-1a over the bytes: cheap, allocation-free, and spreads short numeric ids well. */
    public int contentHash() {
        int hash = 0x811C9DC5;
        for (int i = 0; i < length; i++) {
            hash ^= bytes[i];
            hash *= 0x01000193;
        }
        return hash;
    }

    /** Allocates: for logs, tests and tools, never the hot path. */
    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.US_ASCII);
    }
}
