package io.fixmatch.cluster.service;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.Header;
import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.cluster.protocol.GatewayDirectory;
import io.fixmatch.cluster.protocol.GatewayProcess;
import io.fixmatch.cluster.protocol.Ingress;
import io.fixmatch.cluster.protocol.VenueFingerprint;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.engine.loop.IdleStrategies;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.matching.EngineView;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.journal.ReplicaJournal;
import io.fixmatch.journal.SessionMessageLogs;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The matching engine as an Aeron Cluster service: every node runs one, applies the same log in the same order and so
 * holds the same books; the leader's also answers the gateways.
 *
 * <p>A gateway's COMMAND is applied by the standalone server's own matching step ({@link MatchingRuntime}, run inline
 * one command at a time): stamped with the log's time, appended to this node's journal ({@link ReplicaJournal}),
 * matched; its events, drop copies and market data land in one staging ring per gateway (the outbound rings of the
 * standalone server, records and all), and after the command each touched gateway gets them as one numbered egress
 * BATCH. The gateway that sent the command always gets one: it answers the command.
 *
 * <p>Exactly once: each gateway numbers its commands; one is applied only if it is the next of its gateway's, from the
 * session that gateway last said hello on, so a command re-offered after a leader change is not applied twice. Each
 * gateway's batches are kept ({@link EgressWindow}) until it acknowledges them, so what a leader change lost on the way
 * is sent again when the gateway asks (RESUME) or says hello again after a restart (HELLO: the WELCOME tells it where
 * the cluster stands, then the books, then the unacknowledged batches, marked history).
 *
 * <p>Deterministic, as a follower must compute exactly what the leader did: time only from the log; the end of day
 * and the engine's own next deadline cluster timers whose deadlines are state; every lookup a scan in slot order; no
 * randomness. Whether this node is leader
 * decides only whether egress is actually sent.
 */
public final class MatchingService implements ClusteredService {
    private static final Logger LOG = LoggerFactory.getLogger(MatchingService.class);
    /** Each staging ring (one per gateway): a command's records for one gateway beyond this go as several batches. */
    static final int STAGING_RING_BYTES = 256 * 1024;
    /** Room for one batch: the staging ring's records, each with its 8-byte header, and the batch header. */
    static final int BATCH_BUFFER_BYTES = 2 * STAGING_RING_BYTES;
    static final long END_OF_DAY_TIMER = 1;
    /** The engine's own next deadline (a GTD expiry, an auction's end): see {@link #scheduleEngineTimer()}. */
    static final long ENGINE_TIMER = 2;
    /** When the sessions' ledger next has a waiting claim to decide: see {@link #scheduleSessionTimer()}. */
    static final long SESSION_TIMER = 3;
    /** Tries at a back-pressured egress before the batch is left to the gateway's resume: the service never waits long. */
    private static final int OFFER_ATTEMPTS = 50;
    private static final int SEED_MESSAGE_BYTES = 64 * 1024;
    private static final int REPLY_BYTES = 256 * 1024;

    private final ServiceSettings settings;
    private final ServiceStatus status = new ServiceStatus();
    private final LogClock clock = new LogClock();
    private final GatewaySlots slots;
    private final SessionLedger ledger;
    private ClusterSessions sessions;
    private SessionMessageLogs sessionLogs;
    /** The gateways or who holds a session changed: every connected gateway gets the directory after this message. */
    private boolean directoryChanged;
    /** The deadline (epoch ns) of the scheduled session timer; 0: none scheduled. Replicated state (from the ledger). */
    private long sessionTimerDeadline;
    private final Command scratch = new Command();
    private final Command operatorCommand = new Command();
    private final UnsafeBuffer live = new UnsafeBuffer(ByteBuffer.allocateDirect(BATCH_BUFFER_BYTES));
    private final UnsafeBuffer kept = new UnsafeBuffer(ByteBuffer.allocateDirect(BATCH_BUFFER_BYTES));
    /**
     * Welcomes and seed messages: grows for a welcome beyond it (its owners' settings and the symbols' prices and
     * settings grow with the venue's sessions and symbols); only a gateway's hello writes one, never a command.
     */
    private final ExpandableDirectByteBuffer reply = new ExpandableDirectByteBuffer(REPLY_BYTES);
    private final MessageHandler onStagedRecord = this::onStagedRecord;
    private final MessageHandler onUnservedRecord = this::onUnservedRecord;
    private Cluster cluster;
    private ReplicaJournal journal;
    private MatchingRuntime runtime;
    private boolean leader;
    /** While a batch is built: its slot, where the next record goes in the live and kept copies. */
    private GatewaySlot building;
    private int liveAt;
    private int keptAt;
    private int keptRecords;
    /** The gateway sequence the command being applied answers, and its slot (null: the cluster's own command). */
    private GatewaySlot issuer;
    private long answering;
    /** The symbols and sessions the log's first gateway said hello with; 0: none yet. Replicated state. */
    private long venueFingerprint;
    /** This node's configuration's symbols and sessions ({@link VenueFingerprint}). */
    private final long ownFingerprint;
    /** The type of the command being applied (null: none, a malformed one). */
    private CommandType appliedType;
    /** The deadline (epoch ns) of the scheduled end-of-day timer; 0: none scheduled. Replicated state. */
    private long endOfDayDeadline;
    /** The deadline (epoch ns) of the scheduled engine timer; 0: none scheduled. Replicated state. */
    private long engineTimerDeadline;
    /** The admin endpoint's book query: asked (any thread), answered by the service thread between messages. */
    private volatile long bookQueryAsked;
    private volatile int bookQuerySymbol;
    private long bookQueryAnswered;

