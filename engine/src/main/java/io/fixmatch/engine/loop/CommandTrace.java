package io.fixmatch.engine.loop;

/**
 * The System.nanoTime() stamps of one traced command on its way through the server: set by the gateway (socket
 * read, ring offer) and the matching thread (match start, journal done, match done). They travel beside the command
 * in the inbound ring and beside each of its events in the outbound ring, never inside the journaled command
 * bytes. Mutable and reused: a consumer must copy what it keeps.
 */
public final class CommandTrace {
    /** Stamps a command carries through the inbound ring: socket read, ring offer. */
    public static final int INBOUND_LENGTH = 2 * Long.BYTES;
    /** Stamps an event carries through the outbound ring: the inbound two, match start, journal done, match done. */
    public static final int OUTBOUND_LENGTH = 5 * Long.BYTES;

    private long socketReadNanos;
    private long ringOfferNanos;
    private long matchStartNanos;
    private long journalDoneNanos;
    private long matchDoneNanos;

    /** The gateway read the request's bytes from the socket. */
    public long socketReadNanos() {
        return socketReadNanos;
    }

    /** The gateway offered the command to the inbound ring. */
    public long ringOfferNanos() {
        return ringOfferNanos;
    }

    /** The matching thread took the command from the inbound ring. */
    public long matchStartNanos() {
        return matchStartNanos;
    }

    /** The journal append returned (equal to the match start for commands that are not journaled). */
    public long journalDoneNanos() {
        return journalDoneNanos;
    }

    /** The engine finished the command: all its events were on the outbound ring. */
    public long matchDoneNanos() {
        return matchDoneNanos;
    }

    CommandTrace inbound(long socketRead, long ringOffer) {
        socketReadNanos = socketRead;
        ringOfferNanos = ringOffer;
        matchStartNanos = 0;
        journalDoneNanos = 0;
        matchDoneNanos = 0;
        return this;
    }

    void matchStart(long nanos) {
        matchStartNanos = nanos;
    }

    void journalDone(long nanos) {
        journalDoneNanos = nanos;
    }

    void matchDone(long nanos) {
        matchDoneNanos = nanos;
    }

    /** Sets every stamp (the consumer side, from the outbound ring; tests). */
    public CommandTrace set(long socketRead, long ringOffer, long matchStart, long journalDone, long matchDone) {
        socketReadNanos = socketRead;
        ringOfferNanos = ringOffer;
        matchStartNanos = matchStart;
        journalDoneNanos = journalDone;
        matchDoneNanos = matchDone;
        return this;
    }

    @Override
    public String toString() {
        return "trace read=" + socketReadNanos + " offer=" + ringOfferNanos + " matchStart=" + matchStartNanos
            + " journalDone=" + journalDoneNanos + " matchDone=" + matchDoneNanos;
    }
}
