package io.fixmatch.fix.session;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a client's ResendRequest from the session's store: each stored application message in the range is sent
 * again under its own number (PossDupFlag=Y, OrigSendingTime), and each run of numbers the store does not hold (admin
 * messages, market data, messages a full disk kept from being stored) becomes one SequenceReset-GapFill. EndSeqNo 0,
 * or one past the last number sent, means through the last sent. The owning thread's only.
 */
final class ResendResponder {
    /** The session's log lines under one name. */
    private static final Logger LOG = LoggerFactory.getLogger(FixSession.class);

    private final String name;
    private final SessionStore store;
    private final SessionOutput output;
    /** Sessions owned by a cluster: resends come from its copy of every message (null: standalone). */
    private final ClusterNumbering cluster;

    ResendResponder(String name, SessionStore store, SessionOutput output, ClusterNumbering cluster) {
        this.cluster = cluster;
        this.name = name;
        this.store = store;
        this.output = output;
    }

    /** Resends {@code begin..end} (checked: begin at least 1, end 0 or not below begin). */
    void answer(long begin, long end, long nowMs) {
        if (cluster != null) {
            // The gateway that sent them may be gone: the cluster's copy answers (FixSession#onResent and after).
            LOG.info("{}: resending {}..{} from the cluster's copy", name, begin, end == 0 ? "end" : end);
            cluster.resend(begin, end, nowMs);
            return;
        }
        long next = store.nextSenderSeqNum();
        long last = end == 0 || end >= next ? next - 1 : end;
        LOG.info("{}: resending {}..{} (asked {}..{})", name, begin, last, begin, end);
        long gapStart = begin;
        for (long storedSeqNum = store.nextStoredAtOrAfter(begin); storedSeqNum != -1 && storedSeqNum <= last;
             storedSeqNum = store.nextStoredAtOrAfter(storedSeqNum + 1)) {
            if (storedSeqNum > gapStart) {
                output.sendGapFill(gapStart, storedSeqNum, nowMs);
            }
            output.resendStored(storedSeqNum, nowMs);
            gapStart = storedSeqNum + 1;
        }
        if (gapStart <= last) {
            output.sendGapFill(gapStart, last + 1, nowMs);
        }
    }
}