    public MatchingService(ServiceSettings settings) {
        this.settings = settings;
        this.ownFingerprint = VenueFingerprint.of(settings.engine().symbols(), settings.owners());
        this.slots = new GatewaySlots(settings.maxGateways(), settings.owners().size(), settings.windowBytes());
        long timeoutNs = TimeUnit.MILLISECONDS.toNanos(settings.gatewayTimeoutMs());
        this.ledger = new SessionLedger(settings.owners().size(), timeoutNs, new SessionLedger.Liveness() {
            @Override
            public boolean alive(int slot, long nowNs) {
                return slots.slot(slot).alive(nowNs, timeoutNs);
            }

            @Override
            public long silentFromNs(int slot) {
                GatewaySlot gateway = slots.slot(slot);
                return gateway.open ? gateway.lastHeardNs + timeoutNs : 0;
            }
        });
    }

    @Override
    public void onStart(Cluster cluster, Image snapshotImage) {
        try {
            start(cluster, snapshotImage);
        } catch (RuntimeException e) {
            status.startFailure = e.getMessage() != null ? e.getMessage() : e.toString();
            LOG.error("the matching service cannot start: {}", status.startFailure, e);
            throw e;
        }
    }

    private void start(Cluster cluster, Image snapshotImage) {
        this.cluster = cluster;
        journal = ReplicaJournal.open(settings.journal(), settings.engine().symbols(), settings.owners(), clock);
        LoopConfig staging = new LoopConfig(-1, IdleStrategies.DEFAULT, 64 * 1024, STAGING_RING_BYTES, 1);
        runtime = new MatchingRuntime(settings.engine(), staging, journal, settings.maxGateways() + 1,
            owner -> ledger.isOwner(owner) ? ledger.holder(owner) : 0, clock);
        sessionLogs = SessionMessageLogs.open(settings.journal().directory().resolveSibling("session-messages"),
            settings.owners(), () -> TimeUnit.NANOSECONDS.toMillis(clock.nanoTime()));
        sessions = new ClusterSessions(ledger, sessionLogs, settings.dropCopies(), clock,
            new ClusterSessions.Gateways() {
                @Override
                public OutboundEventRing staging(int slot) {
                    return runtime.outbound(slot);
                }

                @Override
                public void sendResent(int slot, DirectBuffer records, int length) {
                    sendResentRecords(slots.slot(slot), records, length);
                }

                @Override
                public boolean leader() {
                    return leader;
                }
            });
        runtime.publishMarketData(settings.marketData());
        runtime.dropCopyRoutes(settings.dropCopies());
        long restoredSequence = 0;
        if (snapshotImage != null) {
            ServiceSnapshot.State state = ServiceSnapshot.load(snapshotImage, cluster.idleStrategy(), settings,
                runtime.engine(), slots, ledger);
            sessionTimerDeadline = state.sessionTimerDeadline();
            restoredSequence = state.commandSequence();
            endOfDayDeadline = state.endOfDayDeadline();
            engineTimerDeadline = state.engineTimerDeadline();
            venueFingerprint = state.venueFingerprint();
            if (!checkOwnTables()) {
                throw new IllegalStateException(status.startFailure);
            }
            LOG.info("restored the cluster's snapshot: {} commands applied, {} resting orders", restoredSequence,
                runtime.engine().liveOrderCount());
        }
        journal.resumeAt(restoredSequence);
        runtime.recover();
        runtime.startInline();
        for (int i = 1; i <= slots.maxGateways(); i++) {
            int slot = i;
            runtime.outbound(slot).drainWhenFull(() -> flushSlot(slots.slot(slot), 0, null));
        }
        runtime.outbound(0).drainWhenFull(this::dropUnserved);
        status.commandSequence = restoredSequence;
        status.journalHeldThrough = journal.heldThrough();
        status.started = true;
    }

