package io.fixmatch.fix.session;

import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.codec.MsgTypes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session's outbound side: the one funnel through which every message it sends is written. A new message gets the
 * next MsgSeqNum ({@link #send}, {@link #sendUnstored}: the store counts the number), application messages are kept
 * for resend in the store (with the origin of the engine event they report), and the bytes go to the connection's
 * transport while one is bound; a resend writes a stored message again under its own number ({@link #resendStored}),
 * a gap in the stored numbers becomes a SequenceReset-GapFill ({@link #sendGapFill}). One writer, reused: nothing is
 * allocated per message. The owning thread's only.
 *
 * <p>When a cluster owns the sessions ({@link ClusterNumbering}), the cluster numbers every message: a message of the
 * session's own goes to it to be numbered ({@link #send}: an OUT, carrying the inbound number the cluster may count as
 * received) and is written when it comes back ({@link #writeAt}), like the reports the cluster numbered itself; the
 * store is this gateway's cache of the session, kept but never asked for a number.
 */
final class SessionOutput {
    /** The session's log lines under one name. */
    private static final Logger LOG = LoggerFactory.getLogger(FixSession.class);

    private final String name;
    private final byte[] serverCompId;
    private final byte[] clientCompId;
    private final SessionStore store;
    private final SessionCounters counters;
    private final FixWriter writer;
    /** A stored message read back for a resend, and parsed. */
    private final byte[] resendBuffer;
    private final FixMessage resendMessage;
    /** Sessions owned by a cluster: it numbers the messages (null: standalone, the store does). */
    private final ClusterNumbering cluster;
    private final InboundSequence inbound;
    private SessionTransport transport;
    private long lastSentMs;
    /** The MsgSeqNum of the message {@link #writeNumbered} wrote last. */
    private long writerSeqNum;
    private long storeFailures;

    /**
     * @param resendBuffer  where stored messages are read back ({@code maxMessageSize} bytes)
     * @param resendMessage where they are parsed
     */
    SessionOutput(String name, byte[] serverCompId, byte[] clientCompId, SessionStore store, SessionCounters counters,
                  int maxMessageSize, byte[] resendBuffer, FixMessage resendMessage, ClusterNumbering cluster,
                  InboundSequence inbound) {
        this.cluster = cluster;
        this.inbound = inbound;
        this.name = name;
        this.serverCompId = serverCompId;
        this.clientCompId = clientCompId;
        this.store = store;
        this.counters = counters;
        this.writer = new FixWriter(maxMessageSize);
        this.resendBuffer = resendBuffer;
        this.resendMessage = resendMessage;
    }

    /** The connection's transport while a connection is bound, else null: messages are then numbered, not sent. */
    SessionTransport transport() {
        return transport;
    }

    void transport(SessionTransport transport) {
        this.transport = transport;
    }

    /** When the last message was written (sent, or numbered while no connection was bound). */
    long lastSentMs() {
        return lastSentMs;
    }

    /** A Logon starts the heartbeat's count afresh. */
    void lastSentMs(long nowMs) {
        lastSentMs = nowMs;
    }

    /** Writes the standard header with the next sequence number, the body, and queues the message. */
    void send(int msgType, MessageBody body, long nowMs) {
        send(msgType, body, nowMs, 0, 0);
    }

    /**
     * As {@link #send(int, MessageBody, long)}, an application message stored with the origin of the engine event it
     * reports (journal position and ordinal; 0, 0: none).
     */
    void send(int msgType, MessageBody body, long nowMs, long originPosition, int originOrdinal) {
        if (cluster != null) {
            sendThroughCluster(msgType, body, MsgTypes.isAdmin(msgType) ? 0 : SessionCodec.STORED, nowMs);
            return;
        }
        writeNumbered(msgType, body, nowMs);
        if (!MsgTypes.isAdmin(msgType)) {
            keepForResend(writerSeqNum, originPosition, originOrdinal);
        }
        transmit(nowMs);
    }

    /** An application message numbered like every message but not kept for resend (market data). */
    void sendUnstored(int msgType, MessageBody body, long nowMs) {
        if (cluster != null) {
            sendThroughCluster(msgType, body, 0, nowMs);
            return;
        }
        writeNumbered(msgType, body, nowMs);
        transmit(nowMs);
    }

    /**
     * A report of a request refused before the engine saw it (as {@link #send}); when a cluster numbers the messages,
     * it also gives the session's drop copies theirs, numbered in their sessions.
     */
    void sendRefusal(int msgType, MessageBody body, boolean copied, long nowMs) {
        if (cluster != null) {
            sendThroughCluster(msgType, body, copied ? SessionCodec.STORED | SessionCodec.COPIED : SessionCodec.STORED,
                nowMs);
        } else {
            send(msgType, body, nowMs);
        }
    }

    /**
     * A message of the session's own when a cluster numbers them: its body goes to the cluster, and is written when it
     * comes back numbered ({@link #writeAt}), in order with the reports. It says the cluster has had every message of
     * the client below the expected number (the requests among them went before it, in order).
     */
    private void sendThroughCluster(int msgType, MessageBody body, int flags, long nowMs) {
        writer.begin(msgType);
        int mark = writer.position();
        body.writeBody(writer);
        long expected = inbound.expected();
        cluster.out(writer, mark, msgType, flags, expected > 1 ? inbound.positionOf(expected - 1) : 0);
        lastSentMs = nowMs;
    }

    /**
     * A message the cluster numbered {@code seqNum} (a report, or one of the session's own come back): written with that
     * number whether or not a connection is bound, kept in the store if {@code stored}. False if this session wrote
     * that number already (nothing is written again).
     */
    boolean writeAt(long seqNum, int msgType, MessageBody body, boolean stored, long nowMs) {
        long next = store.nextSenderSeqNum();
        if (seqNum < next) {
            return false;
        }
        if (seqNum > next) {
            LOG.warn("{}: the cluster numbered {} while {} was next here: the client asks for the gap", name, seqNum,
                next);
        }
        store.nextSenderSeqNum(seqNum);
        writeNumbered(msgType, body, nowMs);
        if (stored) {
            keepForResend(seqNum, 0, 0);
        }
        transmit(nowMs);
        return true;
    }

    /** A message the cluster's copy sends again: number {@code seqNum}, PossDupFlag=Y, the OrigSendingTime given. */
    void resendAt(long seqNum, int msgType, MessageBody body, long origSendingTimeNanos, long nowMs) {
        writer.begin(msgType)
            .field(FixTags.SENDER_COMP_ID, serverCompId)
            .field(FixTags.TARGET_COMP_ID, clientCompId)
            .field(FixTags.MSG_SEQ_NUM, seqNum)
            .field(FixTags.POSS_DUP_FLAG, 'Y')
            .timestamp(FixTags.SENDING_TIME, nowMs * 1_000_000L)
            .timestamp(FixTags.ORIG_SENDING_TIME, Math.min(origSendingTimeNanos, nowMs * 1_000_000L));
        body.writeBody(writer);
        writer.finish();
        transmit(nowMs);
    }

    /** A Logout numbered 1, outside the session's numbering (the session is not this gateway's to number). */
    void logoutOutsideNumbering(String text, long nowMs) {
        writer.begin(MsgTypes.LOGOUT)
            .field(FixTags.SENDER_COMP_ID, serverCompId)
            .field(FixTags.TARGET_COMP_ID, clientCompId)
            .field(FixTags.MSG_SEQ_NUM, 1L)
            .timestamp(FixTags.SENDING_TIME, nowMs * 1_000_000L)
            .field(FixTags.TEXT, text)
            .finish();
        transmit(nowMs);
    }

    /** Writes the header with the next sequence number and the body into the writer, and counts the number. */
    private void writeNumbered(int msgType, MessageBody body, long nowMs) {
        long seqNum = store.nextSenderSeqNum();
        writer.begin(msgType)
            .field(FixTags.SENDER_COMP_ID, serverCompId)
            .field(FixTags.TARGET_COMP_ID, clientCompId)
            .field(FixTags.MSG_SEQ_NUM, seqNum)
            .timestamp(FixTags.SENDING_TIME, nowMs * 1_000_000L);
        body.writeBody(writer);
        writer.finish();
        store.nextSenderSeqNum(seqNum + 1);
        writerSeqNum = seqNum;
    }

    /**
     * Stores the message just written. A store that cannot write (a full disk) must not silence the session: the
     * message still goes out, unstored (a resend of it becomes a gap fill; after a crash its report would be
     * re-derived, same content), and the failure is logged once per run of failures, and when writes work again.
     */
    private void keepForResend(long seqNum, long originPosition, int originOrdinal) {
        try {
            store.storeSent(seqNum, writer.buffer(), writer.start(), writer.length(), originPosition, originOrdinal);
            if (storeFailures > 0) {
                LOG.warn("{}: the session store works again, after {} messages sent unstored", name, storeFailures);
                storeFailures = 0;
            }
        } catch (RuntimeException | InternalError e) { // InternalError: a fault writing a memory-mapped file
            if (storeFailures++ == 0) {
                LOG.error("{}: cannot store sent messages (full disk?): sending them unstored; a resend will gap-fill"
                    + " them", name, e);
            }
        }
    }

    /** A SequenceReset-GapFill numbered {@code seqNum}: the numbers up to {@code newSeqNo} are not resent. */
    void sendGapFill(long seqNum, long newSeqNo, long nowMs) {
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
    void resendStored(long seqNum, long nowMs) {
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
            counters.sent();
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
