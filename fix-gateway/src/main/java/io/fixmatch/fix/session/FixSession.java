package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixTimestamps;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.security.Credentials;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;

/**
 * One FIX 4.4 session, as the acceptor side: sequence numbers in both directions (persisted in its
 * {@link SessionStore}), Logon, Heartbeat and TestRequest, ResendRequest answered from the store (application
 * messages resent with PossDupFlag and OrigSendingTime, admin messages replaced by SequenceReset-GapFill),
 * SequenceReset, Logout, and session-level Reject.
 *
 * <p>One thread owns a session: the gateway thread its client's connection, outgoing reports and timers run on
 * ({@link #claimOwnership()}). Nothing is locked; every entry point asserts that it runs on the owner (a call from
 * elsewhere must be submitted to that thread as a task). Only {@link #isLoggedOn()} may be read from anywhere.
 */
public final class FixSession {
    private static final Logger LOG = LoggerFactory.getLogger(FixSession.class);
    private static final int MAX_HEARTBEAT_SECONDS = 3600;

    private enum State { DISCONNECTED, LOGGED_ON, LOGOUT_SENT }

    private final SessionConfig config;
    private final int ownerId;
    private final byte[] serverCompId;
    private final byte[] clientCompId;
    private final SessionStore store;
    private final SessionTimings timings;
    private final ApplicationHandler application;
    private final FixWriter writer;
    private final byte[] resendBuffer;
    private final FixMessage resendMessage = new FixMessage();
    private final String name;
    private final Credentials credentials;

    /** Written by the owner only; volatile so that others (shutdown) may watch it. */
    private volatile State state = State.DISCONNECTED;
    private final ThreadOwner owner = new ThreadOwner();
    private SessionTransport transport;
    private long heartbeatIntervalMs;
    private long lastReceivedMs;
    private long lastSentMs;
    private long testRequestSentMs;
    private long logoutSentMs;
    /** While our ResendRequest is outstanding: the sequence number that made us send it. */
    private long resendRequestedUpTo;
    private long testRequestCounter;
    private long lastReadNanos;

    public FixSession(SessionConfig config, int ownerId, String serverCompId, SessionStore store,
                      SessionTimings timings, ApplicationHandler application, int maxMessageSize) {
        this.config = config;
        this.ownerId = ownerId;
        this.serverCompId = serverCompId.getBytes(StandardCharsets.US_ASCII);
        this.clientCompId = config.clientCompId().getBytes(StandardCharsets.US_ASCII);
        this.store = store;
        this.timings = timings;
        this.application = application;
        this.writer = new FixWriter(maxMessageSize);
        this.resendBuffer = new byte[maxMessageSize];
        this.name = serverCompId + "->" + config.clientCompId();
        this.credentials = Credentials.of(config.username(), config.password());
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
        return store.nextTargetSeqNum();
    }

