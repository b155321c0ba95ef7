package io.fixmatch.engine.api;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A client's order id (FIX ClOrdID) held as ASCII bytes in fixed storage, so that commands, orders and events
 * can carry it without allocating. Ids longer than {@link #MAX_LENGTH} are refused at the edge.
 *
 * <p>The bytes live in five long fields, eight to a word, little-endian (byte i is bits 8 * (i % 8) and up of word
 * i / 8), not in a byte array: an order's id is then part of one small object the order points to, not two, which
 * matters because looking an order up by its id (every cancel, every new order's duplicate check) is a chain of
 * cache misses. Bytes past the length are always zero, so equality and hashing compare whole words.
 */
public final class ClientOrderId {
    /** Longest id accepted: room for a UUID with dashes (36) and a little more. */
    public static final int MAX_LENGTH = 40;

    private static final int WORDS = MAX_LENGTH / Long.BYTES;
    /** An odd 64-bit constant (2^64 / golden ratio): multiplying by it spreads every input bit upwards. */
    private static final long MIX = 0x9E3779B97F4A7C15L;

    private long word0;
    private long word1;
    private long word2;
    private long word3;
    private long word4;
    private int length;

    public int length() {
        return length;
    }

    public boolean isEmpty() {
        return length == 0;
    }

    public byte byteAt(int index) {
        return (byte) (word(index >>> 3) >>> ((index & 7) << 3));
    }

    public void clear() {
        word0 = 0;
        word1 = 0;
        word2 = 0;
        word3 = 0;
        word4 = 0;
        length = 0;
    }

    public void copyFrom(ClientOrderId other) {
        word0 = other.word0;
        word1 = other.word1;
        word2 = other.word2;
        word3 = other.word3;
        word4 = other.word4;
        length = other.length;
    }

    /** Copies {@code count} bytes; returns false (and leaves this id unchanged) when they do not fit. */
    public boolean copyFrom(byte[] source, int offset, int count) {
        if (count < 0 || count > MAX_LENGTH) {
            return false;
        }
        for (int k = 0; k < WORDS; k++) {
            long word = 0;
            for (int i = k * Long.BYTES, end = Math.min(count, i + Long.BYTES); i < end; i++) {
                word |= (source[offset + i] & 0xFFL) << ((i & 7) << 3);
            }
            word(k, word);
        }
        length = count;
        return true;
    }

    /** Copies an ASCII text; returns false (and leaves this id unchanged) when it does not fit. */
    public boolean copyFrom(CharSequence text) {
        int count = text.length();
        if (count > MAX_LENGTH) {
            return false;
        }
        for (int k = 0; k < WORDS; k++) {
            long word = 0;
            for (int i = k * Long.BYTES, end = Math.min(count, i + Long.BYTES); i < end; i++) {
                word |= (text.charAt(i) & 0xFFL) << ((i & 7) << 3);
            }
            word(k, word);
        }
        length = count;
        return true;
    }

    /** Reads {@code count} bytes (at most {@link #MAX_LENGTH}: the caller has checked) from a buffer. */
    public void readFrom(DirectBuffer source, int offset, int count) {
        for (int k = 0; k < WORDS; k++) {
            int start = k * Long.BYTES;
            int left = count - start;
            long word;
            if (left >= Long.BYTES) {
                word = source.getLong(offset + start, ByteOrder.LITTLE_ENDIAN);
            } else {
                word = 0;
                for (int i = 0; i < left; i++) { // the last, partial word: never read past the id
                    word |= (source.getByte(offset + start + i) & 0xFFL) << (i << 3);
                }
            }
            word(k, word);
        }
        length = count;
    }

    /** Writes the id's bytes into a buffer; returns the number of bytes written. */
    public int writeTo(MutableDirectBuffer target, int offset) {
        int start = 0;
        for (; start + Long.BYTES <= length; start += Long.BYTES) {
            target.putLong(offset + start, word(start >>> 3), ByteOrder.LITTLE_ENDIAN);
        }
        for (int i = start; i < length; i++) { // the last, partial word: never write past the id
            target.putByte(offset + i, byteAt(i));
        }
        return length;
    }

    /** Copies the id into {@code target} at {@code offset}; returns the number of bytes written. */
    public int copyTo(byte[] target, int offset) {
        for (int i = 0; i < length; i++) {
            target[offset + i] = byteAt(i);
        }
        return length;
    }

    public boolean contentEquals(ClientOrderId other) {
        return length == other.length && word0 == other.word0 && word1 == other.word1 && word2 == other.word2
            && word3 == other.word3 && word4 == other.word4;
    }

    /**
     * A hash of the words (the bytes past the length are zero, so equal ids hash equal): each word multiplied by an
     * odd constant of its own (a bijection, so ids of one word never collide before the fold; the multiplies do not
     * wait on each other), the length added, mixed once more, the two halves folded. The order index spreads it
     * further.
     */
    public int contentHash() {
        long hash = word0 * MIX ^ word1 * 0xC2B2AE3D27D4EB4FL ^ word2 * 0x165667B19E3779F9L
            ^ word3 * 0xD6E8FEB86659FD93L ^ word4 * 0xFF51AFD7ED558CCDL;
        hash = (hash + length) * MIX;
        return (int) (hash ^ (hash >>> 32));
    }

    /** Allocates: for logs, tests and tools, never the hot path. */
    @Override
    public String toString() {
        byte[] bytes = new byte[length];
        copyTo(bytes, 0);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private long word(int k) {
        return switch (k) {
            case 0 -> word0;
            case 1 -> word1;
            case 2 -> word2;
            case 3 -> word3;
            default -> word4;
        };
    }

    private void word(int k, long word) {
        switch (k) {
            case 0 -> word0 = word;
            case 1 -> word1 = word;
            case 2 -> word2 = word;
            case 3 -> word3 = word;
            default -> word4 = word;
        }
    }
}
