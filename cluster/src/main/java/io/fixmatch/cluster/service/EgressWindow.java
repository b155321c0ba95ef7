package io.fixmatch.cluster.service;

import io.fixmatch.cluster.protocol.Egress;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * One gateway's egress batches that it has not acknowledged yet, oldest first, so that whatever a leader change lost
 * on the way can be sent again: the gateway asks to resume after the last batch it got (same process) or says hello
 * again (a restarted gateway), and gets these. Batches leave when the gateway acknowledges them (their reports are in
 * its stores). Bounded: a gateway that stays away long enough to fill it loses the oldest batches, and is told so.
 *
 * <p>Held as BATCH messages back to back, each preceded by its i32 length, in one buffer that grows up to the bound
 * and is compacted as batches leave. Part of the replicated state: written into snapshots, changed only by the log.
 */
final class EgressWindow {
    private static final int INITIAL_BYTES = 64 * 1024;

    private final int maxBytes;
    private final ExpandableArrayBuffer bytes = new ExpandableArrayBuffer(INITIAL_BYTES);
    private int head;
    private int tail;
    /** The egress sequence of the oldest batch held, or of the next one when none is. */
    private long oldestSequence = 1;
    private int count;
    private long lostBatches;

    EgressWindow(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Keeps a batch (its sequence must follow the last one kept); the oldest leave if there is no room. */
    void add(DirectBuffer batch, int offset, int length) {
        int needed = Integer.BYTES + length;
        if (needed > maxBytes) {
            throw new IllegalArgumentException("an egress batch of " + length + " bytes exceeds the window of "
                + maxBytes);
        }
        while (tail - head + needed > maxBytes) {
            dropOldest();
            lostBatches++;
        }
        if (tail + needed > bytes.capacity()) {
            compact();
        }
        if (count == 0) {
            oldestSequence = Egress.batchEgressSequence(batch, offset);
        }
        bytes.putInt(tail, length);
        bytes.putBytes(tail + Integer.BYTES, batch, offset, length);
        tail += needed;
        count++;
    }

    /** The gateway holds every batch up to this sequence: they leave. */
    void release(long storedThrough) {
        while (count > 0 && oldestSequence <= storedThrough) {
            dropOldest();
        }
        if (count == 0 && storedThrough >= oldestSequence) {
            oldestSequence = storedThrough + 1;
        }
    }

    private void dropOldest() {
        int length = bytes.getInt(head);
        head += Integer.BYTES + length;
        count--;
        oldestSequence++;
        if (count == 0) {
            head = 0;
            tail = 0;
        }
    }

    private void compact() {
        if (head > 0) {
            bytes.putBytes(0, bytes, head, tail - head);
            tail -= head;
            head = 0;
        }
    }

    /** Hands every batch after {@code afterSequence} to {@code visitor}, oldest first. */
    void forEachAfter(long afterSequence, BatchVisitor visitor) {
        long sequence = oldestSequence;
        for (int at = head; at < tail; sequence++) {
            int length = bytes.getInt(at);
            if (sequence > afterSequence) {
                visitor.visit(bytes, at + Integer.BYTES, length);
            }
            at += Integer.BYTES + length;
        }
    }

    /** The sequence of the oldest batch held (of the next batch when empty): anything older is gone. */
    long oldestSequence() {
        return oldestSequence;
    }

    int count() {
        return count;
    }

    int bytesHeld() {
        return tail - head;
    }

    /** Batches dropped unacknowledged because the window was full (a gateway away too long). */
    long lostBatches() {
        return lostBatches;
    }

    /** Restores the window from a snapshot: its lost count and oldest sequence, then {@link #add} each batch. */
    void restore(long oldest, long lost) {
        head = 0;
        tail = 0;
        count = 0;
        oldestSequence = oldest;
        lostBatches = lost;
    }

    interface BatchVisitor {
        void visit(DirectBuffer buffer, int offset, int length);
    }
}