    /** The connection's transport while logged on, else null. Owner thread. */
    public SessionTransport transport() {
        return transport;
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
        if (state != State.DISCONNECTED) {
            return LogonResult.ALREADY_LOGGED_ON;
        }
        long heartbeatSeconds = logon.longValue(FixTags.HEART_BT_INT);
        long seqNum = logon.longValue(FixTags.MSG_SEQ_NUM);
        boolean reset = logon.isSingleByte(FixTags.RESET_SEQ_NUM_FLAG, 'Y');
        transport = newTransport;
        state = State.LOGGED_ON;
        lastReceivedMs = nowMs;
        lastSentMs = nowMs;
        testRequestSentMs = 0;
        resendRequestedUpTo = 0;
        if (heartbeatSeconds < 0 || heartbeatSeconds > MAX_HEARTBEAT_SECONDS) {
            return refuseLogon("HeartBtInt(108) must be 0.." + MAX_HEARTBEAT_SECONDS, nowMs);
        }
        if (seqNum == FixMessage.NOT_A_NUMBER || seqNum < 1) {
            return refuseLogon("MsgSeqNum(34) missing or invalid", nowMs);
        }
        if (logon.longValue(FixTags.ENCRYPT_METHOD) != 0) {
            return refuseLogon("EncryptMethod(98) is required and must be 0 (none)", nowMs);
        }
        if (reset) {
            if (seqNum != 1) {
                return refuseLogon("ResetSeqNumFlag=Y requires MsgSeqNum=1", nowMs);
            }
            store.reset();
            LOG.info("{}: sequence numbers reset by Logon", name);
        }
        long expected = store.nextTargetSeqNum();
        if (seqNum < expected) {
            return refuseLogon("MsgSeqNum too low, expecting " + expected + " but received " + seqNum, nowMs);
        }
        heartbeatIntervalMs = heartbeatSeconds * 1000;
        send(MsgTypes.LOGON, w -> {
            w.field(FixTags.ENCRYPT_METHOD, 0L).field(FixTags.HEART_BT_INT, heartbeatSeconds);
            if (reset) {
                w.field(FixTags.RESET_SEQ_NUM_FLAG, 'Y');
            }
        }, nowMs);
        LOG.info("{}: logged on from {} (HeartBtInt={}s, next in {}, next out {})", name,
            transport.remoteAddress(), heartbeatSeconds, expected, store.nextSenderSeqNum());
        if (seqNum > expected) {
            requestResend(seqNum, nowMs);
        } else {
            store.nextTargetSeqNum(seqNum + 1);
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
        lastReadNanos = readNanos;
        if (state == State.DISCONNECTED) {
            return;
        }
        lastReceivedMs = nowMs;
        testRequestSentMs = 0;
        int msgType = message.msgType();
        long seqNum = message.longValue(FixTags.MSG_SEQ_NUM);
        if (!message.valueEquals(FixTags.SENDER_COMP_ID, clientCompId)
            || !message.valueEquals(FixTags.TARGET_COMP_ID, serverCompId)) {
            reject(message, seqNum, FixTags.SENDER_COMP_ID, SessionRejectReason.COMPID_PROBLEM,
                "CompID problem: expected SenderCompID=" + config.clientCompId(), nowMs);
            logoutAndDisconnect("CompID problem", nowMs);
            return;
        }
        if (seqNum == FixMessage.NOT_A_NUMBER || seqNum < 1) {
            logoutAndDisconnect("MsgSeqNum(34) missing or invalid", nowMs);
            return;
        }
        if (msgType == MsgTypes.SEQUENCE_RESET && !message.isSingleByte(FixTags.GAP_FILL_FLAG, 'Y')) {
            onSequenceReset(message, seqNum, nowMs);
            return;
        }
        long expected = store.nextTargetSeqNum();
        if (seqNum > expected) {
            if (msgType == MsgTypes.RESEND_REQUEST) {
                onResendRequest(message, seqNum, nowMs);
            }
            if (msgType == MsgTypes.LOGOUT) {
                onLogout(message, nowMs);
                return;
            }
            requestResend(seqNum, nowMs);
            return;
        }
        if (seqNum < expected) {
            if (message.isSingleByte(FixTags.POSS_DUP_FLAG, 'Y')) {
                return; // a duplicate we already processed
            }
            logoutAndDisconnect("MsgSeqNum too low, expecting " + expected + " but received " + seqNum, nowMs);
            return;
        }
        if (!sendingTimeAcceptable(message, seqNum, nowMs)) {
            return;
        }
        if (msgType == MsgTypes.SEQUENCE_RESET) {
            onGapFill(message, seqNum, nowMs);
        } else {
            store.nextTargetSeqNum(seqNum + 1);
            dispatch(message, seqNum, nowMs);
        }
        if (resendRequestedUpTo != 0 && store.nextTargetSeqNum() > resendRequestedUpTo) {
            LOG.info("{}: gap filled up to {}", name, resendRequestedUpTo);
            resendRequestedUpTo = 0;
        }
    }

    /** Periodic check (about once a second): heartbeats, test requests, dead peers, unanswered logouts. */
    public void onTimer(long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (state == State.DISCONNECTED) {
            return;
        }
        if (state == State.LOGOUT_SENT) {
            if (nowMs - logoutSentMs >= timings.logoutTimeoutMs()) {
                LOG.warn("{}: no Logout reply within {} ms; disconnecting", name, timings.logoutTimeoutMs());
                disconnect();
            }
            return;
        }
        if (heartbeatIntervalMs == 0) {
            return;
        }
        if (testRequestSentMs != 0) {
            if (nowMs - testRequestSentMs >= heartbeatIntervalMs) {
                LOG.warn("{}: no answer to TestRequest within {} ms; disconnecting", name, heartbeatIntervalMs);
                logoutAndDisconnect("heartbeat timeout", nowMs);
            }
        } else if (nowMs - lastReceivedMs >= heartbeatIntervalMs + heartbeatIntervalMs / 5) {
            testRequestSentMs = nowMs;
            long id = ++testRequestCounter;
            send(MsgTypes.TEST_REQUEST, w -> w.field(FixTags.TEST_REQ_ID, id), nowMs);
        }
        if (nowMs - lastSentMs >= heartbeatIntervalMs) {
            send(MsgTypes.HEARTBEAT, MessageBody.EMPTY, nowMs);
        }
    }

    /** The connection is gone, whatever the reason. */
    public void onConnectionClosed() {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (state == State.DISCONNECTED) {
            return;
        }
        state = State.DISCONNECTED;
        transport = null;
        LOG.info("{}: disconnected (next in {}, next out {})", name, store.nextTargetSeqNum(),
            store.nextSenderSeqNum());
        application.onDisconnected(this);
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

    /** Server-initiated Logout (shutdown): the client's Logout reply, or the timeout, closes the connection. */
    public void logout(String text, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (state == State.LOGGED_ON) {
            sendLogout(text, nowMs);
            state = State.LOGOUT_SENT;
            logoutSentMs = nowMs;
        }
    }

    public void close() {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        store.close();
    }

    private void dispatch(FixMessage message, long seqNum, long nowMs) {
        switch (message.msgType()) {
            case MsgTypes.HEARTBEAT, MsgTypes.REJECT -> {
                if (message.msgType() == MsgTypes.REJECT) {
                    LOG.warn("{}: client rejected our message {}: {}", name,
                        message.stringValue(FixTags.REF_SEQ_NUM), message.stringValue(FixTags.TEXT));
                }
            }
            case MsgTypes.TEST_REQUEST -> {
                int field = message.indexOf(FixTags.TEST_REQ_ID);
                if (field < 0) {
                    reject(message, seqNum, FixTags.TEST_REQ_ID, SessionRejectReason.REQUIRED_TAG_MISSING,
                        "TestReqID(112) missing", nowMs);
                } else {
                    send(MsgTypes.HEARTBEAT, w -> w.copyField(message, field), nowMs);
                }
            }
            case MsgTypes.RESEND_REQUEST -> onResendRequest(message, seqNum, nowMs);
            case MsgTypes.LOGOUT -> onLogout(message, nowMs);
            case MsgTypes.LOGON -> reject(message, seqNum, 0, SessionRejectReason.OTHER,
                "Logon received on a logged-on session", nowMs);
            default -> {
                if (message.msgType() < 0) {
                    reject(message, seqNum, FixTags.MSG_TYPE, SessionRejectReason.INVALID_MSG_TYPE,
                        "invalid MsgType", nowMs);
                } else {
                    application.onApplicationMessage(this, message, nowMs);
                }
            }
        }
    }

    private boolean sendingTimeAcceptable(FixMessage message, long seqNum, long nowMs) {
        if (message.isSingleByte(FixTags.POSS_DUP_FLAG, 'Y') && !message.has(FixTags.ORIG_SENDING_TIME)) {
            store.nextTargetSeqNum(seqNum + 1);
            reject(message, seqNum, FixTags.ORIG_SENDING_TIME, SessionRejectReason.REQUIRED_TAG_MISSING,
                "OrigSendingTime(122) is required with PossDupFlag=Y", nowMs);
            return false;
        }
        int field = message.indexOf(FixTags.SENDING_TIME);
        if (field < 0) {
            store.nextTargetSeqNum(seqNum + 1);
            reject(message, seqNum, FixTags.SENDING_TIME, SessionRejectReason.REQUIRED_TAG_MISSING,
                "SendingTime(52) missing", nowMs);
            return false;
        }
        long sendingMs = FixTimestamps.parseMillis(message.buffer(), message.valueStartAt(field),
            message.valueLengthAt(field));
        if (sendingMs == Long.MIN_VALUE) {
            store.nextTargetSeqNum(seqNum + 1);
            reject(message, seqNum, FixTags.SENDING_TIME, SessionRejectReason.INCORRECT_DATA_FORMAT,
                "SendingTime(52) is not a UTCTimestamp", nowMs);
            return false;
        }
        if (Math.abs(nowMs - sendingMs) > timings.sendingTimeToleranceMs()
            && !message.isSingleByte(FixTags.POSS_DUP_FLAG, 'Y')) {
            store.nextTargetSeqNum(seqNum + 1);
            reject(message, seqNum, FixTags.SENDING_TIME, SessionRejectReason.SENDING_TIME_ACCURACY,
                "SendingTime accuracy problem", nowMs);
            logoutAndDisconnect("SendingTime accuracy problem", nowMs);
            return false;
        }
        return true;
    }

    private void onGapFill(FixMessage message, long seqNum, long nowMs) {
        long newSeqNo = message.longValue(FixTags.NEW_SEQ_NO);
        if (newSeqNo == FixMessage.NOT_A_NUMBER || newSeqNo <= seqNum) {
            store.nextTargetSeqNum(seqNum + 1);
            reject(message, seqNum, FixTags.NEW_SEQ_NO, SessionRejectReason.VALUE_INCORRECT,
                "NewSeqNo(36) must be greater than MsgSeqNum", nowMs);
            return;
        }
        store.nextTargetSeqNum(newSeqNo);
    }

    /** SequenceReset in Reset mode: takes effect whatever its own MsgSeqNum. */
    private void onSequenceReset(FixMessage message, long seqNum, long nowMs) {
        long newSeqNo = message.longValue(FixTags.NEW_SEQ_NO);
        long expected = store.nextTargetSeqNum();
        if (newSeqNo == FixMessage.NOT_A_NUMBER || newSeqNo < expected) {
            reject(message, seqNum, FixTags.NEW_SEQ_NO, SessionRejectReason.VALUE_INCORRECT,
                "NewSeqNo(36) " + newSeqNo + " is below the expected " + expected, nowMs);
            return;
        }
        LOG.info("{}: SequenceReset: next expected {} -> {}", name, expected, newSeqNo);
        store.nextTargetSeqNum(newSeqNo);
        resendRequestedUpTo = 0;
    }

    private void onLogout(FixMessage message, long nowMs) {
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
                SessionRejectReason.REQUIRED_TAG_MISSING, "ResendRequest needs BeginSeqNo(7) and EndSeqNo(16)",
                nowMs);
            return;
        }
        if (end != 0 && end < begin) {
            reject(message, seqNum, FixTags.END_SEQ_NO, SessionRejectReason.VALUE_INCORRECT,
                "EndSeqNo(16) is below BeginSeqNo(7)", nowMs);
            return;
        }
        long next = store.nextSenderSeqNum();
        long last = end == 0 || end >= next ? next - 1 : end;
        LOG.info("{}: resending {}..{} (asked {}..{})", name, begin, last, begin, end);
        long gapStart = begin;
        for (long storedSeqNum = store.nextStoredAtOrAfter(begin); storedSeqNum != -1 && storedSeqNum <= last;
             storedSeqNum = store.nextStoredAtOrAfter(storedSeqNum + 1)) {
            if (storedSeqNum > gapStart) {
                sendGapFill(gapStart, storedSeqNum, nowMs);
            }
            resendStored(storedSeqNum, nowMs);
            gapStart = storedSeqNum + 1;
        }
        if (gapStart <= last) {
            sendGapFill(gapStart, last + 1, nowMs);
        }
    }

