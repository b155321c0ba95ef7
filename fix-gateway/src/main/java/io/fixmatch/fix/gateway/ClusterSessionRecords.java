package io.fixmatch.fix.gateway;

import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.codec.EventCodec;
import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.fix.app.EventReportBody;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRegistry;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gateway's consumer of the records a cluster that owns the sessions sends them (see {@code SessionCodec}), on the
 * gateway thread in ring order: a Logon's claim granted or refused, a session given to another gateway, a message of
 * a session's own numbered (with drop copies of a refusal), a resend's messages from the cluster's copy (reports
 * rendered again from their events, exactly as first written), and the write lease.
 */
final class ClusterSessionRecords {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterSessionRecords.class);

    private final SessionRegistry sessions;
    private final EventReportBody report;
    private final WriteLease lease;
    private final ExecutionEvent event = new ExecutionEvent();
    private final RawBody raw;
    private long unroutable;

    ClusterSessionRecords(SessionRegistry sessions, SymbolTable symbols, WriteLease lease, int maxMessageSize) {
        this.sessions = sessions;
        this.report = new EventReportBody(symbols);
        this.lease = lease;
        this.raw = new RawBody(maxMessageSize);
    }

    /** One record; {@code seqNum} is the cluster's number if it came NUMBERED (else 0). */
    void onRecord(int type, long seqNum, DirectBuffer buffer, int offset, int length, long nowMs) {
        if (type == SessionCodec.LEASE) {
            lease.extend(SessionCodec.leaseUntilNanos(buffer, offset));
            return;
        }
        FixSession session = sessions.byOwner(SessionCodec.owner(buffer, offset));
        if (session == null || !session.clusterOwned()) {
            if (unroutable++ == 0) {
                LOG.error("a session record (type {}) for owner {}, which is no cluster-owned session here", type,
                    SessionCodec.owner(buffer, offset));
            }
            return;
        }
        switch (type) {
            case SessionCodec.GRANTED -> session.onGranted(SessionCodec.grantedEpoch(buffer, offset),
                SessionCodec.grantedAnswerSeqNum(buffer, offset), SessionCodec.grantedNextIn(buffer, offset),
                SessionCodec.grantedReset(buffer, offset), nowMs);
            case SessionCodec.REFUSED -> session.onRefused(SessionCodec.refusedLogoutSeqNum(buffer, offset),
                SessionCodec.refusedReason(buffer, offset, length), nowMs);
            case SessionCodec.REVOKED -> session.onRevoked();
            case SessionCodec.OUT -> session.onNumberedOut(seqNum, SessionCodec.outMsgType(buffer, offset),
                SessionCodec.outFlags(buffer, offset), out(buffer, offset, length, null), nowMs);
            case SessionCodec.OUT_COPY -> {
                int copied = offset + SessionCodec.OUT_COPY_HEADER_LENGTH;
                int msgType = SessionCodec.outMsgType(buffer, copied);
                session.onNumberedOut(seqNum, msgType, SessionCodec.STORED,
                    copy(buffer, copied, length - SessionCodec.OUT_COPY_HEADER_LENGTH, msgType), nowMs);
            }
            case SessionCodec.RESENT -> onResent(session, buffer, offset, length, nowMs);
            case SessionCodec.RESEND_DONE -> session.onResendDone(SessionCodec.resendDoneLastAnswered(buffer, offset),
                SessionCodec.resendDoneAskAgainFrom(buffer, offset), nowMs);
            default -> LOG.warn("a session record of unknown type {}", type);
        }
    }

    /** A resend's message, rendered as it was first written, or a number to gap-fill. */
    private void onResent(FixSession session, DirectBuffer buffer, int offset, int length, long nowMs) {
        long seqNum = SessionCodec.resentSeqNum(buffer, offset);
        long origSendingTime = SessionCodec.resentLogTimeNanos(buffer, offset);
        int stored = offset + SessionCodec.RESENT_HEADER_LENGTH;
        int storedLength = length - SessionCodec.RESENT_HEADER_LENGTH;
        switch (SessionCodec.resentKind(buffer, offset)) {
            case SessionCodec.KIND_EVENT -> {
                EventCodec.decode(buffer, stored, event);
                report.of(event);
                session.onResent(seqNum, report.msgType(), report, origSendingTime, nowMs);
            }
            case SessionCodec.KIND_COPY -> {
                EventCodec.decode(buffer, stored + Long.BYTES, event);
                report.of(event).copyOf(sessions.clientCompIdOf(event.owner()));
                session.onResent(seqNum, report.msgType(), report, origSendingTime, nowMs);
            }
            case SessionCodec.KIND_OUT -> session.onResent(seqNum, SessionCodec.outMsgType(buffer, stored),
                out(buffer, stored, storedLength, null), origSendingTime, nowMs);
            case SessionCodec.KIND_OUT_COPY -> {
                int copied = stored + SessionCodec.OUT_COPY_HEADER_LENGTH;
                int msgType = SessionCodec.outMsgType(buffer, copied);
                session.onResent(seqNum, msgType, copy(buffer, copied,
                    storedLength - SessionCodec.OUT_COPY_HEADER_LENGTH, msgType), origSendingTime, nowMs);
            }
            default -> session.onResentGap(seqNum, nowMs);
        }
    }

    /** The body of an OUT record at {@code offset}, as a drop copy of {@code copyOf}'s if not null. */
    private MessageBody out(DirectBuffer buffer, int offset, int length, byte[] copyOf) {
        return raw.of(buffer, offset + SessionCodec.OUT_HEADER_LENGTH, length - SessionCodec.OUT_HEADER_LENGTH,
            copyOf, false);
    }

    /**
     * The body of the OUT record at {@code offset} as a drop copy for its session's drop-copy session: DeliverToCompID,
     * and CopyMsgIndicator on an ExecutionReport only, as the gateway's own copies (FIX 4.4 defines it on no other
     * message: a stock QuickFIX/J dictionary rejected the copies of refused cancels, OrderCancelRejects, carrying it).
     */
    private MessageBody copy(DirectBuffer buffer, int offset, int length, int msgType) {
        return raw.of(buffer, offset + SessionCodec.OUT_HEADER_LENGTH, length - SessionCodec.OUT_HEADER_LENGTH,
            sessions.clientCompIdOf(SessionCodec.owner(buffer, offset)), msgType == MsgTypes.EXECUTION_REPORT);
    }

    /** A body written earlier, put behind a new header; as a drop copy with DeliverToCompID and CopyMsgIndicator. */
    private static final class RawBody implements MessageBody {
        private final byte[] bytes;
        private int length;
        private byte[] copyOf;
        private boolean copyIndicator;

        RawBody(int capacity) {
            bytes = new byte[capacity];
        }

        RawBody of(DirectBuffer buffer, int offset, int count, byte[] copyOfCompId, boolean copyMsgIndicator) {
            buffer.getBytes(offset, bytes, 0, count);
            length = count;
            copyOf = copyOfCompId;
            copyIndicator = copyMsgIndicator;
            return this;
        }

        @Override
        public void writeBody(FixWriter w) {
            if (copyOf != null) {
                w.field(FixTags.DELIVER_TO_COMP_ID, copyOf);
            }
            w.raw(bytes, 0, length);
            if (copyIndicator) {
                w.field(FixTags.COPY_MSG_INDICATOR, 'Y');
            }
        }
    }
}