    @Override
    public void onSessionOpen(ClientSession session, long timestamp) {
        LOG.info("cluster session {} opened (a gateway connecting)", session.id());
    }

    @Override
    public void onSessionClose(ClientSession session, long timestamp, CloseReason closeReason) {
        GatewaySlot slot = slots.bySession(session.id());
        if (slot != null) {
            clock.set(timestamp);
            slot.open = false;
            directoryChanged = true;
            LOG.warn("gateway {} disconnected from the cluster ({}): its sessions may be taken over by a Logon"
                + " elsewhere; its reports are kept until it says hello again", slot.gatewayId, closeReason);
            ledger.expire(timestamp, sessions); // claims waiting for it are granted now
            flushDecisions();
        }
    }

    @Override
    public void onSessionMessage(ClientSession session, long timestamp, DirectBuffer buffer, int offset, int length,
                                 Header header) {
        if (status.startFailure != null) {
            return; // configured apart from the venue: applies nothing, stops (NodeMain)
        }
        clock.set(timestamp);
        status.logPosition = header.position();
        scheduleEndOfDay(timestamp);
        GatewaySlot from = slots.bySession(session.id());
        if (from != null) {
            from.lastHeardNs = timestamp; // alive: its sessions stay its own (SessionLedger)
        }
        if (length < 1) {
            ignored(null, "an empty message");
            return;
        }
        switch (Ingress.type(buffer, offset)) {
            case Ingress.COMMAND -> onCommand(session, buffer, offset, length);
            case Ingress.ACK -> onAck(session, buffer, offset, length);
            case Ingress.RESUME -> onResume(session, buffer, offset, length);
            case Ingress.HELLO -> onHello(session, buffer, offset, length);
            default -> ignored(slots.bySession(session.id()), "a message of unknown type "
                + Ingress.type(buffer, offset));
        }
    }

    // --- commands ---

    private void onCommand(ClientSession session, DirectBuffer buffer, int offset, int length) {
        GatewaySlot slot = slots.bySession(session.id());
        if (slot == null || length < Ingress.COMMAND_HEADER_LENGTH) {
            ignored(slot, slot == null ? "a command from a session that said no hello" : "a truncated command");
            return;
        }
        slot.window.release(Ingress.storedThrough(buffer, offset));
        long sequence = Ingress.commandSequence(buffer, offset);
        if (sequence != slot.lastApplied + 1) {
            // A re-offer of an applied command (its answer is in the window), or one after a gap (re-offered next).
            slot.ignoredCommands++;
            status.ignoredCommands++;
            return;
        }
        slot.lastApplied = sequence;
        int recordType = Ingress.commandRecordType(buffer, offset);
        int recordOffset = offset + Ingress.COMMAND_HEADER_LENGTH;
        int recordLength = length - Ingress.COMMAND_HEADER_LENGTH;
        if (ClusterSessions.isRequest(recordType)) {
            onSessionRequest(slot, sequence, recordType, buffer, recordOffset, recordLength);
            return;
        }
        String malformed = malformation(slot, recordType, buffer, recordOffset, recordLength);
        issuer = slot;
        answering = sequence;
        appliedType = null;
        if (malformed != null) {
            ignored(slot, malformed);
        } else if (!runtime.inbound().offerRecord(recordType, buffer, recordOffset, recordLength)) {
            throw new IllegalStateException("the service's inbound ring cannot take one command");
        } else {
            appliedType = scratch.type();
            applyQueued();
            sessions.commandApplied(scratch.owner(), scratch.inboundPosition());
        }
        flushAll();
    }

    /** A session's request in a gateway's sequence (a claim, a release, a message to number, a resend). */
    private void onSessionRequest(GatewaySlot slot, long sequence, int type, DirectBuffer buffer, int offset,
                                  int length) {
        String malformed = sessions.malformation(slot, type, buffer, offset, length);
        issuer = slot;
        answering = sequence;
        appliedType = null;
        if (malformed != null) {
            ignored(slot, malformed);
        } else {
            int holderBefore = type == SessionCodec.KEEPALIVE ? 0 : ledger.holder(SessionCodec.owner(buffer, offset));
            sessions.onRequest(slot, type, buffer, offset, length);
            if (type != SessionCodec.KEEPALIVE && ledger.holder(SessionCodec.owner(buffer, offset)) != holderBefore) {
                directoryChanged = true;
            }
        }
        flushAll();
    }