    private void requestResend(long receivedSeqNum, long nowMs) {
        if (resendRequestedUpTo != 0 && resendRequestedUpTo >= receivedSeqNum) {
            return; // already asked for everything from the gap on
        }
        long expected = store.nextTargetSeqNum();
        LOG.warn("{}: sequence gap: expected {} but received {}; sending ResendRequest", name, expected,
            receivedSeqNum);
        resendRequestedUpTo = receivedSeqNum;
        send(MsgTypes.RESEND_REQUEST, w -> w.field(FixTags.BEGIN_SEQ_NO, expected).field(FixTags.END_SEQ_NO, 0L),
            nowMs);
    }

    private void reject(FixMessage message, long refSeqNum, int refTagId, int reason, String text, long nowMs) {
        LOG.warn("{}: rejecting message {}: {} ({})", name, refSeqNum, text, reason);
        sendReject(message, refSeqNum, refTagId, reason, text, nowMs);
    }

    /**
     * A message over the session's inbound rate limit (the connection counts them): not acted on. With the expected
     * MsgSeqNum it is consumed and answered with a Reject (reason 99, {@code text}); otherwise ignored like a garbled
     * one. Not logged here (a flood would flood the log): the connection logs the episode.
     */
    public void rejectOverRateLimit(FixMessage message, String text, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (state == State.DISCONNECTED) {
            return;
        }
        lastReceivedMs = nowMs;
        long seqNum = message.longValue(FixTags.MSG_SEQ_NUM);
        if (seqNum != store.nextTargetSeqNum()) {
            return;
        }
        store.nextTargetSeqNum(seqNum + 1);
        sendReject(message, seqNum, 0, SessionRejectReason.OTHER, text, nowMs);
    }

