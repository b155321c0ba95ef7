package io.fixmatch.cluster.service;

import io.fixmatch.engine.codec.EventCodec;
import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.engine.loop.DropCopyRoutes;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.journal.SessionMessageLog;
import io.fixmatch.journal.SessionMessageLogs;
import io.fixmatch.cluster.protocol.Egress;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's side of sessions the cluster owns: the gateways' requests (a Logon's claim, a release, a message of
 * their own to number, a resend), the decisions of the {@link SessionLedger} told to the gateways, and the numbering
 * of every message a session sends, each kept in this node's {@link SessionMessageLogs} so that any node can answer
 * a resend.
 *
 * <p>Messages are numbered where the service turns a gateway's staged records into its egress batch (and, for a
 * session no gateway holds, where they would have been dropped): reports in the order the engine made them, a
 * gateway's own messages where their request was applied. Requests and decisions are written into the staging ring
 * of the gateway they concern, so they reach it in log order with everything else. Deterministic, as the rest of the
 * service: log time, owner order; only the leader reads its logs to answer a resend (reading changes nothing).
 */
final class ClusterSessions implements SessionLedger.Decisions {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterSessions.class);
    /** The most messages one resend request is answered with; the gateway asks again for the rest. */
    static final int RESEND_BATCH_MESSAGES = 2_000;

    /** Where the service puts a record for a gateway (its staging ring), and sends a resend's answer. */
    interface Gateways {
        OutboundEventRing staging(int slot);

        /** The leader sends the records of a resend's answer to the gateway in {@code slot} (others do nothing). */
        void sendResent(int slot, DirectBuffer records, int length);

        boolean leader();
    }

    private final SessionLedger ledger;
    private final SessionMessageLogs logs;
    private final DropCopyRoutes dropCopies;
    private final LogClock clock;
    private final Gateways gateways;
    private final ExpandableDirectByteBuffer record = new ExpandableDirectByteBuffer(4096);
    private final ExpandableDirectByteBuffer resent = new ExpandableDirectByteBuffer(64 * 1024);
    private final SessionMessageLog.Header readHeader = new SessionMessageLog.Header();
    /** Why appending to this node's session logs failed (then nothing more is appended, the node stops), or null. */
    private volatile String failure;
    private long messagesNumbered;

    ClusterSessions(SessionLedger ledger, SessionMessageLogs logs, DropCopyRoutes dropCopies, LogClock clock,
                    Gateways gateways) {
        this.ledger = ledger;
        this.logs = logs;
        this.dropCopies = dropCopies;
        this.clock = clock;
        this.gateways = gateways;
    }

    SessionLedger ledger() {
        return ledger;
    }

    /** Whether a command record type is a session request (else it is a command for the engine). */
    static boolean isRequest(int recordType) {
        return recordType >= SessionCodec.CLAIM && recordType <= SessionCodec.KEEPALIVE;
    }

    /** Why a session request may not be applied, or null (a buggy or hostile gateway must not stop the cluster). */
    String malformation(GatewaySlot slot, int type, DirectBuffer buffer, int offset, int length) {
        if (type == SessionCodec.KEEPALIVE) {
            return null;
        }
        if (length < SessionCodec.OWNER_LENGTH || !ledger.isOwner(SessionCodec.owner(buffer, offset))) {
            return "a session request (type " + type + ") for no configured session";
        }
        int owner = SessionCodec.owner(buffer, offset);
        if (!slot.serves(owner)) {
            return "a session request for owner " + owner + ", whom gateway " + slot.gatewayId + " may not serve";
        }
        int expected = switch (type) {
            case SessionCodec.CLAIM -> SessionCodec.CLAIM_LENGTH;
            case SessionCodec.RESEND -> SessionCodec.RESEND_LENGTH;
            case SessionCodec.RELEASE, SessionCodec.RESET -> SessionCodec.OWNER_LENGTH;
            default -> -1;
        };
        if (type == SessionCodec.OUT ? length < SessionCodec.OUT_HEADER_LENGTH : length != expected) {
            return "a session request (type " + type + ") of " + length + " bytes";
        }
        return null;
    }

    /** Applies a well-formed request of the gateway in {@code slot} (see {@link #malformation}). */
    void onRequest(GatewaySlot slot, int type, DirectBuffer buffer, int offset, int length) {
        int owner = type == SessionCodec.KEEPALIVE ? 0 : SessionCodec.owner(buffer, offset);
        switch (type) {
            case SessionCodec.CLAIM -> ledger.claim(owner, slot.index, new SessionLedger.Claim(
                SessionCodec.claimLogonSeqNum(buffer, offset), SessionCodec.claimReset(buffer, offset),
                SessionCodec.claimTradingSessionStartMs(buffer, offset)), clock.nanoTime(), this);
            case SessionCodec.RELEASE -> ledger.release(owner, slot.index, this);
            case SessionCodec.OUT -> onOut(slot, owner, buffer, offset, length);
            case SessionCodec.RESET -> onReset(slot, owner);
            case SessionCodec.RESEND -> {
                if (ledger.holder(owner) == slot.index && gateways.leader()) {
                    answerResend(slot.index, owner, SessionCodec.resendBegin(buffer, offset),
                        SessionCodec.resendLast(buffer, offset));
                }
            }
            default -> {
                // KEEPALIVE: hearing from the gateway was the point
            }
        }
    }

    /** After a command for the engine: its inbound position is a number of its session's client the cluster knows. */
    void commandApplied(int owner, long inboundPosition) {
        if (inboundPosition != 0 && ledger.isOwner(owner)) {
            ledger.inboundSeen(owner, SessionCodec.inboundEpoch(inboundPosition),
                SessionCodec.inboundSeqNum(inboundPosition));
        }
    }

    private void onOut(GatewaySlot slot, int owner, DirectBuffer buffer, int offset, int length) {
        if (ledger.holder(owner) != slot.index) {
            return; // the session moved: the old gateway's message is not the session's any more (fencing)
        }
        long answered = SessionCodec.outAnsweredInbound(buffer, offset);
        if (answered != 0) {
            ledger.inboundSeen(owner, SessionCodec.inboundEpoch(answered), SessionCodec.inboundSeqNum(answered));
        }
        gateways.staging(slot.index).publishRecord(SessionCodec.OUT, buffer, offset, length);
        if ((SessionCodec.outFlags(buffer, offset) & SessionCodec.COPIED) != 0) {
            for (int recipient : dropCopies.recipientsOfOwner(owner)) {
                SessionCodec.encodeOutCopyHeader(record, 0, recipient);
                record.putBytes(SessionCodec.OUT_COPY_HEADER_LENGTH, buffer, offset, length);
                gateways.staging(ledger.holder(recipient)).publishRecord(SessionCodec.OUT_COPY, record, 0,
                    SessionCodec.OUT_COPY_HEADER_LENGTH + length);
            }
        }
    }

    private void onReset(GatewaySlot slot, int owner) {
        long answer = ledger.resetLoggedOn(owner, slot.index);
        if (answer != 0) {
            int length = SessionCodec.encodeGranted(record, 0, owner, ledger.epoch(owner), answer,
                ledger.nextIn(owner), true);
            gateways.staging(slot.index).publishRecord(SessionCodec.GRANTED, record, 0, length);
        }
    }

    // --- decisions ---

    @Override
    public void granted(int owner, int slot, int previousSlot, int epoch, long logonAnswerSeqNum, long nextIn) {
        if (previousSlot != 0) {
            LOG.warn("session {} taken over by the gateway in slot {} from slot {} (silent or gone)", owner, slot,
                previousSlot);
            int length = SessionCodec.encodeOwner(record, 0, owner);
            gateways.staging(previousSlot).publishRecord(SessionCodec.REVOKED, record, 0, length);
        }
        int length = SessionCodec.encodeGranted(record, 0, owner, epoch, logonAnswerSeqNum, nextIn, false);
        gateways.staging(slot).publishRecord(SessionCodec.GRANTED, record, 0, length);
    }

    @Override
    public void refused(int owner, int slot, String reason, long logoutSeqNum) {
        int length = SessionCodec.encodeRefused(record, 0, owner, logoutSeqNum, reason);
        gateways.staging(slot).publishRecord(SessionCodec.REFUSED, record, 0, length);
    }

    // --- numbering ---

    /** Whether a staged record is a message of a session, numbered by {@link #number}. */
    static boolean isNumbered(int type) {
        return type == OutboundEventRing.EVENT || type == OutboundEventRing.TRACED_EVENT
            || type == OutboundEventRing.COPY || type == SessionCodec.OUT || type == SessionCodec.OUT_COPY;
    }

    /**
     * Numbers a staged record of a session's message ({@link #isNumbered}) in its session and keeps it in this node's
     * log (a traced event without its stamps; a message never resent as a gap). Returns its number, or 0 if it belongs
     * to no configured session.
     */
    long number(int type, DirectBuffer buffer, int offset, int length) {
        int owner;
        int kind;
        int storedOffset = offset;
        int storedLength = length;
        switch (type) {
            case OutboundEventRing.EVENT -> {
                owner = EventCodec.owner(buffer, offset);
                kind = SessionCodec.KIND_EVENT;
            }
            case OutboundEventRing.TRACED_EVENT -> {
                storedOffset += CommandTrace.OUTBOUND_LENGTH;
                storedLength -= CommandTrace.OUTBOUND_LENGTH;
                owner = EventCodec.owner(buffer, storedOffset);
                kind = SessionCodec.KIND_EVENT;
            }
            case OutboundEventRing.COPY -> {
                owner = (int) buffer.getLong(offset);
                kind = SessionCodec.KIND_COPY;
            }
            case SessionCodec.OUT -> {
                owner = SessionCodec.owner(buffer, offset);
                kind = (SessionCodec.outFlags(buffer, offset) & SessionCodec.STORED) != 0 ? SessionCodec.KIND_OUT
                    : SessionCodec.KIND_GAP;
            }
            default -> { // OUT_COPY
                owner = SessionCodec.owner(buffer, offset);
                kind = SessionCodec.KIND_OUT_COPY;
            }
        }
        if (!ledger.isOwner(owner)) {
            return 0;
        }
        long seqNum = ledger.numberOut(owner);
        messagesNumbered++;
        if (kind == SessionCodec.KIND_GAP) {
            storedLength = 0;
        }
        keep(owner, seqNum, kind, buffer, storedOffset, storedLength);
        return seqNum;
    }

    /** The node's copy: a failed append stops all appends (no gap), and the node (see {@link #failure()}). */
    private void keep(int owner, long seqNum, int kind, DirectBuffer buffer, int offset, int length) {
        if (failure != null) {
            return;
        }
        try {
            logs.of(owner).append(ledger.epoch(owner), seqNum, kind, clock.nanoTime(), buffer, offset, length);
        } catch (RuntimeException | InternalError e) { // InternalError: a fault writing a memory-mapped file
            failure = "cannot keep session " + owner + "'s message " + seqNum + ": " + e;
            LOG.error("{}: this node keeps no more session messages and stops", failure, e);
        }
    }

    /** Why this node stopped keeping session messages (it must stop), or null. */
    String failure() {
        return failure;
    }

    long messagesNumbered() {
        return messagesNumbered;
    }

    // --- resends ---

    /**
     * The leader answers a resend from its own log: each number from {@code begin} up to {@code last} (or the last
     * numbered), at most {@link #RESEND_BATCH_MESSAGES}, as RESENT records, then RESEND_DONE saying where to ask again.
     */
    private void answerResend(int slot, int owner, long begin, long last) {
        SessionMessageLog log = logs.of(owner);
        long through = Math.min(last <= 0 ? Long.MAX_VALUE : last, ledger.nextOut(owner) - 1);
        long end = Math.min(through, begin + RESEND_BATCH_MESSAGES - 1);
        long firstHeld = log.firstHeld(ledger.epoch(owner));
        if (begin <= end && (firstHeld < 0 || begin < firstHeld)) {
            LOG.error("session {}: messages {} to {} are not on this node (it joined from a snapshot, or lost them):"
                + " gap-filled", owner, begin, Math.min(end, firstHeld < 0 ? end : firstHeld - 1));
        }
        int at = 0;
        for (long seqNum = begin; seqNum <= end; seqNum++) {
            int recordAt = at + Egress.RECORD_HEADER_LENGTH;
            resent.checkLimit(recordAt + SessionCodec.RESENT_HEADER_LENGTH + 16 * 1024);
            int length = log.read(seqNum, readHeader, resent, recordAt + SessionCodec.RESENT_HEADER_LENGTH);
            int kind = length < 0 ? SessionCodec.KIND_GAP : readHeader.kind;
            SessionCodec.encodeResentHeader(resent, recordAt, owner, seqNum, length < 0 ? 0 : readHeader.logTimeNanos,
                kind);
            at = putRecordHeader(at, SessionCodec.RESENT, SessionCodec.RESENT_HEADER_LENGTH + Math.max(length, 0));
            if (at > 48 * 1024) {
                gateways.sendResent(slot, resent, at);
                at = 0;
            }
        }
        int doneAt = at + Egress.RECORD_HEADER_LENGTH;
        resent.checkLimit(doneAt + SessionCodec.RESEND_DONE_LENGTH);
        SessionCodec.encodeResendDone(resent, doneAt, owner, end, end < through ? end + 1 : 0);
        at = putRecordHeader(at, SessionCodec.RESEND_DONE, SessionCodec.RESEND_DONE_LENGTH);
        gateways.sendResent(slot, resent, at);
    }

    /** Frames the record just written after {@code at} (i32 type, i32 length: as in a BATCH); returns where it ends. */
    private int putRecordHeader(int at, int type, int length) {
        resent.putInt(at, type, Egress.ORDER);
        resent.putInt(at + Integer.BYTES, length, Egress.ORDER);
        return at + Egress.RECORD_HEADER_LENGTH + length;
    }
}
