package io.fixmatch.cluster.service;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.Header;
import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.cluster.protocol.GatewayDirectory;
import io.fixmatch.cluster.protocol.GatewayProcess;
import io.fixmatch.cluster.protocol.Ingress;
import io.fixmatch.cluster.protocol.ProtocolVersion;
import io.fixmatch.cluster.protocol.VenueFingerprint;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.engine.loop.IdleStrategies;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.matching.EngineView;
import io.fixmatch.journal.ReplicaJournal;
import io.fixmatch.journal.SessionMessageLogs;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * randomness. Whether this node is leader decides only whether egress is actually sent.
 *
 * <p>This class takes Aeron's callbacks and decides what each log message does; the rest has classes of its own:
 * the batches to the gateways and every offer on egress ({@link EgressBatches}), the answer to a HELLO
 * ({@link GatewayWelcome}), the cluster timers ({@link ServiceTimers}), the snapshot ({@link ServiceSnapshot}).
 */
public final class MatchingService implements ClusteredService {
    private static final Logger LOG = LoggerFactory.getLogger(MatchingService.class);

    private final ServiceSettings settings;
    private final ServiceStatus status = new ServiceStatus();
    private final LogClock clock = new LogClock();
    private final GatewaySlots slots;
    private final SessionLedger ledger;
    private ClusterSessions sessions;
    /** The gateways or who holds a session changed: every connected gateway gets the directory after this message. */
    private boolean directoryChanged;
    private final Command scratch = new Command();
    private final Command operatorCommand = new Command();
    /** The directory's bytes, staged for each connected gateway. */
    private final ExpandableDirectByteBuffer directory = new ExpandableDirectByteBuffer(4096);
    private final EgressBatches egress;
    private final GatewayWelcome welcome;
    private final ServiceTimers timers;
    private Cluster cluster;
    private ReplicaJournal journal;
    private MatchingRuntime runtime;
    /** The gateway sequence the command being applied answers, and its slot (null: the cluster's own command). */
    private GatewaySlot issuer;
    private long answering;
    /** The symbols and sessions the log's first gateway said hello with; 0: none yet. Replicated state. */
    private long venueFingerprint;
    /** This node's configuration's symbols and sessions ({@link VenueFingerprint}). */
    private final long ownFingerprint;
    /** The type of the command being applied (null: none, a malformed one). */
    private CommandType appliedType;
    /**
     * The protocol version of the node that began the current leadership term, from the log's term event (the minor
     * of its Aeron appVersion); -1 while none was seen since this service started (its own rules then). A term begun
     * by a release before versions (0) took every HELLO, so its replay does too: the log means what it meant.
     */
    private int termProtocolVersion = -1;
    /**
     * True while a log message, a timer or a snapshot is being handled. Aeron's idle strategy, which an offer waiting
     * on back-pressure and the snapshot's writer call, runs {@link #doBackgroundWork}: the book query must not enter
     * the engine then (in the middle of a command it would restamp that command's later events and its phase clock,
     * on the leader only, which alone offers egress).
     */
    private boolean handling;
    /** The admin endpoint's book query: asked (any thread), answered by the service thread between messages. */
    private volatile long bookQueryAsked;
    private volatile int bookQuerySymbol;
    private long bookQueryAnswered;

    public MatchingService(ServiceSettings settings) {
        this(settings, ProtocolVersion.CURRENT);
    }

    /**
     * @param welcomeVersion the protocol version its WELCOMEs say ({@link ProtocolVersion#CURRENT}; another only in
     *                       tests: a node of another release, as a gateway sees it)
     */
    MatchingService(ServiceSettings settings, int welcomeVersion) {
        this.settings = settings;
        this.ownFingerprint = VenueFingerprint.of(settings.engine().symbols(), settings.owners());
        this.slots = new GatewaySlots(settings.maxGateways(), settings.owners().size(), settings.windowBytes());
        this.egress = new EgressBatches(slots, status);
        this.welcome = new GatewayWelcome(egress, welcomeVersion);
        this.timers = new ServiceTimers(settings.endOfDay());
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
        handling = true;
        try {
            start(cluster, snapshotImage);
        } catch (RuntimeException e) {
            status.startFailure = e.getMessage() != null ? e.getMessage() : e.toString();
            LOG.error("the matching service cannot start: {}", status.startFailure, e);
            throw e;
        } finally {
            handling = false;
        }
    }

