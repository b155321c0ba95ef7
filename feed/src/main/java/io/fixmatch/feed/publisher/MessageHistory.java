package io.fixmatch.feed.publisher;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The newest messages of the stream, by sequence number, for the retransmission service: a ring of fixed slots (one
 * message each, its length first), overwritten as the stream goes on. One thread: the publisher's.
 */
final class MessageHistory {
    static final int SLOT_BYTES = 64;
    private final UnsafeBuffer slots;
    private final int mask;
    private long first = 1;
    private long last;

    MessageHistory(int capacity) {
        slots = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity * SLOT_BYTES));
        mask = capacity - 1;
    }

    /** Starts empty, the next message to come being {@code lastSequence + 1}. */
    void startAfter(long lastSequence) {
        first = lastSequence + 1;
        last = lastSequence;
    }

    /** Keeps message {@code sequence} (the next one: {@code last() + 1}). */
    void add(long sequence, DirectBuffer message, int offset, int length) {
        if (length > SLOT_BYTES - 1) {
            throw new IllegalArgumentException("a stream message of " + length + " bytes");
        }
        int at = slot(sequence);
        slots.putByte(at, (byte) length);
        slots.putBytes(at + 1, message, offset, length);
        last = sequence;
        if (last - first + 1 > mask + 1) {
            first = last - mask;
        }
    }

    /** The oldest number held (more than {@link #last()} when none is). */
    long first() {
        return first;
    }

    long last() {
        return last;
    }

    /** Copies message {@code sequence} (held: first..last) to {@code into}; returns its length. */
    int copy(long sequence, MutableDirectBuffer into, int offset) {
        int at = slot(sequence);
        int length = slots.getByte(at) & 0xFF;
        into.putBytes(offset, slots, at + 1, length);
        return length;
    }

    private int slot(long sequence) {
        return (int) (sequence & mask) * SLOT_BYTES;
    }
}