    /** Why a command may not be applied (a buggy or hostile client must not stop the cluster), or null. */
    private String malformation(GatewaySlot slot, int recordType, DirectBuffer buffer, int offset, int length) {
        int commandOffset = offset;
        int commandLength = length;
        if (recordType == InboundCommandRing.TRACED_COMMAND) {
            commandOffset += CommandTrace.INBOUND_LENGTH;
            commandLength -= CommandTrace.INBOUND_LENGTH;
        } else if (recordType != InboundCommandRing.COMMAND) {
            return "a command record of unknown type " + recordType;
        }
        if (commandLength < CommandCodec.HEADER_LENGTH || commandLength > CommandCodec.MAX_LENGTH
            || !CommandCodec.decode(buffer, commandOffset, commandLength, scratch)) {
            return "an undecodable command of " + commandLength + " bytes";
        }
        if (scratch.owner() != 0 && !slot.serves(scratch.owner())) {
            return "a command for owner " + scratch.owner() + ", whom gateway " + slot.gatewayId + " does not serve";
        }
        if (scratch.owner() != 0 && isClientRequest(scratch.type()) && ledger.holder(scratch.owner()) != slot.index) {
            // The session moved to another gateway: what the old one still sends in its name is not applied.
            return "a request of session " + scratch.owner() + ", which gateway " + slot.gatewayId + " does not hold";
        }
        return null;
    }

    /** A request only the gateway holding the session may make (its client's); operators' and settings go anywhere. */
    private static boolean isClientRequest(CommandType type) {
        return type == CommandType.NEW_ORDER || type == CommandType.CANCEL || type == CommandType.REPLACE
            || type == CommandType.ORDER_STATUS || type == CommandType.MASS_CANCEL || type == CommandType.MASS_STATUS;
    }

    private void onAck(ClientSession session, DirectBuffer buffer, int offset, int length) {
        GatewaySlot slot = slots.bySession(session.id());
        if (slot == null || length != Ingress.ACK_LENGTH) {
            ignored(slot, "a malformed acknowledgement");
            return;
        }
        slot.window.release(Ingress.storedThrough(buffer, offset));
        updateWindowStatus();
    }

    // --- the cluster's own commands ---

    @Override
    public void onTimerEvent(long correlationId, long timestamp) {
        if (status.startFailure != null) {
            return;
        }
        clock.set(timestamp);
        if (correlationId == ENGINE_TIMER) {
            engineTimerDeadline = 0;
            applyOwn(operatorCommand.timer().timestampNanos(timestamp)); // reschedules as it flushes
            return;
        }
        if (correlationId == SESSION_TIMER) {
            sessionTimerDeadline = 0;
            int[] before = ledger.holders();
            ledger.expire(timestamp, sessions);
            directoryChanged |= !Arrays.equals(before, ledger.holders());
            flushDecisions(); // the decisions' records to their gateways; reschedules
            return;
        }
        if (correlationId != END_OF_DAY_TIMER) {
            return;
        }
        endOfDayDeadline = 0;
        LOG.info("end of the trading day: day orders expire");
        applyOwn(operatorCommand.expireDayOrders().timestampNanos(timestamp));
        scheduleEndOfDay(timestamp);
    }

    /** A command of the cluster's own (no gateway asked for it): applied like any, its events to their gateways. */
    private void applyOwn(Command command) {
        if (!runtime.inbound().offer(command)) {
            throw new IllegalStateException("the service's inbound ring cannot take one command");
        }
        issuer = null;
        answering = 0;
        appliedType = command.type();
        applyQueued();
        flushAll();
    }

    /**
     * Runs the matching step until the one command just queued is applied: a ring read stops where the ring wraps
     * (after a padding record), so one step may take nothing.
     */
    private void applyQueued() {
        while (runtime.inbound().size() > 0) {
            runtime.doWork();
        }
    }

    /**
     * After every message: a cluster timer at the sessions' ledger's next deadline (a waiting claim to grant or refuse),
     * derived from replicated state; rescheduled when it moves, canceled when no claim waits.
     */
    private void scheduleSessionTimer() {
        long wanted = ledger.nextDeadlineNs();
        if (wanted == sessionTimerDeadline) {
            return;
        }
        if (wanted == 0) {
            cluster.cancelTimer(SESSION_TIMER);
        } else {
            cluster.scheduleTimer(SESSION_TIMER, wanted);
        }
        sessionTimerDeadline = wanted;
    }

    /** From a log event: schedules the next end of day if none is scheduled (its deadline is replicated state). */
    private void scheduleEndOfDay(long timestamp) {
        if (settings.endOfDay() == null || endOfDayDeadline != 0) {
            return;
        }
        long nextMs = settings.endOfDay().nextAfter(TimeUnit.NANOSECONDS.toMillis(timestamp));
        endOfDayDeadline = TimeUnit.MILLISECONDS.toNanos(nextMs);
        cluster.scheduleTimer(END_OF_DAY_TIMER, endOfDayDeadline);
    }

