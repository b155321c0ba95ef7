package io.fixmatch.cluster.service;

import io.aeron.Publication;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.journal.ReplicaJournal;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The service's egress to the gateways: after each command, each touched gateway's staged records (one staging ring
 * per gateway) become one numbered BATCH, kept in that gateway's window and sent if this node leads; kept batches are
 * sent again on a RESUME or a HELLO; every offer to a gateway's session goes through {@link #offer}, which retries
 * briefly on back-pressure and never waits long. Whether this node leads decides only whether anything is sent: the
 * kept copy is the same bytes on every node (market data only while the gateway is connected, no trace stamps).
 */
final class EgressBatches {
    /** Each staging ring (one per gateway): a command's records for one gateway beyond this go as several batches. */
    static final int STAGING_RING_BYTES = 256 * 1024;
    /** Room for one batch: the staging ring's records, each with its 8-byte header, and the batch header. */
    static final int BATCH_BUFFER_BYTES = 2 * STAGING_RING_BYTES;
    /** Tries at a back-pressured egress before the batch is left to the gateway's resume: the service never waits long. */
    private static final int OFFER_ATTEMPTS = 50;

    private final GatewaySlots slots;
    private final ServiceStatus status;
    private final UnsafeBuffer live = new UnsafeBuffer(ByteBuffer.allocateDirect(BATCH_BUFFER_BYTES));
    private final UnsafeBuffer kept = new UnsafeBuffer(ByteBuffer.allocateDirect(BATCH_BUFFER_BYTES));
    private final MessageHandler onStagedRecord = this::onStagedRecord;
    private final MessageHandler onUnservedRecord = this::onUnservedRecord;
    /** Room for one resend answer message (the records ClusterSessions writes, and the RESENT header). */
    private final UnsafeBuffer resent = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024 + 4096));
    private ClusterSessions sessions;
    private Cluster cluster;
    private MatchingRuntime runtime;
    private ReplicaJournal journal;
    private boolean leader;
    /** While a batch is built: its slot, where the next record goes in the live and kept copies. */
    private GatewaySlot building;
    private int liveAt;
    private int keptAt;
    private int keptRecords;

    EgressBatches(GatewaySlots slots, ServiceStatus status) {
        this.slots = slots;
        this.status = status;
    }

    /**
     * At the service's start, once its matching step runs: a full staging ring is flushed as a batch of its own; the
     * sessions' messages are numbered by {@code sessions} as they go.
     */
    void start(Cluster cluster, MatchingRuntime runtime, ReplicaJournal journal, ClusterSessions sessions) {
        this.cluster = cluster;
        this.runtime = runtime;
        this.journal = journal;
        this.sessions = sessions;
        for (int i = 1; i <= slots.maxGateways(); i++) {
            int slot = i;
            runtime.outbound(slot).drainWhenFull(() -> flush(slots.slot(slot), 0, null));
        }
        runtime.outbound(0).drainWhenFull(this::dropUnserved);
    }

    /** Whether this node leads: only then is anything sent. */
    void leader(boolean leader) {
        this.leader = leader;
    }

    boolean leader() {
        return leader;
    }

    /**
     * After a command: one batch for each gateway its events touched, and one answering the issuer ({@code issuer}
     * null: the cluster's own command) with {@code answering}, its gateway sequence; after an operator's command
     * ({@code appliedType}, null: none applied) the engine's view goes to every connected gateway.
     */
    void afterCommand(GatewaySlot issuer, long answering, CommandType appliedType) {
        boolean viewChanged = appliedType != null && appliedType.isOperators();
        for (int i = 1; i <= slots.maxGateways(); i++) {
            GatewaySlot slot = slots.slot(i);
            boolean answers = slot == issuer;
            boolean view = viewChanged && (answers || (slot.open && appliedType != CommandType.BOOK_QUERY));
            if (answers || view || runtime.outbound(i).hasEvents()) {
                flush(slot, answers ? answering : 0, view ? appliedType : null);
            }
        }
        dropUnserved();
    }

    /**
     * Turns a gateway's staged records into a batch: numbered, kept in its window (market data only while it is
     * connected, trace stamps dropped: the kept copy is the same on every node), sent if this node leads.
     */
    private void flush(GatewaySlot slot, long answered, CommandType viewAfter) {
        building = slot;
        liveAt = Egress.BATCH_HEADER_LENGTH;
        keptAt = Egress.BATCH_HEADER_LENGTH;
        keptRecords = 0;
        OutboundEventRing staging = runtime.outbound(slot.index);
        while (staging.readRecords(onStagedRecord, Integer.MAX_VALUE) > 0) {
            // a read stops where the ring wraps: read on until it is empty
        }
        if (viewAfter != null) {
            appendView(viewAfter, answered != 0 && viewAfter == CommandType.BOOK_QUERY);
        }
        building = null;
        if (slot.isFree() || (keptRecords == 0 && answered == 0 && !slot.open)) {
            return; // nobody to tell: no gateway, or only market data for a gateway that is away
        }
        long sequence = ++slot.egressSequence;
        long commandSequence = journal.commandSequence();
        Egress.encodeBatchHeader(kept, 0, 0, sequence, answered, commandSequence);
        slot.window.add(kept, 0, keptAt);
        if (slot.open && leader) {
            Egress.encodeBatchHeader(live, 0, 0, sequence, answered, commandSequence);
            send(slot, live, liveAt);
        }
    }

    private void onStagedRecord(int type, MutableDirectBuffer buffer, int index, int length) {
        if (type == OutboundEventRing.STORED_THROUGH) {
            return; // the standalone journal's snapshot marks mean nothing to a gateway of a cluster
        }
        if (ClusterSessions.isNumbered(type)) {
            long seqNum = sessions.number(type, buffer, index, length);
            if (seqNum == 0) {
                return; // of no configured session: nobody to write it for
            }
            liveAt = putNumbered(live, liveAt, seqNum, type, buffer, index, length);
            if (type == OutboundEventRing.TRACED_EVENT) {
                int stamps = CommandTrace.OUTBOUND_LENGTH;
                keptAt = putNumbered(kept, keptAt, seqNum, OutboundEventRing.EVENT, buffer, index + stamps,
                    length - stamps);
            } else {
                keptAt = putNumbered(kept, keptAt, seqNum, type, buffer, index, length);
            }
            keptRecords++;
            return;
        }
        liveAt = Egress.putRecord(live, liveAt, type, buffer, index, length);
        if (type == OutboundEventRing.MARKET_DATA && !building.open) {
            return;
        }
        if (type == OutboundEventRing.TRACED_EVENT) {
            int stamps = CommandTrace.OUTBOUND_LENGTH;
            keptAt = Egress.putRecord(kept, keptAt, OutboundEventRing.EVENT, buffer, index + stamps, length - stamps);
        } else {
            keptAt = Egress.putRecord(kept, keptAt, type, buffer, index, length);
        }
        keptRecords++;
    }

    /** The engine's view after an operator's command, for the gateway's mirror (the answer only for the asker). */
    private void appendView(CommandType type, boolean withAnswer) {
        int length = runtime.view().encode(live, liveAt + Egress.RECORD_HEADER_LENGTH,
            type == CommandType.EXPIRE_DAY_ORDERS, withAnswer);
        live.putInt(liveAt, Egress.VIEW_RECORD, Egress.ORDER);
        live.putInt(liveAt + Integer.BYTES, length, Egress.ORDER);
        keptAt = Egress.putRecord(kept, keptAt, Egress.VIEW_RECORD, live, liveAt + Egress.RECORD_HEADER_LENGTH,
            length);
        liveAt += Egress.RECORD_HEADER_LENGTH + length;
        keptRecords++;
    }

    /** A session's message in a batch: a NUMBERED record (the cluster's MsgSeqNum, then the message as staged). */
    private static int putNumbered(MutableDirectBuffer batch, int at, long seqNum, int type, DirectBuffer source,
                                   int offset, int length) {
        int record = at + Egress.RECORD_HEADER_LENGTH;
        batch.putInt(at, SessionCodec.NUMBERED, Egress.ORDER);
        batch.putInt(at + Integer.BYTES, SessionCodec.NUMBERED_HEADER_LENGTH + length, Egress.ORDER);
        SessionCodec.encodeNumberedHeader(batch, record, seqNum, type);
        batch.putBytes(record + SessionCodec.NUMBERED_HEADER_LENGTH, source, offset, length);
        return record + SessionCodec.NUMBERED_HEADER_LENGTH + length;
    }

    /**
     * The messages of sessions no gateway holds (a client away, a drop-copy session not logged on): numbered and kept
     * in this node's session logs, sent to nobody; the client gets them by its resend when it logs on again. Anything
     * else staged for nobody (market data) is dropped.
     */
    private void dropUnserved() {
        while (runtime.outbound(0).readRecords(onUnservedRecord, Integer.MAX_VALUE) > 0) {
            // a read stops where the ring wraps
        }
    }

    private void onUnservedRecord(int type, MutableDirectBuffer buffer, int index, int length) {
        if (ClusterSessions.isNumbered(type)) {
            sessions.number(type, buffer, index, length);
        }
    }

    /** A resend's answer, from this node (the leader) to the gateway in {@code slot}: not a batch, not kept. */
    void sendResent(GatewaySlot slot, DirectBuffer records, int length) {
        ClientSession session = cluster.getClientSession(slot.sessionId);
        if (session == null || session.isClosing()) {
            return;
        }
        Egress.encodeResentHeader(resent, 0);
        resent.putBytes(Egress.RESENT_HEADER_LENGTH, records, 0, length);
        offer(session, resent, Egress.RESENT_HEADER_LENGTH + length);
    }

    /** Offers to the gateway's session, retrying briefly on back-pressure; a batch that cannot go is asked for again. */
    private void send(GatewaySlot slot, DirectBuffer buffer, int length) {
        ClientSession session = cluster.getClientSession(slot.sessionId);
        if (session != null && !session.isClosing()) {
            offer(session, buffer, length);
        }
    }

    /** Sends again, on {@code session}, the gateway's kept batches after {@code after}, with {@code flags}. */
    void resend(GatewaySlot slot, ClientSession session, long after, int flags) {
        slot.window.forEachAfter(after, (batch, offset, length) -> {
            kept.putBytes(0, batch, offset, length);
            Egress.batchFlags(kept, 0, flags);
            status.resentBatches++;
            offer(session, kept, length);
        });
    }

    /** Offers from offset 0, retrying briefly on back-pressure; what cannot go is counted (the gateway resumes). */
    void offer(ClientSession session, DirectBuffer buffer, int length) {
        for (int attempt = 0; attempt < OFFER_ATTEMPTS; attempt++) {
            long result = session.offer(buffer, 0, length);
            if (result > 0) {
                return;
            }
            if (result != Publication.BACK_PRESSURED && result != Publication.ADMIN_ACTION) {
                break;
            }
            cluster.idleStrategy().idle();
        }
        status.droppedEgress++;
    }
}
