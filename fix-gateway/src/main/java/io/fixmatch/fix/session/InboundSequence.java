package io.fixmatch.fix.session;

import org.agrona.collections.LongArrayQueue;

/**
 * The next MsgSeqNum a session expects from its client, and what of it is safe to persist.
 *
 * <p>In memory the number advances as messages are handled. The store's copy (what a restart believes) must not
 * pass a request the engine has not journaled yet: a crash would then consume the message, and the client, told it
 * was received, would never resend it. So a request handed to the engine is {@link #queued} (in flight) until the
 * report that answers it is stored ({@link #answered}; the engine journals a command before any of its events
 * exist), and the store's copy stays at the oldest request in flight. After a crash, {@link #recover} raises it to
 * just past the last request the journal holds, so a request is asked for again only if the journal lacks it.
 *
 * <p>A request is known by its inbound position: the store's reset epoch and its MsgSeqNum, {@code epoch << 40 |
 * MsgSeqNum}, which the command carries into the journal; positions only grow, across resets too. Changes made while
 * a message is handled are written to the store when {@link #settle} runs, at the end of the handling, so a crash in
 * between leaves the store where it was. Owned by the session's thread; allocation-free unless more requests are in
 * flight than ever before.
 */
final class InboundSequence {
    static final int SEQ_NUM_BITS = 40;
    private static final long SEQ_NUM_MASK = (1L << SEQ_NUM_BITS) - 1;

    private final SessionStore store;
    /** Sized for more requests in flight than a session sends between two duty cycles; it grows (allocates) past. */
    private final LongArrayQueue inFlight = new LongArrayQueue(16_384, 0);
    private long expected;

    InboundSequence(SessionStore store) {
        this.store = store;
        this.expected = store.nextTargetSeqNum();
    }

    /** The next MsgSeqNum expected. */
    long expected() {
        return expected;
    }

    /** From now on {@code next} is expected; the store learns it at {@link #settle}. */
    void expect(long next) {
        expected = next;
    }

    /** The position of the message with this MsgSeqNum, in the current epoch. */
    long positionOf(long seqNum) {
        return store.epoch() << SEQ_NUM_BITS | (seqNum & SEQ_NUM_MASK);
    }

    /** A request went to the engine: the store's copy will not pass it until it is answered. */
    void queued(long position) {
        inFlight.addLong(position);
    }

    /** A report answering the request at {@code position} is stored: that request (and any before it) is safe. */
    void answered(long position) {
        while (!inFlight.isEmpty() && inFlight.peekLong() <= position) {
            inFlight.pollLong();
        }
    }

    /** Writes to the store what is safe: the oldest request in flight, or the expected number if none is. */
    void settle() {
        long safe = expected;
        if (!inFlight.isEmpty()) {
            long oldest = inFlight.peekLong();
            if (oldest >>> SEQ_NUM_BITS == store.epoch()) {
                safe = Math.min(safe, oldest & SEQ_NUM_MASK);
            }
        }
        if (store.nextTargetSeqNum() != safe) {
            store.nextTargetSeqNum(safe);
        }
    }

    /** Sequence numbers reset (Logon with ResetSeqNumFlag=Y): requests in flight belong to the old epoch. */
    void reset() {
        expected = store.nextTargetSeqNum();
        inFlight.clear();
    }

    /**
     * At start, after the journal is recovered: {@code journaledPosition} is the inbound position of this session's
     * last journaled request (0 if none). Returns the next expected MsgSeqNum.
     */
    long recover(long journaledPosition) {
        inFlight.clear();
        expected = store.nextTargetSeqNum();
        if (journaledPosition != 0 && journaledPosition >>> SEQ_NUM_BITS == store.epoch()) {
            expected = Math.max(expected, (journaledPosition & SEQ_NUM_MASK) + 1);
        }
        settle();
        return expected;
    }

    /** Requests handed to the engine and not answered yet. */
    int inFlight() {
        return inFlight.size();
    }
}