    /**
     * After every applied command: a cluster timer at the engine's next deadline (GTD expiries), which the engine
     * derives from its own replicated state; the timer's firing applies a TIMER command stamped with the log's time.
     * Rescheduled (same correlation id) when the deadline moves, canceled when there is none.
     */
    private void scheduleEngineTimer() {
        long deadline = runtime.engine().nextDeadlineNanos();
        long wanted = deadline == Long.MAX_VALUE ? 0 : deadline;
        if (wanted == engineTimerDeadline) {
            return;
        }
        if (wanted == 0) {
            cluster.cancelTimer(ENGINE_TIMER);
        } else {
            cluster.scheduleTimer(ENGINE_TIMER, wanted);
        }
        engineTimerDeadline = wanted;
    }

    // --- egress ---

    /** After a command: one batch for each gateway its events touched, and one answering the issuer. */
    private void flushAll() {
        boolean viewChanged = appliedType != null && appliedType.isOperators();
        boolean directory = directoryChanged;
        directoryChanged = false;
        for (int i = 1; i <= slots.maxGateways(); i++) {
            GatewaySlot slot = slots.slot(i);
            if (directory && slot.open) {
                publishDirectory(slot);
            }
            boolean answers = slot == issuer;
            boolean view = viewChanged && (answers || (slot.open && appliedType != CommandType.BOOK_QUERY));
            if (answers || view || runtime.outbound(i).hasEvents()) {
                flushSlot(slot, answers ? answering : 0, view ? appliedType : null);
            }
        }
        dropUnserved();
        scheduleEngineTimer();
        scheduleSessionTimer();
        status.commandSequence = journal.commandSequence();
        status.journalHeldThrough = journal.heldThrough();
        status.journalFailure = journal.failure();
        issuer = null;
        answering = 0;
        updateWindowStatus();
    }