    private void sendReject(FixMessage message, long refSeqNum, int refTagId, int reason, String text, long nowMs) {
        int msgType = message.msgType();
        send(MsgTypes.REJECT, w -> {
            if (refSeqNum > 0) {
                w.field(FixTags.REF_SEQ_NUM, refSeqNum);
            }
            if (refTagId > 0) {
                w.field(FixTags.REF_TAG_ID, refTagId);
            }
            if (msgType > 0) {
                w.field(FixTags.REF_MSG_TYPE, MsgTypes.toString(msgType));
            }
            w.field(FixTags.SESSION_REJECT_REASON, reason).field(FixTags.TEXT, text);
        }, nowMs);
    }

    /**
     * A framed message that does not parse (see {@link FixParser}): rejected, and counted, when its MsgSeqNum is
     * the expected one; otherwise ignored as garbled (a gap the client will fill).
     */
    public void onMalformed(FixMessage message, int parseError, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        if (state == State.DISCONNECTED) {
            return;
        }
        lastReceivedMs = nowMs;
        long seqNum = message.longValue(FixTags.MSG_SEQ_NUM);
        if (seqNum != store.nextTargetSeqNum()) {
            LOG.warn("{}: ignoring a garbled message (parse error {}, MsgSeqNum {})", name, parseError, seqNum);
            return;
        }
        store.nextTargetSeqNum(seqNum + 1);
        int reason = switch (parseError) {
            case FixParser.INVALID_TAG -> SessionRejectReason.INVALID_TAG_NUMBER;
            case FixParser.EMPTY_VALUE -> SessionRejectReason.TAG_WITHOUT_VALUE;
            case FixParser.DUPLICATE_TAG -> SessionRejectReason.TAG_APPEARS_MORE_THAN_ONCE;
            case FixParser.MSG_TYPE_NOT_THIRD -> SessionRejectReason.TAG_OUT_OF_ORDER;
            default -> SessionRejectReason.OTHER;
        };
        reject(message, seqNum, message.errorTag(), reason, "malformed message (" + describeParseError(parseError)
            + ")", nowMs);
    }

