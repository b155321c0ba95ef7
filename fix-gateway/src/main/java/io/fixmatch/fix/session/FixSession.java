package io.fixmatch.fix.session;

import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.dictionary.FixDictionary;
import io.fixmatch.fix.dictionary.SessionRejectReasons;
import io.fixmatch.fix.security.Credentials;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

/**
 * One FIX 4.4 session, as the acceptor side: sequence numbers in both directions (persisted in its
 * {@link SessionStore}), Logon, Heartbeat and TestRequest, ResendRequest answered from the store (application
 * messages resent with PossDupFlag and OrigSendingTime, admin messages replaced by SequenceReset-GapFill),
 * SequenceReset, Logout, and session-level Reject. Every message is judged ({@link InboundChecks}: the venue data
 * dictionary, SendingTime, CompIDs, PossDup) when it is its turn; one that arrives too high is queued
 * ({@link QueuedMessages}) while the gap before it is requested (one ResendRequest at a time), and processed once the
 * gap is filled.
 *
 * <p>A session may have a schedule ({@link SessionSchedule}, followed by a {@link ScheduleTracker}): outside it a
 * Logon is refused, at its end a logged-on session is logged out, and with {@code resetOnSessionStart} both sequence
 * numbers start again at 1 at each start (stored, so a restart keeps it; the messages of the previous trading session
 * are no longer resent). What the session keeps beside the FIX rules has classes of its own, which it resets with
 * its sequence numbers: the ClOrdIDs of its current trading session, for PossResend ({@link SeenClientOrderIds},
 * rebuilt from its store), and its bookkeeping of journal positions for recovery ({@link JournalPositions}). Its
 * outbound side is {@link SessionOutput}, the one funnel through which every message is numbered, stored and written;
 * a ResendRequest is answered by {@link ResendResponder}; the heartbeat, TestRequest and Logout timers are kept by
 * {@link HeartbeatMonitor}. This class decides what each message and each timer tick does.
 *
 * <p>One thread owns a session: the gateway thread its client's connection, outgoing reports and timers run on
 * ({@link #claimOwnership()}). Nothing is locked; every entry point asserts that it runs on the owner (a call from
 * elsewhere must be submitted to that thread as a task). Only {@link #isLoggedOn()} may be read from anywhere.
 */
public final class FixSession {
    private static final Logger LOG = LoggerFactory.getLogger(FixSession.class);
    /** Bytes of messages kept while a gap is open (see {@link QueuedMessages}). */
    private static final int QUEUE_BYTES = 2 * 1024 * 1024; // see QueuedMessages: a few seconds of a busy client
    /** QuickFIX/J's TestReqID; any value works for a conformant client, this one certification scripts expect. */
    private static final MessageBody TEST_REQUEST = w -> w.field(FixTags.TEST_REQ_ID, "TEST");

    private enum State { DISCONNECTED, LOGGED_ON, LOGOUT_SENT }

    private final SessionConfig config;
    private final int ownerId;
    private final byte[] serverCompId;
    private final byte[] clientCompId;
    private final SessionStore store;
    private final InboundSequence inbound;
    private final SessionTimings timings;
    private final ApplicationHandler application;
    private final SessionOutput output;
    private final ResendResponder resends;
    private final HeartbeatMonitor heartbeats;
    private final InboundChecks checks;
    private final QueuedMessages queued;
    private final RejectBody rejectBody = new RejectBody();
    private final String name;
    private final Credentials credentials;
    private final SeenClientOrderIds seenClientOrderIds;
    private final JournalPositions journalPositions;
    private final ScheduleTracker schedule;
    /** Sessions owned by a cluster: it holds the session and numbers its messages (null: standalone). */
    private final ClusterNumbering cluster;

    /** Written by the owner only; volatile so that others (shutdown) may watch it. */
    private volatile State state = State.DISCONNECTED;
    private final ThreadOwner owner = new ThreadOwner();
    private final SessionCounters counters = new SessionCounters();
    /** While our ResendRequest is outstanding: the last number missing when we sent it; else 0. */
    private long resendRequestedThrough;
    /** We asked for the connection to be closed: nothing more that arrives on it is acted on. */
    private boolean closing;
    /** The connection is ending with a Logout exchange (the client's, or ours to it), not lost. */
    private boolean endedByLogout;
    private long lastReadNanos;

    /**
     * @param dictionary the data dictionary incoming messages are validated against (the venue's:
     *                   {@code io.fixmatch.fix.app.VenueDictionary})
     */
    public FixSession(SessionConfig config, int ownerId, String serverCompId, SessionStore store,
                      SessionTimings timings, ApplicationHandler application, int maxMessageSize,
                      FixDictionary dictionary) {
        this(config, ownerId, serverCompId, store, timings, application, maxMessageSize, dictionary, null);
    }

