package io.fixmatch.fix.session;

import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixWriter;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A session's side of a cluster that owns the sessions: the cluster decides who holds the session and gives every
 * message it sends its MsgSeqNum, so the session asks instead of deciding. A Logon claims the session; a message of
 * the session's own (a Logon answer aside: the grant numbers it) goes to the cluster as an OUT and is written when it
 * comes back numbered, in order with the reports; a ResendRequest is answered from the cluster's copy of every
 * message; the end of a connection releases the session. While OUTs are on their way, a close waits for them (a
 * Logout is written before the connection closes), at most {@link #CLOSE_WAIT_MS}.
 *
 * <p>Owned by the session's gateway thread, like the session.
 */
final class ClusterNumbering {
    /** How long a close waits for the session's own messages to come back numbered before it closes without them. */
    static final long CLOSE_WAIT_MS = 2_000;

    private final int owner;
    private final SessionRequests requests;
    private final UnsafeBuffer request;
    /** OUTs sent and not yet back numbered. */
    private int outstanding;
    /** A close asked for while OUTs were outstanding: when it was asked (0: none). */
    private long closeAskedMs;
    /** While a Logon's claim waits for the cluster's answer. */
    private boolean claiming;
    /** The client's Logon of the claim, kept for when it is granted, and its MsgSeqNum. */
    private final QueuedMessages claimedLogon;
    private long claimedSeqNum;
    /** A resend in progress: the first number of a run of gap fills not written yet (0: none). */
    private long gapStart;

    ClusterNumbering(int owner, SessionRequests requests, int maxMessageSize) {
        this.owner = owner;
        this.requests = requests;
        this.request = new UnsafeBuffer(new byte[SessionCodec.OUT_HEADER_LENGTH + maxMessageSize]);
        this.claimedLogon = new QueuedMessages(Math.max(4096, maxMessageSize));
    }

    int owner() {
        return owner;
    }

    // --- the claim ---

    void claim(FixMessage logon, long logonSeqNum, boolean reset, long tradingSessionStartMs) {
        claiming = true;
        claimedLogon.clear();
        claimedLogon.add(logonSeqNum, logon);
        claimedSeqNum = logonSeqNum;
        int length = SessionCodec.encodeClaim(request, 0, owner, logonSeqNum, reset, tradingSessionStartMs);
        requests.submit(SessionCodec.CLAIM, request, 0, length);
    }

    boolean claiming() {
        return claiming;
    }

    /** The claim is answered: the Logon it was for (valid until the next claim), or null if none waits. */
    FixMessage claimAnswered() {
        claiming = false;
        return claimedLogon.take(claimedSeqNum);
    }

    void release() {
        int length = SessionCodec.encodeOwner(request, 0, owner);
        requests.submit(SessionCodec.RELEASE, request, 0, length);
    }

    /** A Logon with ResetSeqNumFlag=Y on the logged-on session: the cluster resets, and answers as to a claim. */
    void reset(FixMessage logon) {
        claiming = true;
        claimedLogon.clear();
        claimedSeqNum = 1;
        claimedLogon.add(claimedSeqNum, logon);
        int length = SessionCodec.encodeOwner(request, 0, owner);
        requests.submit(SessionCodec.RESET, request, 0, length);
    }

    // --- the session's own messages ---

    /**
     * Sends the body just written by {@code writer} since {@code bodyMark} (fields after the standard header) to be
     * numbered. {@code flags}: {@link SessionCodec#STORED} and {@link SessionCodec#COPIED}.
     */
    void out(FixWriter writer, int bodyMark, int msgType, int flags, long answeredInbound) {
        byte[] target = request.byteArray();
        int bodyLength = writer.bodyBytes(bodyMark, target, SessionCodec.OUT_HEADER_LENGTH);
        SessionCodec.encodeOutHeader(request, 0, owner, flags, answeredInbound, msgType);
        requests.submit(SessionCodec.OUT, request, 0, SessionCodec.OUT_HEADER_LENGTH + bodyLength);
        outstanding++;
    }

    /** One of this session's OUTs came back numbered. */
    void numbered() {
        if (outstanding > 0) {
            outstanding--;
        }
    }

    /** OUTs sent and not back yet. */
    int outstanding() {
        return outstanding;
    }

    /** A close is asked for: whether it must wait for outstanding OUTs (then {@link #closeDue} says when). */
    boolean deferClose(long nowMs) {
        if (outstanding == 0) {
            return false;
        }
        if (closeAskedMs == 0) {
            closeAskedMs = nowMs;
        }
        return true;
    }

    /** Whether a deferred close is due: its OUTs are written, or it waited long enough. */
    boolean closeDue(long nowMs) {
        return closeAskedMs != 0 && (outstanding == 0 || nowMs - closeAskedMs >= CLOSE_WAIT_MS);
    }

    /** The connection is gone: nothing waits for it any more. */
    void connectionGone() {
        closeAskedMs = 0;
        outstanding = 0;
        claiming = false;
        gapStart = 0;
    }

    // --- resends ---

    void resend(long begin, long last) {
        int length = SessionCodec.encodeResend(request, 0, owner, begin, last);
        requests.submit(SessionCodec.RESEND, request, 0, length);
    }

    /** A number of the resend with nothing to resend: joins the run of gap fills, or starts one. */
    void gap(long seqNum) {
        if (gapStart == 0) {
            gapStart = seqNum;
        }
    }

    /** The start of the run of gap fills before {@code seqNum} not written yet, or 0; the run is over. */
    long takeGapBefore() {
        long start = gapStart;
        gapStart = 0;
        return start;
    }
}