    private static String describeParseError(int parseError) {
        return switch (parseError) {
            case FixParser.INVALID_TAG -> "invalid tag";
            case FixParser.EMPTY_VALUE -> "tag without a value";
            case FixParser.DUPLICATE_TAG -> "tag appears more than once";
            case FixParser.MSG_TYPE_NOT_THIRD -> "MsgType must be the third field";
            case FixParser.TOO_MANY_FIELDS -> "too many fields";
            default -> "error " + parseError;
        };
    }

    /** A session-level Reject of an application message, for the order handler. */
    public void rejectMessage(FixMessage message, int refTagId, int reason, String text, long nowMs) {
        assert owner.isCurrentThread() : name + ": " + owner.describe();
        reject(message, message.longValue(FixTags.MSG_SEQ_NUM), refTagId, reason, text, nowMs);
    }

    private LogonResult refuseLogon(String text, long nowMs) {
        LOG.warn("{}: Logon refused: {}", name, text);
        logoutAndDisconnect(text, nowMs);
        state = State.DISCONNECTED;
        transport = null;
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
        if (transport != null) {
            transport.disconnect();
        }
    }

    /** Writes the standard header with the next sequence number, the body, and queues the message. */
    private void send(int msgType, MessageBody body, long nowMs) {
        long seqNum = store.nextSenderSeqNum();
        writer.begin(msgType)
            .field(FixTags.SENDER_COMP_ID, serverCompId)
            .field(FixTags.TARGET_COMP_ID, clientCompId)
            .field(FixTags.MSG_SEQ_NUM, seqNum)
            .timestamp(FixTags.SENDING_TIME, nowMs * 1_000_000L);
        body.writeBody(writer);
        writer.finish();
        store.nextSenderSeqNum(seqNum + 1);
        if (!MsgTypes.isAdmin(msgType)) {
            store.storeSent(seqNum, writer.buffer(), writer.start(), writer.length());
        }
        transmit(nowMs);
    }