    /**
     * A session of a gateway of a cluster that owns the sessions ({@code clusterRequests} not null): the cluster
     * decides who holds it and numbers every message it sends; {@code store} is only this gateway's cache of it.
     */
    public FixSession(SessionConfig config, int ownerId, String serverCompId, SessionStore store,
                      SessionTimings timings, ApplicationHandler application, int maxMessageSize,
                      FixDictionary dictionary, SessionRequests clusterRequests) {
        this.config = config;
        this.cluster = clusterRequests == null ? null : new ClusterNumbering(ownerId, clusterRequests, maxMessageSize);
        this.ownerId = ownerId;
        this.serverCompId = serverCompId.getBytes(StandardCharsets.US_ASCII);
        this.clientCompId = config.clientCompId().getBytes(StandardCharsets.US_ASCII);
        this.store = store;
        this.inbound = new InboundSequence(store);
        this.timings = timings;
        this.application = application;
        this.checks = new InboundChecks(dictionary, clientCompId, this.serverCompId, timings.sendingTimeToleranceMs());
        this.queued = new QueuedMessages(Math.max(QUEUE_BYTES, maxMessageSize));
        this.name = serverCompId + "->" + config.clientCompId();
        this.credentials = Credentials.of(config.username(), config.password());
        byte[] storedBuffer = new byte[maxMessageSize]; // stored messages read back: the ClOrdIDs now, resends later
        FixMessage storedMessage = new FixMessage();
        this.seenClientOrderIds = SeenClientOrderIds.rebuiltFrom(store, config.clOrdIdMemory(), storedBuffer,
            storedMessage);
        this.output = new SessionOutput(name, this.serverCompId, clientCompId, store, counters, maxMessageSize,
            storedBuffer, storedMessage, cluster, inbound);
        this.resends = new ResendResponder(name, store, output, cluster);
        this.heartbeats = new HeartbeatMonitor(timings.logoutTimeoutMs());
        this.journalPositions = new JournalPositions(name, store, inbound, seenClientOrderIds);
        this.schedule = new ScheduleTracker(config.schedule());
    }

    /** Whether a cluster owns this session (holds it, numbers its messages). */
    public boolean clusterOwned() {
        return cluster != null;
    }

    /**
     * Before the session's gateway runs: the clock its schedule is read against (default: the system's). Tests set
     * one they move, so that a schedule's start and end come without waiting for them.
     */
    public void scheduleClock(Clock clock) {
        schedule.clock(clock);
    }

    /** The ClOrdIDs the session used in its current trading session, for PossResend. Owner thread. */
    public SeenClientOrderIds seenClientOrderIds() {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        return seenClientOrderIds;
    }

    /** The session's bookkeeping of journal positions (requests in flight, events stored, recovery). Owner thread. */
    public JournalPositions journalPositions() {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        return journalPositions;
    }

    /**
     * The schedule, at a Logon and on every timer tick: a session logged on in a trading session that has ended (or
     * outside any) is logged out; a disconnected session with {@code resetOnSessionStart} whose store was not yet
     * reset for the trading session in force is reset now. Returns the trading session's start, or -1 outside the
     * schedule.
     */
    private long applySchedule(long nowMs) {
        if (schedule.isAlways()) {
            return 0;
        }
        long sessionStart = schedule.sessionStartNow();
        if (state == State.LOGGED_ON && schedule.endedSinceLogon(sessionStart)) {
            LOG.info("{}: the trading session ended (schedule {}): logging out", name, schedule);
            logout("end of the trading session (schedule " + schedule + ")", nowMs);
        }
        if (state == State.DISCONNECTED && cluster == null
            && schedule.resetDue(sessionStart, store.tradingSessionStart())) {
            store.resetForTradingSession(sessionStart);
            inbound.reset();
            seenClientOrderIds.clear();
            LOG.info("{}: sequence numbers reset for the trading session starting {} (schedule {})", name,
                java.time.Instant.ofEpochMilli(sessionStart), schedule);
        }
        return sessionStart;
    }

    public SessionConfig config() {
        return config;
    }

    /** The engine's owner id of this session's orders. */
    public int ownerId() {
        return ownerId;
    }

    public byte[] clientCompId() {
        return clientCompId;
    }

    public String name() {
        return name;
    }

    /** Any thread: the session's message counts. */
    public SessionCounters counters() {
        return counters;
    }

    /** Any thread (a volatile read): whether a connection is bound to the session. */
    public boolean isLoggedOn() {
        return state != State.DISCONNECTED;
    }

    public long nextSenderSeqNum() {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        return store.nextSenderSeqNum();
    }

    public long nextTargetSeqNum() {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        return inbound.expected();
    }

    /** The connection's transport while logged on, else null. Owner thread. */
    public SessionTransport transport() {
        return output.transport();
    }

    /** When the bytes of the message being handled were read from the socket (0 unless traced). */
    public long lastReadNanos() {
        return lastReadNanos;
    }

    /**
     * Whether the Logon's credentials are the configured ones (null config values mean none required), compared in
     * constant time (see {@link Credentials}).
     */
    public boolean credentialsMatch(FixMessage logon) {
        return credentials.matches(logon);
    }

    /** {@link #onLogon} results. */
    public enum LogonResult {
        LOGGED_ON,
        /** Refused: the session has answered with a Logout and is closing the connection. */
        REFUSED,
        /** The session is logged on over another connection, which keeps it; nothing was sent. */
        ALREADY_LOGGED_ON
    }

    /**
     * A Logon from a new connection, already checked for CompIDs and credentials. Binds the session to
     * {@code newTransport} unless it is logged on elsewhere or the Logon is not acceptable.
     */
    public LogonResult onLogon(FixMessage logon, SessionTransport newTransport, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        try {
            return handleLogon(logon, newTransport, nowMs);
        } finally {
            inbound.settle();
        }
    }