    private void start(Cluster cluster, Image snapshotImage) {
        this.cluster = cluster;
        timers.start(cluster);
        journal = ReplicaJournal.open(settings.journal(), settings.engine().symbols(), settings.owners(), clock);
        LoopConfig staging = new LoopConfig(-1, IdleStrategies.DEFAULT, 64 * 1024, EgressBatches.STAGING_RING_BYTES,
            1);
        runtime = new MatchingRuntime(settings.engine(), staging, journal, settings.maxGateways() + 1,
            owner -> ledger.isOwner(owner) ? ledger.holder(owner) : 0, clock);
        SessionMessageLogs sessionLogs = SessionMessageLogs.open(
            settings.journal().directory().resolveSibling("session-messages"), settings.owners(),
            () -> TimeUnit.NANOSECONDS.toMillis(clock.nanoTime()));
        sessions = new ClusterSessions(ledger, sessionLogs, settings.dropCopies(), clock,
            new ClusterSessions.Gateways() {
                @Override
                public OutboundEventRing staging(int slot) {
                    return runtime.outbound(slot);
                }

                @Override
                public void sendResent(int slot, DirectBuffer records, int length) {
                    egress.sendResent(slots.slot(slot), records, length);
                }

                @Override
                public boolean leader() {
                    return egress.leader();
                }
            });
        runtime.publishMarketData(settings.marketData());
        runtime.dropCopyRoutes(settings.dropCopies());
        long restoredSequence = 0;
        if (snapshotImage != null) {
            ServiceSnapshot.State state = ServiceSnapshot.load(snapshotImage, cluster.idleStrategy(), settings,
                runtime.engine(), slots, ledger);
            restoredSequence = state.commandSequence();
            timers.restore(state.endOfDayDeadline(), state.engineTimerDeadline(), state.sessionTimerDeadline());
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
        egress.start(cluster, runtime, journal, sessions);
        welcome.start(runtime);
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
        handling = true;
        try {
            handleSessionClose(session, timestamp, closeReason);
        } finally {
            handling = false;
        }
    }

    private void handleSessionClose(ClientSession session, long timestamp, CloseReason closeReason) {
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
        handling = true;
        try {
            handleMessage(session, timestamp, buffer, offset, length, header);
        } finally {
            handling = false;
        }
    }

    private void handleMessage(ClientSession session, long timestamp, DirectBuffer buffer, int offset, int length,
                               Header header) {
        if (status.startFailure != null) {
            return; // configured apart from the venue: applies nothing, stops (NodeMain)
        }
        clock.set(timestamp);
        status.logPosition = header.position();
        timers.scheduleEndOfDay(timestamp);
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
            int[] holders = type == SessionCodec.CLAIM || type == SessionCodec.RELEASE ? ledger.holders() : null;
            sessions.onRequest(slot, type, buffer, offset, length);
            directoryChanged |= holders != null && !Arrays.equals(holders, ledger.holders());
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
        handling = true;
        try {
            handleTimer(correlationId, timestamp);
        } finally {
            handling = false;
        }
    }

    private void handleTimer(long correlationId, long timestamp) {
        if (status.startFailure != null) {
            return;
        }
        clock.set(timestamp);
        if (correlationId == ServiceTimers.ENGINE_TIMER) {
            timers.engineTimerFired();
            applyOwn(operatorCommand.timer().timestampNanos(timestamp)); // reschedules as it flushes
            return;
        }
        if (correlationId == ServiceTimers.SESSION_TIMER) {
            timers.sessionTimerFired();
            int[] before = ledger.holders();
            ledger.expire(timestamp, sessions);
            directoryChanged |= !Arrays.equals(before, ledger.holders());
            flushDecisions(); // the decisions' records to their gateways; reschedules
            return;
        }
        if (correlationId != ServiceTimers.END_OF_DAY_TIMER) {
            return;
        }
        timers.endOfDayFired();
        LOG.info("end of the trading day: day orders expire");
        applyOwn(operatorCommand.expireDayOrders().timestampNanos(timestamp));
        timers.scheduleEndOfDay(timestamp);
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
     * After a command: its batches out ({@link EgressBatches}), the engine timer at its next deadline, the status
     * updated.
     */
    private void flushAll() {
        if (directoryChanged) {
            directoryChanged = false;
            publishDirectory();
        }
        egress.afterCommand(issuer, answering, appliedType);
        timers.scheduleEngineTimer(runtime.engine().nextDeadlineNanos());
        timers.scheduleSessionTimer(ledger.nextDeadlineNs());
        status.commandSequence = journal.commandSequence();
        status.journalHeldThrough = journal.heldThrough();
        status.journalFailure = journal.failure();
        issuer = null;
        answering = 0;
        updateWindowStatus();
    }

    /** After a message that is no command (a hello, a lost gateway, a session timer): the records it staged go out. */
    private void flushDecisions() {
        issuer = null;
        answering = 0;
        appliedType = null;
        flushAll();
    }

    /**
     * The cluster's gateways and who holds each session, staged for every connected gateway's next batch (for their
     * admin endpoints: any gateway says where a session is).
     */
    private void publishDirectory() {
        List<GatewayDirectory.Gateway> gateways = new ArrayList<>();
        for (int i = 1; i <= slots.maxGateways(); i++) {
            GatewaySlot known = slots.slot(i);
            if (!known.isFree()) {
                gateways.add(new GatewayDirectory.Gateway(known.index, known.gatewayId, known.open, known.pid,
                    known.fixPort, known.adminPort));
            }
        }
        int length = new GatewayDirectory(ledger.takeovers(), gateways, ledger.holders()).encode(directory, 0);
        for (int i = 1; i <= slots.maxGateways(); i++) {
            if (slots.slot(i).open) {
                runtime.outbound(i).publishRecord(Egress.DIRECTORY_RECORD, directory, 0, length);
            }
        }
    }

    // --- gateways ---

    private void onHello(ClientSession session, DirectBuffer buffer, int offset, int length) {
        int gatewayId = length >= 8 ? Ingress.helloGatewayId(buffer, offset) : 0;
        int version = Ingress.helloVersion(buffer, offset, length);
        if (termProtocolVersion != 0 && !ProtocolVersion.accepts(version)) {
            // First: a HELLO of another version may have another layout. Both versions named, for the gateway's
            // operator (the refusal ends its start) and in this node's log.
            refuseHello(session, "protocol version: gateway " + gatewayId + " speaks version " + version
                + (version == 0 ? " (a release before versions)" : "") + ", this node version "
                + ProtocolVersion.CURRENT + " (it accepts " + ProtocolVersion.accepted() + "): gateways and nodes"
                + " must be of releases of one protocol version (docs/OPERATIONS.md, Upgrades)");
            return;
        }
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
        if (egress.leader()) {
            welcome.welcome(slot, session);
        }
        flushDecisions(); // the directory, and grants of claims that waited for the sessions it held
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
        if (egress.leader()) {
            welcome.refuse(session, why);
        }
    }

    private void onResume(ClientSession session, DirectBuffer buffer, int offset, int length) {
        GatewaySlot slot = slots.bySession(session.id());
        if (slot == null || length != Ingress.RESUME_LENGTH) {
            ignored(slot, "a malformed resume");
            return;
        }
        if (egress.leader()) {
            egress.resend(slot, session, Ingress.resumeAfter(buffer, offset), 0);
        }
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
        handling = true;
        try {
            takeSnapshot(snapshotPublication);
        } finally {
            handling = false;
        }
    }

    private void takeSnapshot(ExclusivePublication snapshotPublication) {
        long start = System.nanoTime();
        int bytes = ServiceSnapshot.take(snapshotPublication, cluster.idleStrategy(), settings, runtime.engine(), slots,
            ledger, new ServiceSnapshot.State(journal.commandSequence(), timers.endOfDayDeadline(), venueFingerprint,
                timers.engineTimerDeadline(), timers.sessionTimerDeadline()),
            cluster.logPosition());
        journal.markPosition();
        status.snapshots++;
        LOG.info("snapshot taken at command {}: {} bytes in {} ms", journal.commandSequence(), bytes,
            (System.nanoTime() - start) / 1_000_000);
    }

    @Override
    public void onNewLeadershipTermEvent(long leadershipTermId, long logPosition, long timestamp,
                                         long termBaseLogPosition, int leaderMemberId, int logSessionId,
                                         TimeUnit timeUnit, int appVersion) {
        status.leaderMemberId = leaderMemberId;
        status.leadershipTermId = leadershipTermId;
        termProtocolVersion = ProtocolVersion.ofAppVersion(appVersion);
        for (int i = 1; i <= slots.maxGateways(); i++) {
            // The election's silence is no gateway's: each gets the timeout from the new term on to be heard again.
            GatewaySlot slot = slots.slot(i);
            slot.lastHeardNs = Math.max(slot.lastHeardNs, timestamp);
        }
        sessions.ledger().termBegan(timestamp);
        status.termProtocolVersion = termProtocolVersion;
        LOG.info("leadership term {}: node {} leads (protocol version {})", leadershipTermId, leaderMemberId,
            termProtocolVersion);
        if (termProtocolVersion != ProtocolVersion.CURRENT) {
            LOG.warn("leadership term {} was begun by node {} of protocol version {}, this node's is {}: expected only"
                + " while replaying the log from before an upgrade; otherwise nodes of two releases run together"
                + " (docs/OPERATIONS.md, Upgrades)", leadershipTermId, leaderMemberId, termProtocolVersion,
                ProtocolVersion.CURRENT);
        }
    }

    @Override
    public void onRoleChange(Cluster.Role newRole) {
        egress.leader(newRole == Cluster.Role.LEADER);
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

    /** Between log messages only ({@link #handling}): answers the admin endpoint's book query (reads the books). */
    @Override
    public int doBackgroundWork(long nowNs) {
        long asked = bookQueryAsked;
        if (asked == bookQueryAnswered || runtime == null || handling) {
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
