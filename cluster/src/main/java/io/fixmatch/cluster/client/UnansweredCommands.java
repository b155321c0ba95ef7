package io.fixmatch.cluster.client;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The commands a gateway has sent the cluster and heard no answer to yet, oldest first, each with its gateway
 * sequence and the time it was taken: kept until the batch answering it arrives, so that whatever a leader change
 * lost is offered again ({@link #rewind}), and the cluster applies each exactly once (it passes over sequences it has
 * applied). Also the cursor of what still has to be offered to the current leader. Bounded: when full, the gateway
 * stops taking commands from its inbound ring (which then refuses new requests as busy).
 *
 * <p>Entries back to back in one preallocated buffer: i64 sequence, i64 taken (System.nanoTime), i32 ring record
 * type, i32 length, the record's bytes. Compacted when the oldest leave. One thread.
 */
final class UnansweredCommands {
    static final int ENTRY_HEADER = 2 * Long.BYTES + 2 * Integer.BYTES;
    private static final int SEQUENCE = 0;
    private static final int TAKEN = 8;
    private static final int TYPE = 16;
    private static final int LENGTH = 20;

    private final UnsafeBuffer bytes;
    private int head;
    private int tail;
    /** Where the next entry to offer starts (tail: everything has been offered). */
    private int cursor;
    private int count;

    UnansweredCommands(int capacityBytes) {
        bytes = new UnsafeBuffer(ByteBuffer.allocateDirect(capacityBytes));
    }

    /** Keeps a command sent as {@code sequence}; false if there is no room (try again once some are answered). */
    boolean add(long sequence, long takenNanos, int recordType, DirectBuffer source, int offset, int length) {
        int needed = ENTRY_HEADER + length;
        if (tail + needed > bytes.capacity()) {
            compact();
            if (tail + needed > bytes.capacity()) {
                return false;
            }
        }
        bytes.putLong(tail + SEQUENCE, sequence);
        bytes.putLong(tail + TAKEN, takenNanos);
        bytes.putInt(tail + TYPE, recordType);
        bytes.putInt(tail + LENGTH, length);
        bytes.putBytes(tail + ENTRY_HEADER, source, offset, length);
        tail += needed;
        count++;
        return true;
    }

    /**
     * Every command up to {@code sequence} is answered: they leave. Returns when the last of them was taken
     * (System.nanoTime), or 0 if none was kept: the cluster heard from this gateway after that instant.
     */
    long answeredThrough(long sequence) {
        long lastTaken = 0;
        while (count > 0 && bytes.getLong(head + SEQUENCE) <= sequence) {
            lastTaken = bytes.getLong(head + TAKEN);
            boolean cursorAtHead = cursor == head;
            head += ENTRY_HEADER + bytes.getInt(head + LENGTH);
            count--;
            if (cursorAtHead || cursor < head) {
                cursor = head;
            }
        }
        if (count == 0) {
            head = 0;
            tail = 0;
            cursor = 0;
        }
        return lastTaken;
    }

    private void compact() {
        if (head == 0) {
            return;
        }
        bytes.putBytes(0, bytes, head, tail - head);
        tail -= head;
        cursor -= head;
        head = 0;
    }

    /** Everything kept is to be offered again (a new leader, or answers overdue). */
    void rewind() {
        cursor = head;
    }

    boolean hasUnoffered() {
        return cursor < tail;
    }

    /** The next command to offer: its entry's offset in {@link #buffer()}. */
    int next() {
        return cursor;
    }

    /** The command at {@link #next()} was offered. */
    void offered() {
        cursor += ENTRY_HEADER + bytes.getInt(cursor + LENGTH);
    }

    UnsafeBuffer buffer() {
        return bytes;
    }

    static long sequence(DirectBuffer buffer, int entry) {
        return buffer.getLong(entry + SEQUENCE);
    }

    static int recordType(DirectBuffer buffer, int entry) {
        return buffer.getInt(entry + TYPE);
    }

    static int length(DirectBuffer buffer, int entry) {
        return buffer.getInt(entry + LENGTH);
    }

    int count() {
        return count;
    }

    int bytesHeld() {
        return tail - head;
    }

    /** When the oldest unanswered command was taken (System.nanoTime); only if {@link #count()} > 0. */
    long oldestTakenNanos() {
        return bytes.getLong(head + TAKEN);
    }
}