    private LogonResult handleLogon(FixMessage logon, SessionTransport newTransport, long nowMs) {
        if (state != State.DISCONNECTED) {
            return LogonResult.ALREADY_LOGGED_ON;
        }
        counters.received();
        output.transport(newTransport);
        state = State.LOGGED_ON;
        closing = false;
        endedByLogout = false;
        heartbeats.received(nowMs);
        output.lastSentMs(nowMs);
        resendRequestedThrough = 0;
        queued.clear();
        String problem = checks.logonProblem(logon, nowMs);
        if (problem != null) {
            return refuseLogon(problem, nowMs);
        }
        state = State.DISCONNECTED; // the schedule may reset the store of a session not logged on yet
        long sessionStart = applySchedule(nowMs);
        state = State.LOGGED_ON;
        if (sessionStart < 0) {
            return refuseLogon("Logon refused: outside the session's schedule (" + config.schedule() + ")", nowMs);
        }
        schedule.loggedOnIn(sessionStart);
        long seqNum = logon.longValue(FixTags.MSG_SEQ_NUM);
        boolean reset = logon.isSingleByte(FixTags.RESET_SEQ_NUM_FLAG, 'Y');
        if (cluster != null) {
            // The cluster decides: who holds the session, the numbers to continue with (onGranted, onRefused).
            heartbeats.interval(logon.longValue(FixTags.HEART_BT_INT));
            cluster.claim(logon, seqNum, reset, schedule.resetDue(sessionStart, -1) ? sessionStart : 0);
            return LogonResult.LOGGED_ON;
        }
        if (reset) {
            store.reset();
            inbound.reset();
            seenClientOrderIds.clear();
            LOG.info("{}: sequence numbers reset by Logon", name);
        }
        long expected = inbound.expected();
        if (seqNum < expected) {
            return refuseLogon("MsgSeqNum too low, expecting " + expected + " but received " + seqNum, nowMs);
        }
        answerLogon(logon, reset, nowMs);
        LOG.info("{}: logged on from {} (HeartBtInt={}s, next in {}, next out {})", name,
            newTransport.remoteAddress(), heartbeats.intervalMs() / 1000, expected, store.nextSenderSeqNum());
        if (seqNum > expected) {
            queued.add(seqNum, logon); // counted once the gap before it is filled
            requestResend(seqNum, nowMs);
        } else {
            inbound.expect(seqNum + 1);
        }
        return LogonResult.LOGGED_ON;
    }

    /** Every message after the Logon, on the session's connection. */
    public void onMessage(FixMessage message, long nowMs) {
        onMessage(message, nowMs, 0);
    }