    private void sendGapFill(long seqNum, long newSeqNo, long nowMs) {
        writer.begin(MsgTypes.SEQUENCE_RESET)
            .field(FixTags.SENDER_COMP_ID, serverCompId)
            .field(FixTags.TARGET_COMP_ID, clientCompId)
            .field(FixTags.MSG_SEQ_NUM, seqNum)
            .field(FixTags.POSS_DUP_FLAG, 'Y')
            .timestamp(FixTags.SENDING_TIME, nowMs * 1_000_000L)
            .timestamp(FixTags.ORIG_SENDING_TIME, nowMs * 1_000_000L)
            .field(FixTags.GAP_FILL_FLAG, 'Y')
            .field(FixTags.NEW_SEQ_NO, newSeqNo)
            .finish();
        transmit(nowMs);
    }

    /** Resends a stored application message: same number and body, PossDupFlag=Y, OrigSendingTime. */
    private void resendStored(long seqNum, long nowMs) {
        int length = store.readStored(seqNum, resendBuffer);
        if (FixParser.parse(resendBuffer, 0, length, resendMessage) != FixParser.OK) {
            throw new IllegalStateException(name + ": stored message " + seqNum + " does not parse");
        }
        int sendingTime = resendMessage.indexOf(FixTags.SENDING_TIME);
        writer.begin(resendMessage.msgType())
            .field(FixTags.SENDER_COMP_ID, serverCompId)
            .field(FixTags.TARGET_COMP_ID, clientCompId)
            .field(FixTags.MSG_SEQ_NUM, seqNum)
            .field(FixTags.POSS_DUP_FLAG, 'Y')
            .timestamp(FixTags.SENDING_TIME, nowMs * 1_000_000L)
            .field(FixTags.ORIG_SENDING_TIME, resendBuffer, resendMessage.valueStartAt(sendingTime),
                resendMessage.valueLengthAt(sendingTime));
        for (int field = 0; field < resendMessage.fieldCount(); field++) {
            if (!isHeaderOrTrailer(resendMessage.tagAt(field))) {
                writer.copyField(resendMessage, field);
            }
        }
        writer.finish();
        transmit(nowMs);
    }

    private void transmit(long nowMs) {
        lastSentMs = nowMs;
        if (transport != null) {
            transport.send(writer.buffer(), writer.start(), writer.length());
        }
    }

    private static boolean isHeaderOrTrailer(int tag) {
        return switch (tag) {
            case FixTags.BEGIN_STRING, FixTags.BODY_LENGTH, FixTags.MSG_TYPE, FixTags.SENDER_COMP_ID,
                FixTags.TARGET_COMP_ID, FixTags.MSG_SEQ_NUM, FixTags.SENDING_TIME, FixTags.POSS_DUP_FLAG,
                FixTags.POSS_RESEND, FixTags.ORIG_SENDING_TIME, FixTags.CHECK_SUM -> true;
            default -> false;
        };
    }
}