    /**
     * Turns a gateway's staged records into a batch: numbered, kept in its window (market data only while it is
     * connected, trace stamps dropped: the kept copy is the same on every node), sent if this node leads.
     */
    private void flushSlot(GatewaySlot slot, long answered, CommandType viewAfter) {
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
            send(slot, live, 0, liveAt);
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
     * in this node's session logs, sent to nobody; the client gets them by its resend when it logs on again.
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

    /** The cluster's gateways and who holds each session, for a gateway's admin endpoint, staged for its batch. */
    private void publishDirectory(GatewaySlot slot) {
        List<GatewayDirectory.Gateway> gateways = new ArrayList<>();
        for (int i = 1; i <= slots.maxGateways(); i++) {
            GatewaySlot known = slots.slot(i);
            if (!known.isFree()) {
                gateways.add(new GatewayDirectory.Gateway(known.index, known.gatewayId, known.open, known.pid,
                    known.fixPort, known.adminPort));
            }
        }
        int length = new GatewayDirectory(ledger.takeovers(), gateways, ledger.holders()).encode(reply, 0);
        runtime.outbound(slot.index).publishRecord(Egress.DIRECTORY_RECORD, reply, 0, length);
    }

    /** A resend's answer, from this node (the leader) to the gateway holding the session. */
    private void sendResentRecords(GatewaySlot slot, DirectBuffer records, int length) {
        ClientSession session = cluster.getClientSession(slot.sessionId);
        if (session == null || session.isClosing()) {
            return;
        }
        Egress.encodeResentHeader(kept, 0);
        kept.putBytes(Egress.RESENT_HEADER_LENGTH, records, 0, length);
        offerReply(session, kept, Egress.RESENT_HEADER_LENGTH + length);
    }

    /** Offers to the gateway's session, retrying briefly on back-pressure; a batch that cannot go is asked for again. */
    private void send(GatewaySlot slot, DirectBuffer buffer, int offset, int length) {
        ClientSession session = cluster.getClientSession(slot.sessionId);
        if (session != null && !session.isClosing()) {
            offerReply(session, buffer, length);
        }
    }

    // --- gateways ---

    private void onHello(ClientSession session, DirectBuffer buffer, int offset, int length) {
        int gatewayId = length >= 8 ? Ingress.helloGatewayId(buffer, offset) : 0;
        int[] owners = Ingress.helloOwners(buffer, offset, length);
        if (gatewayId <= 0 || owners == null) {
            refuseHello(session, "malformed hello (gateway id " + gatewayId + ")");
            return;
        }
        long fingerprint = Ingress.helloFingerprint(buffer, offset);
        if (venueFingerprint == 0) {
            venueFingerprint = fingerprint; // the first gateway's tables become the venue's
            if (!checkOwnTables()) {
                return;
            }
        }
        if (fingerprint != venueFingerprint) {
            refuseHello(session, "the gateway's symbols or sessions differ from the venue's (its configuration's"
                + " symbols and sessions lists, and each symbol's tick, lot and limits, must be the cluster's)");
            return;
        }
        GatewaySlot slot = slots.byGatewayId(gatewayId);
        if (slot == null) {
            slot = slots.firstFree();
        }
        if (slot == null) {
            refuseHello(session, "the cluster serves " + slots.maxGateways() + " gateways already"
                + " (cluster.maxGateways)");
            return;
        }
        if (slot.gatewayId == gatewayId && slot.open && slot.sessionId != session.id()) {
            // A gateway restarted before the cluster timed its old session out: the new session takes over, the old
            // one is closed (its commands, if any still come, are passed over: they are from no current session).
            LOG.warn("gateway {} said hello on session {} while its session {} is open (restarted?): the new one takes"
                + " over", gatewayId, session.id(), slot.sessionId);
            if (cluster.getClientSession(slot.sessionId) != null) {
                cluster.closeClientSession(slot.sessionId);
            }
        }
        String refusal = slots.refusalOf(owners);
        if (refusal != null) {
            refuseHello(session, refusal);
            return;
        }
        GatewayProcess process = Ingress.helloProcess(buffer, offset, length);
        boolean known = slot.gatewayId == gatewayId;
        boolean restarted = known && process.incarnation() != slot.incarnation;
        slot.gatewayId = gatewayId;
        slot.sessionId = session.id();
        slot.open = true;
        slot.lastHeardNs = clock.nanoTime();
        slot.incarnation = process.incarnation();
        slot.pid = process.pid();
        slot.fixPort = process.fixPort();
        slot.adminPort = process.adminPort();
        slot.owners = owners.clone();
        if (restarted || !known) {
            // A new process: the connections of the sessions it held are gone (clients log on again, anywhere), and
            // what it had not consumed is of no use to it (the sessions' messages are in every node's session logs).
            ledger.releaseAll(slot.index, sessions);
            slot.window.release(slot.egressSequence);
        }
        directoryChanged = true;
        LOG.info("gateway {} (pid {}, FIX port {}) said hello on session {} ({}), may serve owners {}; {} of its"
                + " commands applied, {} batches unacknowledged", gatewayId, process.pid(), process.fixPort(),
            session.id(), !known ? "first time" : restarted ? "restarted" : "again", Arrays.toString(owners),
            slot.lastApplied, slot.window.count());
        if (leader) {
            welcome(slot, session);
        }
        flushDecisions(); // the directory, and grants of claims that waited for the sessions it held
    }

    /** After a message that is no command (a hello, a lost gateway, a session timer): the records it staged go out. */
    private void flushDecisions() {
        issuer = null;
        answering = 0;
        appliedType = null;
        flushAll();
    }

    /**
     * A node configured with other symbols or sessions than the venue's must not apply the log: its ids would mean
     * other symbols and sessions. It stops here (its admin endpoint and exit status say why); the others go on.
     */
    private boolean checkOwnTables() {
        if (venueFingerprint != 0 && venueFingerprint != ownFingerprint) {
            status.startFailure = "symbols, sessions: this node's configuration differs from the venue's (the tables"
                + " its gateways said hello with); every node and gateway must read the same symbols and sessions";
            LOG.error("{}: this node applies nothing more and stops", status.startFailure);
            return false;
        }
        return true;
    }

    private void refuseHello(ClientSession session, String why) {
        status.refusedHellos++;
        LOG.warn("hello refused on session {}: {}", session.id(), why);
        if (leader) {
            int length = Egress.encodeRefused(reply, 0, why);
            offerReply(session, reply, length);
        }
    }

    /**
     * The leader tells a gateway saying hello where the cluster stands: its last applied command and egress batch and
     * its owners' last inbound positions (WELCOME), the books as they rest (SEED, for its market data), then every
     * batch it has not acknowledged (marked history).
     */
    private void welcome(GatewaySlot slot, ClientSession session) {
        MatchingEngine engine = runtime.engine();
        SessionControl[] controls = SessionControl.values();
        int symbols = engine.symbolCount();
        Egress.encodeWelcomeHeader(reply, 0, slot.gatewayId, slot.lastApplied, slot.egressSequence,
            slot.window.oldestSequence(), seedMessageCount(engine), slot.owners.length, controls.length, symbols);
        int at = Egress.WELCOME_HEADER_LENGTH;
        for (int owner : slot.owners) {
            reply.putInt(at, owner, Egress.ORDER);
            reply.putLong(at + Integer.BYTES, engine.lastInboundPosition(owner), Egress.ORDER);
            at += Integer.BYTES + Long.BYTES;
            for (SessionControl control : controls) {
                reply.putLong(at, engine.sessionControl(owner, control), Egress.ORDER);
                at += Long.BYTES;
            }
        }
        for (int symbol = 0; symbol < symbols; symbol++) {
            reply.putLong(at, engine.referencePrice(symbol), Egress.ORDER);
            at += Long.BYTES;
        }
        int viewLength = runtime.view().encode(reply, at + Integer.BYTES, false, false);
        reply.putInt(at, viewLength, Egress.ORDER);
        at = putSymbolSettings(engine, at + Integer.BYTES + viewLength);
        offerReply(session, reply, at);
        sendSeed(session, engine);
        resend(slot, session, 0, Egress.HISTORY);
    }

    /** The symbol settings a welcome carries: every schedule and volatility setting (the time zone goes as text). */
    private static final SymbolControl[] SCHEDULE_CONTROLS = Arrays.stream(SymbolControl.values())
        .filter(control -> control != SymbolControl.TIME_ZONE).toArray(SymbolControl[]::new);

    /** One symbol's settings as the welcome carries them: shared by the symbols of a group. */
    private record SettingsProfile(List<Long> values, String timeZone) {
    }

    /**
     * The welcome's symbol settings at {@code at} (Egress): each symbol's schedule and volatility settings and time
     * zone as the engine holds them, so the gateway sends only where its configuration differs, resets included. The
     * symbols of a group share them: each distinct profile goes once (numbered in symbol order), then each symbol's
     * profile number, 4 bytes a symbol. Returns where the welcome ends.
     */
    private int putSymbolSettings(MatchingEngine engine, int at) {
        reply.putInt(at, SCHEDULE_CONTROLS.length, Egress.ORDER);
        at += Integer.BYTES;
        for (SymbolControl control : SCHEDULE_CONTROLS) {
            reply.putInt(at, control.code(), Egress.ORDER);
            at += Integer.BYTES;
        }
        int countAt = at;
        at += Integer.BYTES;
        Map<SettingsProfile, Integer> profiles = new HashMap<>(); // looked up only: numbered in symbol order
        int[] profileOf = new int[engine.symbolCount()];
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            List<Long> values = new ArrayList<>(SCHEDULE_CONTROLS.length);
            for (SymbolControl control : SCHEDULE_CONTROLS) {
                values.add(engine.symbolControl(symbol, control));
            }
            SettingsProfile settings = new SettingsProfile(values, engine.symbolTimeZone(symbol));
            Integer profile = profiles.get(settings);
            if (profile == null) {
                profile = profiles.size();
                profiles.put(settings, profile);
                for (long value : values) {
                    reply.putLong(at, value, Egress.ORDER);
                    at += Long.BYTES;
                }
                at += reply.putStringAscii(at, settings.timeZone(), Egress.ORDER);
            }
            profileOf[symbol] = profile;
        }
        reply.putInt(countAt, profiles.size(), Egress.ORDER);
        for (int profile : profileOf) {
            reply.putInt(at, profile, Egress.ORDER);
            at += Integer.BYTES;
        }
        return at;
    }

