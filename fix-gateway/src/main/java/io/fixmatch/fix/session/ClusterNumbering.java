package io.fixmatch.fix.session;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
    private static final Logger LOG = LoggerFactory.getLogger(ClusterNumbering.class);
    /** How long a close waits for the session's own messages to come back numbered before it closes without them. */
    static final long CLOSE_WAIT_MS = 2_000;
    /** How long a resend's answer may stand still before the rest is asked for again. */
    static final long RESEND_STALL_MS = 2_000;

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
    /**
     * A resend in progress: the next number expected from the cluster's copy (0: none), the last asked for (0: to
     * the end), when the answer last moved, and whether the rest was asked for again since. The cluster's answer is
     * not sequenced like the batches: a part of it the leader could not offer (back-pressure) is simply missing, and
     * without this check the next number's arrival would have gap-filled the missing messages: lost for good.
     */
    private long resendNext;
    private long resendLast;
    private long resendMovedMs;
    private boolean askedAgain;

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

    void resend(long begin, long last, long nowMs) {
        resendNext = begin;
        resendLast = last;
        resendMovedMs = nowMs;
        askedAgain = false;
        int length = SessionCodec.encodeResend(request, 0, owner, begin, last);
        requests.submit(SessionCodec.RESEND, request, 0, length);
    }

    /**
     * Whether {@code seqNum} of the cluster's answer is the next one expected (then it is taken). One further on means
     * part of the answer was lost: the rest is asked for again from the expected one (once until the answer moves)
     * and this one is not taken; one before it is a late copy of an earlier answer.
     */
    boolean resentInOrder(long seqNum, long nowMs) {
        if (resendNext == 0 || seqNum < resendNext) {
            return false;
        }
        if (seqNum > resendNext) {
            if (!askedAgain) {
                LOG.warn("session {}: the cluster's resend skipped from {} to {}: asking again from {}", owner, resendNext,
                    seqNum, resendNext);
                resend(resendNext, resendLast, nowMs);
                askedAgain = true;
            }
            return false;
        }
        resendNext = seqNum + 1;
        resendMovedMs = nowMs;
        askedAgain = false;
        return true;
    }

    /**
     * The cluster answered through {@code lastAnswered}: whether everything before it arrived (else the rest is asked
     * for again, as for a skip).
     */
    boolean resendDone(long lastAnswered, long nowMs) {
        if (resendNext == 0 || resendNext != lastAnswered + 1) {
            if (resendNext != 0 && resendNext <= lastAnswered) {
                resentInOrder(lastAnswered + 1, nowMs); // asks again from the first one missing
            }
            return false;
        }
        resendNext = 0;
        return true;
    }

    /** The last number the resend in progress asked for (0: to the end). */
    long resendLastAsked() {
        return resendLast;
    }

    /** Asks again for a resend whose answer has not moved for {@link #RESEND_STALL_MS} (its end lost on the way). */
    void checkResend(long nowMs) {
        if (resendNext != 0 && nowMs - resendMovedMs > RESEND_STALL_MS) {
            LOG.warn("session {}: the cluster's resend stalled at {}: asking again", owner, resendNext);
            resend(resendNext, resendLast, nowMs);
        }
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