    /**
     * As {@link #onMessage(FixMessage, long)}, with the System.nanoTime() at which the message's bytes were read
     * (traced sessions; see {@link #lastReadNanos()}).
     */
    public void onMessage(FixMessage message, long nowMs, long readNanos) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        try {
            handleMessage(message, nowMs, readNanos);
        } finally {
            inbound.settle();
        }
    }

    private void handleMessage(FixMessage message, long nowMs, long readNanos) {
        lastReadNanos = readNanos;
        if (state == State.DISCONNECTED || closing) {
            return;
        }
        if (cluster != null && cluster.claiming()) {
            // Before the Logon is answered a client sends nothing; whatever it did send, it resends at our request.
            return;
        }
        counters.received();
        heartbeats.received(nowMs);
        int msgType = message.msgType();
        if (!message.has(FixTags.MSG_SEQ_NUM)) {
            logoutAndDisconnect("Received message without MsgSeqNum", nowMs);
            return;
        }
        long seqNum = message.longValue(FixTags.MSG_SEQ_NUM);
        if (seqNum == FixMessage.NOT_A_NUMBER || seqNum < 0) {
            logoutAndDisconnect("MsgSeqNum(34) is not a sequence number", nowMs);
            return;
        }
        if (msgType == MsgTypes.LOGON && message.isSingleByte(FixTags.RESET_SEQ_NUM_FLAG, 'Y')) {
            onResetLogon(message, nowMs);
            return;
        }
        if (msgType == MsgTypes.SEQUENCE_RESET && !message.isSingleByte(FixTags.GAP_FILL_FLAG, 'Y')) {
            onSequenceReset(message, seqNum, nowMs);
        } else {
            long expected = inbound.expected();
            if (seqNum > expected) {
                onTooHigh(message, seqNum, nowMs);
                return;
            }
            if (seqNum < expected) {
                onTooLow(message, seqNum, expected, nowMs);
                return;
            }
            process(message, seqNum, nowMs);
        }
        processQueued(nowMs);
    }

    /** Periodic check (about once a second): heartbeats, test requests, dead peers, unanswered logouts. */
    public void onTimer(long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (cluster != null) {
            closeIfDue(nowMs);
            if (output.transport() != null && state != State.DISCONNECTED) {
                cluster.checkResend(nowMs);
            }
            if (cluster.claiming()) {
                return; // the cluster's answer comes, or the client gives up
            }
        }
        if (!closing) {
            applySchedule(nowMs);
        }
        if (state == State.DISCONNECTED || closing) {
            return;
        }
        switch (heartbeats.due(nowMs, output.lastSentMs(), state == State.LOGOUT_SENT)) {
            case HeartbeatMonitor.LOGOUT_UNANSWERED -> {
                LOG.warn("{}: no Logout reply within {} ms; disconnecting", name, timings.logoutTimeoutMs());
                disconnect();
            }
            case HeartbeatMonitor.TEST_REQUEST_UNANSWERED -> {
                LOG.warn("{}: no answer to TestRequest within {} ms; disconnecting", name, heartbeats.intervalMs());
                logoutAndDisconnect("heartbeat timeout", nowMs);
            }
            case HeartbeatMonitor.TEST_REQUEST_DUE -> {
                heartbeats.testRequestSent(nowMs);
                send(MsgTypes.TEST_REQUEST, TEST_REQUEST, nowMs);
            }
            case HeartbeatMonitor.HEARTBEAT_DUE -> send(MsgTypes.HEARTBEAT, MessageBody.EMPTY, nowMs);
            default -> {
                // nothing due
            }
        }
    }

    /**
     * Whether the last connection ended with a Logout exchange: the client's Logout, or one the server sent on
     * purpose (shutdown, the operator), rather than being lost (dropped, timed out, closed for a slow reader or a
     * broken rule). Valid in {@link ApplicationHandler#onDisconnected}.
     */
    public boolean endedByLogout() {
        return endedByLogout;
    }

    /** The connection is gone, whatever the reason. */
    public void onConnectionClosed() {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (state == State.DISCONNECTED) {
            return;
        }
        state = State.DISCONNECTED;
        output.transport(null);
        closing = false;
        resendRequestedThrough = 0;
        queued.clear();
        LOG.info("{}: disconnected (next in {}, next out {})", name, inbound.expected(),
            store.nextSenderSeqNum());
        application.onDisconnected(this);
        if (cluster != null) {
            boolean held = !cluster.claiming();
            cluster.connectionGone();
            if (held) {
                cluster.release(); // after the cancel-on-disconnect the application just queued, in order
            }
        }
    }

    /**
     * Called on the gateway thread that will own this session from now on: every later call must come from it. The
     * store's Chronicle thread checks are reset to this thread too.
     */
    public void claimOwnership() {
        owner.claim();
        store.claimOwnership();
    }

    /** Whether the calling thread owns this session. */
    public boolean isOwnedByCurrentThread() {
        return owner.isCurrentThread();
    }

    /**
     * Sends an application message (an execution report, say) with the next sequence number, and keeps it for
     * resends. While the session is disconnected the message is numbered and kept only, to be resent when the
     * client asks after it logs on again.
     */
    public void sendApplication(int msgType, MessageBody body, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        send(msgType, body, nowMs);
    }

    /**
     * Sends the report of an engine event, as {@link #sendApplication}, stored with the event's origin (journal
     * position and ordinal) in the same record, so that after a crash the store knows which events it holds
     * ({@link JournalPositions#holdsEvent}). {@code answeredInbound} is the inbound position of this session's
     * request the event answers (0: none): once the report is stored, that request counts as received for good.
     */
    public void sendEventReport(int msgType, MessageBody body, long journalPosition, int ordinal,
                                long answeredInbound, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        output.send(msgType, body, nowMs, journalPosition, ordinal);
        journalPositions.answered(answeredInbound);
    }

    /**
     * A report of a request refused before the engine saw it (as {@link #sendApplication}): when a cluster numbers the
     * messages, it also gives the session's drop copies theirs (if {@code copied}), numbered in their sessions.
     */
    public void sendRefusal(int msgType, MessageBody body, boolean copied, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        output.sendRefusal(msgType, body, copied, nowMs);
    }

    // --- a cluster that owns the sessions: its numbers, its answers ---

    /**
     * A report the engine made (an ExecutionReport, a drop copy), numbered {@code seqNum} by the cluster: written
     * with that number (kept in this gateway's cache of the session) whether or not a connection is bound; a number
     * this session has passed already is not written again.
     */
    public void sendNumberedReport(long seqNum, int msgType, MessageBody body, long answeredInbound, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (output.writeAt(seqNum, msgType, body, true, nowMs)) {
            journalPositions.answered(answeredInbound);
        }
    }

    /** One of the session's own messages come back numbered {@code seqNum}: written now. */
    public void onNumberedOut(long seqNum, int msgType, int flags, MessageBody body, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        cluster.numbered();
        output.writeAt(seqNum, msgType, body, (flags & SessionCodec.STORED) != 0, nowMs);
        closeIfDue(nowMs);
    }

    /**
     * The cluster gave this session to this gateway: its Logon's claim (or a reset on the logged-on session) is
     * granted, numbers in {@code epoch}, the answer numbered {@code answerSeqNum}, {@code nextIn} the next number of
     * the client's it expects. The Logon is answered now; messages of the client's the cluster never had are asked for.
     */
    public void onGranted(int epoch, long answerSeqNum, long nextIn, boolean reset, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        FixMessage logon = cluster.claimAnswered();
        SessionTransport transport = output.transport();
        if (logon == null || transport == null || closing) {
            if (!reset) {
                LOG.info("{}: granted by the cluster after its connection ended: released", name);
                cluster.release();
            }
            return;
        }
        if (epoch != store.epoch()) {
            seenClientOrderIds.clear();
        }
        store.adoptEpoch(epoch);
        store.nextTargetSeqNum(nextIn);
        inbound.reset();
        resendRequestedThrough = 0;
        queued.clear();
        long seqNum = logon.longValue(FixTags.MSG_SEQ_NUM);
        answerLogon(logon, reset || logon.isSingleByte(FixTags.RESET_SEQ_NUM_FLAG, 'Y'), answerSeqNum, nowMs);
        LOG.info("{}: logged on from {} (HeartBtInt={}s, next in {}, next out {}, epoch {}: the cluster's)", name,
            transport.remoteAddress(), heartbeats.intervalMs() / 1000, nextIn, store.nextSenderSeqNum(), epoch);
        if (seqNum >= nextIn) {
            queued.add(seqNum, logon); // counted once the gap before it is filled
            requestResend(seqNum, nowMs);
        }
        inbound.settle();
    }

    /**
     * The cluster refused this session's claim ({@code reason}): answered with a Logout, numbered
     * {@code logoutSeqNum} in the session, or outside its numbering (MsgSeqNum 1) when another gateway holds it.
     */
    public void onRefused(long logoutSeqNum, String reason, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        cluster.claimAnswered();
        SessionTransport transport = output.transport();
        if (transport == null) {
            return;
        }
        LOG.warn("{}: Logon refused by the cluster: {}", name, reason);
        if (logoutSeqNum > 0) {
            output.writeAt(logoutSeqNum, MsgTypes.LOGOUT, w -> w.field(FixTags.TEXT, reason), false, nowMs);
        } else {
            output.logoutOutsideNumbering(reason, nowMs);
        }
        state = State.DISCONNECTED;
        output.transport(null);
        cluster.connectionGone();
        transport.disconnect();
    }

    /**
     * The cluster gave this session to another gateway (this one was silent or gone too long): its connection here,
     * if any, is dropped without writing another byte; nothing is canceled (the session goes on there).
     */
    public void onRevoked() {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        LOG.warn("{}: the cluster gave this session to another gateway: dropping its connection here", name);
        SessionTransport lost = output.transport();
        state = State.DISCONNECTED;
        output.transport(null);
        closing = false;
        resendRequestedThrough = 0;
        queued.clear();
        cluster.connectionGone();
        if (lost != null) {
            lost.abort();
            application.onMoved(this);
        }
    }

    /**
     * A resend's message from the cluster's copy: message {@code seqNum} again, PossDupFlag=Y, its OrigSendingTime when
     * the cluster numbered it; a run of gap fills before it is written first.
     */
    public void onResent(long seqNum, int msgType, MessageBody body, long origSendingTimeNanos, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (output.transport() == null || state == State.DISCONNECTED) {
            return;
        }
        if (!cluster.resentInOrder(seqNum, nowMs)) {
            return;
        }
        flushGapFill(seqNum, nowMs);
        output.resendAt(seqNum, msgType, body, origSendingTimeNanos, nowMs);
    }

    /** A resend's number with nothing to resend (an admin message, market data): it joins a gap fill. */
    public void onResentGap(long seqNum, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (cluster.resentInOrder(seqNum, nowMs)) {
            cluster.gap(seqNum);
        }
    }

    /**
     * The cluster answered a resend through {@code lastAnswered}; {@code askAgainFrom} (0: none) is where the rest of
     * it starts, asked for now.
     */
    public void onResendDone(long lastAnswered, long askAgainFrom, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (output.transport() == null || state == State.DISCONNECTED) {
            return;
        }
        long last = cluster.resendLastAsked();
        if (!cluster.resendDone(lastAnswered, nowMs)) {
            return;
        }
        flushGapFill(lastAnswered + 1, nowMs);
        if (askAgainFrom != 0) {
            cluster.resend(askAgainFrom, last, nowMs);
        }
    }

    /** Writes the run of gap fills that ends before {@code seqNum}, if one is open. */
    private void flushGapFill(long seqNum, long nowMs) {
        long start = cluster.takeGapBefore();
        if (start != 0 && start < seqNum) {
            output.sendGapFill(start, seqNum, nowMs);
        }
    }

    /** Server-initiated Logout (shutdown): the client's Logout reply, or the timeout, closes the connection. */
    public void logout(String text, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (state == State.LOGGED_ON) {
            endedByLogout = true;
            sendLogout(text, nowMs);
            state = State.LOGOUT_SENT;
            heartbeats.logoutSent(nowMs);
        }
    }

    public void close() {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        store.close();
    }

    /** A message whose number is the expected one: judged, then acted on; a Reject consumes its number too. */
    private void process(FixMessage message, long seqNum, long nowMs) {
        int verdict = checks.check(message, nowMs);
        if (verdict == InboundChecks.GARBLED) {
            LOG.warn("{}: ignoring a garbled message (MsgSeqNum {}): {}", name, seqNum, message);
            return;
        }
        if (verdict != InboundChecks.PASS) {
            inbound.expect(seqNum + 1);
            rejectFailedCheck(message, seqNum, verdict, nowMs);
            return;
        }
        if (message.msgType() == MsgTypes.SEQUENCE_RESET) {
            onGapFill(message, seqNum, nowMs);
        } else {
            inbound.expect(seqNum + 1);
            dispatch(message, seqNum, nowMs);
        }
    }

    /**
     * Above the expected number: kept for its turn, and the gap before it requested (unless our request is still
     * outstanding: it asks for everything from the gap on). A Logout and a ResendRequest are acted on at once (a peer
     * may wait for our resend before it fills our gap); the ResendRequest's number is counted in its turn.
     */
    private void onTooHigh(FixMessage message, long seqNum, long nowMs) {
        if (message.msgType() == MsgTypes.LOGOUT) {
            onLogout(message, nowMs);
            return;
        }
        if (message.msgType() == MsgTypes.RESEND_REQUEST) {
            onResendRequest(message, seqNum, nowMs);
        }
        if (!queued.add(seqNum, message) && queued.notKept() == 1) { // the first of a run: the rest alike
            LOG.warn("{}: message {} not kept ({} queued); it and the next not kept come again with the resend",
                name, seqNum, queued.size());
        }
        requestResend(seqNum, nowMs);
    }

    /**
     * Below the expected number: a possible duplicate (PossDupFlag=Y) is checked and otherwise ignored; anything else
     * ends the session, except a Logout, which is answered whatever its number.
     */
    private void onTooLow(FixMessage message, long seqNum, long expected, long nowMs) {
        if (message.msgType() == MsgTypes.LOGOUT) {
            onLogout(message, nowMs);
            return;
        }
        if (!message.isSingleByte(FixTags.POSS_DUP_FLAG, 'Y')) {
            logoutAndDisconnect("MsgSeqNum too low, expecting " + expected + " but received " + seqNum, nowMs);
            return;
        }
        int verdict = checks.checkPossDup(message);
        if (verdict != InboundChecks.PASS) {
            rejectFailedCheck(message, seqNum, verdict, nowMs); // its number was counted already
        }
    }

    /** After the expected number moved on: whether our ResendRequest is satisfied, and the queued messages' turn. */
    private void processQueued(long nowMs) {
        while (true) {
            long expected = inbound.expected();
            if (resendRequestedThrough != 0 && expected > resendRequestedThrough) {
                LOG.info("{}: gap filled up to {}", name, resendRequestedThrough);
                resendRequestedThrough = 0;
            }
            if (state == State.DISCONNECTED || closing || queued.size() == 0) {
                return;
            }
            FixMessage next = queued.take(expected);
            if (next == null) {
                return;
            }
            if (next.msgType() == MsgTypes.RESEND_REQUEST || next.msgType() == MsgTypes.LOGON) {
                inbound.expect(expected + 1); // acted on when it arrived
            } else {
                process(next, expected, nowMs);
            }
        }
    }

    private void rejectFailedCheck(FixMessage message, long seqNum, int reason, long nowMs) {
        reject(message, seqNum, checks.refTagId(), reason, null, nowMs);
        if (checks.logoutText() != null) {
            logoutAndDisconnect(checks.logoutText(), nowMs);
        }
    }

    private void dispatch(FixMessage message, long seqNum, long nowMs) {
        switch (message.msgType()) {
            case MsgTypes.HEARTBEAT -> {
                // nothing to do: receiving it was the point
            }
            case MsgTypes.REJECT -> LOG.warn("{}: client rejected our message {}: {}", name,
                message.stringValue(FixTags.REF_SEQ_NUM), message.stringValue(FixTags.TEXT));
            case MsgTypes.TEST_REQUEST -> {
                int field = message.indexOf(FixTags.TEST_REQ_ID); // required: the checks saw it
                send(MsgTypes.HEARTBEAT, w -> w.copyField(message, field), nowMs);
            }
            case MsgTypes.RESEND_REQUEST -> onResendRequest(message, seqNum, nowMs);
            case MsgTypes.LOGOUT -> onLogout(message, nowMs);
            case MsgTypes.LOGON -> reject(message, seqNum, RejectBody.NO_TAG, SessionRejectReasons.OTHER,
                "Logon received on a logged-on session (ResetSeqNumFlag=Y resets the sequence numbers)", nowMs);
            default -> application.onApplicationMessage(this, message, nowMs);
        }
    }

    /** Our Logon answering the client's: its HeartBtInt, and ResetSeqNumFlag=Y if it reset the numbers. */
    /** Our Logon answering the client's: its HeartBtInt, and ResetSeqNumFlag=Y if it reset the numbers. */
    private void answerLogon(FixMessage logon, boolean reset, long nowMs) {
        answerLogon(logon, reset, 0, nowMs);
    }

    /** As {@link #answerLogon(FixMessage, boolean, long)}, numbered {@code clusterSeqNum} by the cluster (0: here). */
    private void answerLogon(FixMessage logon, boolean reset, long clusterSeqNum, long nowMs) {
        long heartbeatSeconds = logon.longValue(FixTags.HEART_BT_INT);
        heartbeats.interval(heartbeatSeconds);
        MessageBody answer = w -> {
            w.field(FixTags.ENCRYPT_METHOD, 0L).field(FixTags.HEART_BT_INT, heartbeatSeconds);
            if (reset) {
                w.field(FixTags.RESET_SEQ_NUM_FLAG, 'Y');
            }
        };
        if (clusterSeqNum != 0) {
            output.writeAt(clusterSeqNum, MsgTypes.LOGON, answer, false, nowMs);
        } else {
            send(MsgTypes.LOGON, answer, nowMs);
        }
    }

    /**
     * A Logon with ResetSeqNumFlag=Y on the logged-on session: both sequence numbers start again at 1 (the resend
     * store too), answered with our Logon 141=Y numbered 1.
     */
    private void onResetLogon(FixMessage logon, long nowMs) {
        String problem = checks.logonProblem(logon, nowMs);
        if (problem != null) {
            LOG.warn("{}: Logon with ResetSeqNumFlag=Y refused: {}", name, problem);
            logoutAndDisconnect(problem, nowMs);
            return;
        }
        if (cluster != null) {
            LOG.info("{}: sequence numbers reset by a Logon on the logged-on session: asking the cluster", name);
            cluster.reset(logon);
            return;
        }
        store.reset();
        inbound.reset();
        seenClientOrderIds.clear();
        resendRequestedThrough = 0;
        queued.clear();
        LOG.info("{}: sequence numbers reset by a Logon on the logged-on session", name);
        answerLogon(logon, true, nowMs);
        inbound.expect(2);
    }

    private void onGapFill(FixMessage message, long seqNum, long nowMs) {
        long newSeqNo = message.longValue(FixTags.NEW_SEQ_NO);
        if (newSeqNo <= seqNum) {
            inbound.expect(seqNum + 1);
            reject(message, seqNum, FixTags.NEW_SEQ_NO, SessionRejectReasons.VALUE_INCORRECT,
                "NewSeqNo(36) must be greater than MsgSeqNum", nowMs);
            return;
        }
        inbound.expect(newSeqNo);
    }

    /**
     * SequenceReset in Reset mode: takes effect whatever its own MsgSeqNum (which it does not consume); NewSeqNo below
     * the expected number is rejected, equal to it changes nothing.
     */
    private void onSequenceReset(FixMessage message, long seqNum, long nowMs) {
        int verdict = checks.check(message, nowMs);
        if (verdict == InboundChecks.GARBLED) {
            return;
        }
        if (verdict != InboundChecks.PASS) {
            rejectFailedCheck(message, seqNum, verdict, nowMs);
            return;
        }
        long newSeqNo = message.longValue(FixTags.NEW_SEQ_NO);
        long expected = inbound.expected();
        if (newSeqNo < expected) {
            reject(message, seqNum, FixTags.NEW_SEQ_NO, SessionRejectReasons.VALUE_INCORRECT,
                "NewSeqNo " + newSeqNo + " is below the expected " + expected, nowMs);
            return;
        }
        if (newSeqNo > expected) {
            LOG.info("{}: SequenceReset: next expected {} -> {}", name, expected, newSeqNo);
            inbound.expect(newSeqNo);
        }
    }

    private void onLogout(FixMessage message, long nowMs) {
        endedByLogout = true;
        if (state == State.LOGOUT_SENT) {
            LOG.info("{}: Logout confirmed", name);
        } else {
            LOG.info("{}: client logged out{}", name, message.has(FixTags.TEXT) ? ": " + message.stringValue(FixTags.TEXT) : "");
            sendLogout(null, nowMs);
        }
        disconnect();
    }

    private void onResendRequest(FixMessage message, long seqNum, long nowMs) {
        long begin = message.longValue(FixTags.BEGIN_SEQ_NO);
        long end = message.longValue(FixTags.END_SEQ_NO);
        if (begin == FixMessage.NOT_A_NUMBER || end == FixMessage.NOT_A_NUMBER || begin < 1 || end < 0) {
            reject(message, seqNum, begin == FixMessage.NOT_A_NUMBER ? FixTags.BEGIN_SEQ_NO : FixTags.END_SEQ_NO,
                SessionRejectReasons.REQUIRED_TAG_MISSING, "ResendRequest needs BeginSeqNo(7) and EndSeqNo(16)",
                nowMs);
            return;
        }
        if (end != 0 && end < begin) {
            reject(message, seqNum, FixTags.END_SEQ_NO, SessionRejectReasons.VALUE_INCORRECT,
                "EndSeqNo(16) is below BeginSeqNo(7)", nowMs);
            return;
        }
        resends.answer(begin, end, nowMs);
    }

    /** A ResendRequest from the expected number to infinity, unless ours is still outstanding (QuickFIX/J's rule). */
    private void requestResend(long receivedSeqNum, long nowMs) {
        if (resendRequestedThrough != 0) {
            return; // it asked for everything from the gap on: what is missing now comes with it
        }
        long expected = inbound.expected();
        LOG.warn("{}: sequence gap: expected {} but received {}; sending ResendRequest", name, expected,
            receivedSeqNum);
        resendRequestedThrough = receivedSeqNum - 1;
        send(MsgTypes.RESEND_REQUEST, w -> w.field(FixTags.BEGIN_SEQ_NO, expected).field(FixTags.END_SEQ_NO, 0L),
            nowMs);
    }

    /**
     * A session-level Reject of {@code message}: the standard Text of the reason (and the tag), then {@code detail}
     * if not null. {@code refTagId} is {@link RejectBody#NO_TAG} for none.
     */
    private void reject(FixMessage message, long refSeqNum, int refTagId, int reason, String detail, long nowMs) {
        rejectBody.of(message, refSeqNum, refTagId, reason, detail);
        LOG.warn("{}: rejecting message {}: {} ({}){}", name, refSeqNum, rejectBody.text(), reason,
            detail == null ? "" : ": " + detail);
        send(MsgTypes.REJECT, rejectBody, nowMs);
    }

    /**
     * A message over the session's inbound rate limit (the connection counts them): not acted on. With the expected
     * MsgSeqNum it is consumed and answered with a Reject (reason 99, {@code detail}); otherwise ignored like a garbled
     * one. Not logged here (a flood would flood the log): the connection logs the episode.
     */
    public void rejectOverRateLimit(FixMessage message, String detail, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (state == State.DISCONNECTED || closing) {
            return;
        }
        heartbeats.heardFrom(nowMs);
        long seqNum = message.longValue(FixTags.MSG_SEQ_NUM);
        if (seqNum != inbound.expected()) {
            return;
        }
        try {
            inbound.expect(seqNum + 1);
            rejectBody.of(message, seqNum, RejectBody.NO_TAG, SessionRejectReasons.OTHER, detail);
            send(MsgTypes.REJECT, rejectBody, nowMs);
        } finally {
            inbound.settle();
        }
    }

    /**
     * A framed message that does not parse (see {@link FixParser}): rejected, and counted, when its MsgSeqNum is
     * the expected one; otherwise ignored as garbled (a gap the client will fill). A message whose MsgType is not
     * the third field is no message (FIX: the first three fields define one): always ignored as garbled.
     */
    public void onMalformed(FixMessage message, int parseError, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        try {
            handleMalformed(message, parseError, nowMs);
        } finally {
            inbound.settle();
        }
    }

    private void handleMalformed(FixMessage message, int parseError, long nowMs) {
        if (state == State.DISCONNECTED || closing) {
            return;
        }
        heartbeats.heardFrom(nowMs);
        long seqNum = message.longValue(FixTags.MSG_SEQ_NUM);
        if (parseError == FixParser.MSG_TYPE_NOT_THIRD || seqNum != inbound.expected()) {
            LOG.warn("{}: ignoring a garbled message (parse error {}, MsgSeqNum {})", name, parseError, seqNum);
            return;
        }
        inbound.expect(seqNum + 1);
        switch (parseError) {
            case FixParser.INVALID_TAG -> reject(message, seqNum, message.errorTag(),
                SessionRejectReasons.INVALID_TAG_NUMBER, null, nowMs);
            case FixParser.EMPTY_VALUE -> reject(message, seqNum, message.errorTag(),
                SessionRejectReasons.TAG_WITHOUT_VALUE, null, nowMs);
            case FixParser.DUPLICATE_TAG -> reject(message, seqNum, message.errorTag(),
                SessionRejectReasons.TAG_APPEARS_MORE_THAN_ONCE, null, nowMs);
            default -> reject(message, seqNum, RejectBody.NO_TAG, SessionRejectReasons.OTHER,
                parseError == FixParser.TOO_MANY_FIELDS ? "too many fields" : "parse error " + parseError, nowMs);
        }
        processQueued(nowMs);
    }

    /**
     * A session-level Reject of an application message, for the order handler: the standard Text of the reason and
     * the tag, then {@code detail} (null for none).
     */
    public void rejectMessage(FixMessage message, int refTagId, int reason, String detail, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        reject(message, message.longValue(FixTags.MSG_SEQ_NUM), refTagId, reason, detail, nowMs);
    }

    private LogonResult refuseLogon(String text, long nowMs) {
        LOG.warn("{}: Logon refused: {}", name, text);
        if (cluster != null) {
            output.logoutOutsideNumbering(text, nowMs); // the session is not this gateway's: its numbers the cluster's
            closing = true;
            output.transport().disconnect();
        } else {
            logoutAndDisconnect(text, nowMs);
        }
        state = State.DISCONNECTED;
        output.transport(null);
        return LogonResult.REFUSED;
    }

    private void logoutAndDisconnect(String text, long nowMs) {
        sendLogout(text, nowMs);
        disconnect();
    }

    private void sendLogout(String text, long nowMs) {
        send(MsgTypes.LOGOUT, w -> {
            if (text != null) {
                w.field(FixTags.TEXT, text);
            }
        }, nowMs);
    }

    private void disconnect() {
        closing = true;
        SessionTransport transport = output.transport();
        if (transport != null && (cluster == null || !cluster.deferClose(output.lastSentMs()))) {
            transport.disconnect();
        }
    }

    /** A close that waited for the session's own messages to come back numbered: done once they have, or too late. */
    private void closeIfDue(long nowMs) {
        SessionTransport transport = output.transport();
        if (closing && transport != null && cluster.closeDue(nowMs)) {
            transport.disconnect();
        }
    }

    /** Writes the standard header with the next sequence number, the body, and queues the message. */
    private void send(int msgType, MessageBody body, long nowMs) {
        output.send(msgType, body, nowMs);
    }

    /**
     * Sends an application message that is not kept for resend: market data, stale by the time anyone could ask for
     * it again (a resend of its number is a SequenceReset-GapFill, like an admin message). Numbered like every
     * message, and only while a connection is bound and not closing (nothing is numbered for a client that cannot
     * get it). Returns whether it was sent.
     */
    public boolean sendUnstored(int msgType, MessageBody body, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (output.transport() == null || closing || state != State.LOGGED_ON
            || (cluster != null && cluster.claiming())) {
            return false;
        }
        output.sendUnstored(msgType, body, nowMs);
        return true;
    }
}
