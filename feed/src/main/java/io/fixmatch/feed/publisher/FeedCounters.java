package io.fixmatch.feed.publisher;

/**
 * What the publisher's thread counts, for the admin endpoint ({@code GET /feed}, {@code fixmatch_feed_*}): written by
 * that thread only (plain increments of volatile fields: one writer), read by any.
 */
public final class FeedCounters {
    volatile long lastSequence;
    volatile long messages;
    volatile long datagrams;
    volatile long heartbeats;
    volatile long snapshotCycles;
    volatile long snapshotDatagrams;
    volatile long retransmitRequests;
    volatile long retransmittedMessages;
    volatile long retransmitRejects;
    volatile long lostMessages;
    volatile long sendFailures;
    volatile int retransmitPort = -1;

    /** The number of the last message published (0: none yet). */
    public long lastSequence() {
        return lastSequence;
    }

    public long messages() {
        return messages;
    }

    /** Datagrams sent on the stream (heartbeats included), per destination counted once. */
    public long datagrams() {
        return datagrams;
    }

    public long heartbeats() {
        return heartbeats;
    }

    public long snapshotCycles() {
        return snapshotCycles;
    }

    public long snapshotDatagrams() {
        return snapshotDatagrams;
    }

    public long retransmitRequests() {
        return retransmitRequests;
    }

    /** Messages sent again on request. */
    public long retransmittedMessages() {
        return retransmittedMessages;
    }

    public long retransmitRejects() {
        return retransmitRejects;
    }

    /**
     * Numbers the publisher never received (a gateway of a cluster away while they were made): handlers recover
     * them by a snapshot.
     */
    public long lostMessages() {
        return lostMessages;
    }

    public long sendFailures() {
        return sendFailures;
    }

    /** The retransmission service's UDP port; -1: none. */
    public int retransmitPort() {
        return retransmitPort;
    }
}