    /** One entry of the books' seed: a resting order ({@code kind}: its side's ordinal) or a call's indicative. */
    private interface SeedEntrySink {
        void entry(int symbolId, int kind, long price, long quantity);
    }

    /** The seed's entries: per symbol its resting orders, buys then sells, then its call's indicative if any. */
    private static void forEachSeedEntry(MatchingEngine engine, SeedEntrySink sink) {
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            int symbolId = symbol;
            for (Side side : Side.values()) {
                engine.forEachRestingOrder(symbol, side, order -> sink.entry(symbolId, order.side().ordinal(),
                    order.price(), order.displayedQuantity()));
            }
            long[] indicative = engine.indicative(symbol);
            if (indicative[1] != 0) {
                sink.entry(symbol, Egress.SEED_INDICATIVE, indicative[0], indicative[1]);
            }
        }
    }

    private static final int SEED_ENTRIES_PER_MESSAGE = (SEED_MESSAGE_BYTES - Egress.SEED_HEADER_LENGTH)
        / Egress.SEED_ENTRY_LENGTH;

    private int seedMessageCount(MatchingEngine engine) {
        long[] entries = {0};
        forEachSeedEntry(engine, (symbol, kind, price, quantity) -> entries[0]++);
        return (int) ((entries[0] + SEED_ENTRIES_PER_MESSAGE - 1) / SEED_ENTRIES_PER_MESSAGE);
    }

    private void sendSeed(ClientSession session, MatchingEngine engine) {
        int[] entries = {0};
        int[] length = {0};
        Egress.encodeSeedHeader(reply, 0);
        forEachSeedEntry(engine, (symbol, kind, price, quantity) -> {
            length[0] = Egress.putSeedEntry(reply, 0, entries[0]++, symbol, kind, price, quantity);
            if (entries[0] == SEED_ENTRIES_PER_MESSAGE) {
                offerReply(session, reply, length[0]);
                entries[0] = 0;
            }
        });
        if (entries[0] > 0) {
            offerReply(session, reply, length[0]);
        }
    }

    private void onResume(ClientSession session, DirectBuffer buffer, int offset, int length) {
        GatewaySlot slot = slots.bySession(session.id());
        if (slot == null || length != Ingress.RESUME_LENGTH) {
            ignored(slot, "a malformed resume");
            return;
        }
        if (leader) {
            resend(slot, session, Ingress.resumeAfter(buffer, offset), 0);
        }
    }

    private void resend(GatewaySlot slot, ClientSession session, long after, int flags) {
        slot.window.forEachAfter(after, (batch, offset, length) -> {
            kept.putBytes(0, batch, offset, length);
            Egress.batchFlags(kept, 0, flags);
            status.resentBatches++;
            offerReply(session, kept, length);
        });
    }

    /** Offers from offset 0, retrying briefly on back-pressure; what cannot go is counted (the gateway resumes). */
    private void offerReply(ClientSession session, DirectBuffer buffer, int length) {
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

    private void ignored(GatewaySlot slot, String what) {
        status.ignoredCommands++;
        if (slot != null) {
            slot.ignoredCommands++;
        }
        if (status.ignoredCommands < 100 || status.ignoredCommands % 10_000 == 0) {
            LOG.warn("ignored {} from {} ({} ignored in all)", what,
                slot == null ? "an unknown session" : "gateway " + slot.gatewayId, status.ignoredCommands);
        }
    }

    private void updateWindowStatus() {
        long bytes = 0;
        long lost = 0;
        for (int i = 1; i <= slots.maxGateways(); i++) {
            bytes += slots.slot(i).window.bytesHeld();
            lost += slots.slot(i).window.lostBatches();
        }
        status.windowBytes = bytes;
        status.lostBatches = lost;
    }

    // --- snapshots, roles, life cycle ---

    @Override
    public void onTakeSnapshot(ExclusivePublication snapshotPublication) {
        long start = System.nanoTime();
        int bytes = ServiceSnapshot.take(snapshotPublication, cluster.idleStrategy(), settings, runtime.engine(), slots,
            ledger,
            new ServiceSnapshot.State(journal.commandSequence(), endOfDayDeadline, venueFingerprint,
                engineTimerDeadline, sessionTimerDeadline),
            cluster.logPosition());
        journal.markPosition();
        status.snapshots++;
        LOG.info("snapshot taken at command {}: {} bytes in {} ms", journal.commandSequence(), bytes,
            (System.nanoTime() - start) / 1_000_000);
    }

    @Override
    public void onNewLeadershipTermEvent(long leadershipTermId, long logPosition, long timestamp,
                                         long termBaseLogPosition, int leaderMemberId, int logSessionId,
                                         java.util.concurrent.TimeUnit timeUnit, int appVersion) {
        status.leaderMemberId = leaderMemberId;
        status.leadershipTermId = leadershipTermId;
        LOG.info("leadership term {}: node {} leads", leadershipTermId, leaderMemberId);
    }

    @Override
    public void onRoleChange(Cluster.Role newRole) {
        leader = newRole == Cluster.Role.LEADER;
        status.role = newRole.name();
        LOG.info("this node is now {}", newRole);
    }

    @Override
    public void onTerminate(Cluster cluster) {
        LOG.info("service stopping at command {}", journal == null ? 0 : journal.commandSequence());
        if (runtime != null) {
            runtime.close();
        }
    }

    /** Between log messages: answers the admin endpoint's book query (reads the books, changes nothing). */
    @Override
    public int doBackgroundWork(long nowNs) {
        long asked = bookQueryAsked;
        if (asked == bookQueryAnswered || runtime == null) {
            return 0;
        }
        bookQueryAnswered = asked;
        runtime.engine().process(operatorCommand.bookQuery(bookQuerySymbol, asked));
        return 1;
    }

    /** Any thread: asks for a copy of the books (answered in {@link #view()} under {@code requestId}). */
    public void askBookQuery(int symbolId, long requestId) {
        bookQuerySymbol = symbolId;
        bookQueryAsked = requestId;
    }

    /** Any thread: what the service thread publishes (halts, kill switches, book query answers). */
    public EngineView view() {
        return runtime == null ? null : runtime.view();
    }

    /** Any thread: the service's status for the node's admin endpoint. */
    public ServiceStatus status() {
        return status;
    }
}
