package io.fixmatch.feed.handler;

/** What a {@link FeedHandler} counts: read on any thread (written by the handler's only). */
public final class FeedHealth {
    volatile long messagesApplied;
    volatile long datagrams;
    volatile long heartbeats;
    volatile long duplicates;
    volatile long gaps;
    volatile long retransmitRequests;
    volatile long retransmittedMessages;
    volatile long retransmitRejects;
    volatile long retransmitTimeouts;
    volatile long snapshotRecoveries;
    volatile long lastApplied;
    volatile long highestSeen;
    /** When the stream last delivered a datagram (System.nanoTime; 0: never). */
    volatile long lastDatagramNanos;

    public long messagesApplied() {
        return messagesApplied;
    }

    public long datagrams() {
        return datagrams;
    }

    public long heartbeats() {
        return heartbeats;
    }

    /** Messages received again (a datagram duplicated, or a retransmission of what had come meanwhile). */
    public long duplicates() {
        return duplicates;
    }

    /** Gaps found in the stream (each recovered by retransmission or a snapshot). */
    public long gaps() {
        return gaps;
    }

    public long retransmitRequests() {
        return retransmitRequests;
    }

    /** Messages that came by retransmission and were applied. */
    public long retransmittedMessages() {
        return retransmittedMessages;
    }

    public long retransmitRejects() {
        return retransmitRejects;
    }

    public long retransmitTimeouts() {
        return retransmitTimeouts;
    }

    /** Times the books were rebuilt from the snapshot channel (the join counts as one). */
    public long snapshotRecoveries() {
        return snapshotRecoveries;
    }

    /** The sequence number of the last message applied (0: none). */
    public long lastApplied() {
        return lastApplied;
    }

    /** The highest sequence number seen on the stream (a heartbeat's says the next one). */
    public long highestSeen() {
        return highestSeen;
    }

    /** When the stream last delivered a datagram, heartbeats included (System.nanoTime; 0: never). */
    public long lastDatagramNanos() {
        return lastDatagramNanos;
    }

    /** Messages the publisher has sent that the books do not reflect yet. */
    public long lag() {
        return Math.max(0, highestSeen - lastApplied);
    }

    @Override
    public String toString() {
        return "applied " + messagesApplied + " (last " + lastApplied + ", lag " + lag() + "), gaps " + gaps
            + ", retransmitted " + retransmittedMessages + " in " + retransmitRequests + " requests (" + retransmitRejects
            + " refused, " + retransmitTimeouts + " timed out), snapshots " + snapshotRecoveries + ", duplicates "
            + duplicates;
    }
}
