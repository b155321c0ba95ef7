package io.fixmatch.fix.session;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session's bookkeeping of journal positions, so that a restart after a crash repeats no report and loses no
 * request (docs/ARCHITECTURE.md, "Recovery"): the inbound position each request carries into the journal, the
 * requests handed to the engine until a stored report answers them (then they count as received for good:
 * {@link InboundSequence}), which engine events the store holds (their origins), the stored-through mark of a
 * snapshot or a clean stop, and at start the next expected number from what the journal holds. Reached through
 * {@link FixSession#journalPositions()}, on the session's thread.
 */
public final class JournalPositions {
    /** The session's own log lines (docs/OPERATIONS.md quotes them under FixSession). */
    private static final Logger LOG = LoggerFactory.getLogger(FixSession.class);

    private final String name;
    private final SessionStore store;
    private final InboundSequence inbound;
    private final SeenClientOrderIds seenClientOrderIds;

    JournalPositions(String name, SessionStore store, InboundSequence inbound, SeenClientOrderIds seenClientOrderIds) {
        this.name = name;
        this.store = store;
        this.inbound = inbound;
        this.seenClientOrderIds = seenClientOrderIds;
    }

    /**
     * The inbound position of the request with this MsgSeqNum (in the current reset epoch): the command carries it
     * into the journal.
     */
    public long inboundPosition(long seqNum) {
        return inbound.positionOf(seqNum);
    }

    /**
     * The order handler handed the request at this inbound position (the message being handled) to the engine: until
     * a report answering it is stored, the persisted next expected number stays at or below it.
     */
    public void requestQueued(long position) {
        inbound.queued(position);
    }

    /**
     * A report answering this session's request at {@code answeredInbound} (0: none) is stored: that request counts as
     * received for good, and its ClOrdID is no longer only in flight.
     */
    void answered(long answeredInbound) {
        if (answeredInbound != 0) {
            seenClientOrderIds.answered(answeredInbound);
            inbound.answered(answeredInbound);
            inbound.settle();
        }
    }

    /**
     * The origin of the last engine event whose report the store holds (events reach a session in origin order, so it
     * holds every one up to it): position, then ordinal.
     */
    public long lastStoredEventPosition() {
        return store.lastOriginPosition();
    }

    public int lastStoredEventOrdinal() {
        return store.lastOriginOrdinal();
    }

    /** Whether the store holds the report of the engine event with this origin ({@link FixSession#sendEventReport}). */
    public boolean holdsEvent(long journalPosition, int ordinal) {
        return store.holdsEvent(journalPosition, ordinal);
    }

    /** At a clean stop, once every event is stored: see {@link SessionStore#markStoredThrough}. */
    public void markEventsStoredThrough(long journalPosition) {
        store.markStoredThrough(journalPosition);
    }

    /** See {@link SessionStore#storedThroughPosition()}: 0 if the store knows no event. */
    public long eventsStoredThrough() {
        return store.storedThroughPosition();
    }

    /**
     * At start, after journal recovery, before any connection: {@code journaledPosition} is the inbound position of
     * the last request of this session the journal holds (0: none). Messages up to it count as received (the store
     * may lag: they were in flight at a crash); everything after is asked for again. Logs what it decided.
     */
    public void recoverInbound(long journaledPosition) {
        long stored = inbound.expected();
        long next = inbound.recover(journaledPosition);
        long seqNumMask = (1L << InboundSequence.SEQ_NUM_BITS) - 1;
        LOG.info("{}: recovered: next in {} (session store had {}, journal holds requests up to {}), next out {},"
                + " last engine event stored {}", name, next, stored,
            journaledPosition == 0 ? "none" : Long.toString(journaledPosition & seqNumMask)
                + " of epoch " + (journaledPosition >>> InboundSequence.SEQ_NUM_BITS),
            store.nextSenderSeqNum(), store.lastOrigin());
    }
}
