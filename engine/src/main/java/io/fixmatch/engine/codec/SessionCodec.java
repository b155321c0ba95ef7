package io.fixmatch.engine.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The records between a gateway's sessions and the replicated venue when the cluster owns the sessions (who holds
 * each, and every MsgSeqNum it sends): the gateway thread writes requests into its inbound ring (the cluster link
 * sends them through the log in the gateway's sequence, like commands), and reads the cluster's answers from its
 * outbound ring. Standalone servers never write or read them. Little-endian; FIX bytes are opaque here.
 *
 * <pre>
 * requests (inbound ring record types)
 *  CLAIM      0 i32 owner  4 i64 Logon's MsgSeqNum  12 u8 ResetSeqNumFlag=Y  13 i64 trading session start (ms, 0)
 *  RELEASE    0 i32 owner
 *  OUT        0 i32 owner  4 u8 flags  5 i64 inbound position it answers (0: none)  13 i32 MsgType  17 body
 *  RESEND     0 i32 owner  4 i64 BeginSeqNo  12 i64 last number wanted
 *  RESET      0 i32 owner  (a Logon with ResetSeqNumFlag=Y on the logged-on session)
 *  KEEPALIVE  (no bytes; the link's own, when the gateway is idle)
 * answers (outbound ring record types)
 *  NUMBERED   0 i64 MsgSeqNum  8 i32 the inner record's type  12 the inner record: an event, a traced event, a
 *             copy (OutboundEventRing's), an OUT, or an OUT_COPY
 *  GRANTED    0 i32 owner  4 i32 epoch  8 i64 the Logon answer's MsgSeqNum  16 i64 next inbound  24 u8 reset
 *  REFUSED    0 i32 owner  4 i64 the Logout's MsgSeqNum (0: outside the session's numbering)  12 ASCII reason
 *  REVOKED    0 i32 owner
 *  RESENT     0 i32 owner  4 i64 MsgSeqNum  12 i64 log time when numbered  20 i32 kind  24 the stored bytes
 *  RESEND_DONE 0 i32 owner  4 i64 the last number answered  12 i64 where to ask again (0: all answered)
 *  LEASE      0 i64 System.nanoTime() until which the gateway may write for its sessions
 * inside the cluster and in NUMBERED
 *  OUT_COPY   0 i32 the drop-copy session  4 the OUT it copies (a report a gateway made: a refusal)
 * </pre>
 * An OUT body is the FIX message's fields after the standard header, without the trailer: the gateway writes the
 * header (with the number the cluster gave) around it. A RESENT's kind says what its bytes are: the record as
 * NUMBERED carried it (an event without its trace, a copy, an OUT, an OUT_COPY), or nothing ({@link #KIND_GAP}: a
 * message never resent, an admin message or market data: a gap fill).
 */
public final class SessionCodec {
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    // request record types (inbound ring; beside InboundCommandRing.COMMAND and TRACED_COMMAND)
    public static final int CLAIM = 11;
    public static final int RELEASE = 12;
    public static final int OUT = 13;
    public static final int RESEND = 14;
    public static final int RESET = 15;
    public static final int KEEPALIVE = 16;

    // answer record types (outbound ring; beside OutboundEventRing's, and apart from the requests': an OUT and an
    // OUT_COPY travel in the outbound ring too, inside NUMBERED)
    public static final int NUMBERED = 6;
    public static final int OUT_COPY = 18;
    public static final int GRANTED = 21;
    public static final int REFUSED = 22;
    public static final int REVOKED = 23;
    public static final int RESENT = 24;
    public static final int RESEND_DONE = 25;
    public static final int LEASE = 26;

    /** OUT flags: kept for resend (an application message); a report the session's drop copies get too. */
    public static final int STORED = 1;
    public static final int COPIED = 2;

    /** RESENT kinds (also the node's stored kinds). */
    public static final int KIND_GAP = 0;
    public static final int KIND_EVENT = 1;
    public static final int KIND_COPY = 2;
    public static final int KIND_OUT = 3;
    public static final int KIND_OUT_COPY = 4;

    public static final int CLAIM_LENGTH = 21;
    public static final int OWNER_LENGTH = Integer.BYTES;
    public static final int OUT_HEADER_LENGTH = 17;
    public static final int RESEND_LENGTH = 20;
    public static final int NUMBERED_HEADER_LENGTH = 12;
    public static final int GRANTED_LENGTH = 25;
    public static final int REFUSED_HEADER_LENGTH = 12;
    public static final int RESENT_HEADER_LENGTH = 24;
    public static final int RESEND_DONE_LENGTH = 20;
    public static final int LEASE_LENGTH = Long.BYTES;
    public static final int OUT_COPY_HEADER_LENGTH = Integer.BYTES;

    private SessionCodec() {
    }

    /**
     * A request's inbound position (as commands carry it): {@code epoch << INBOUND_SEQ_NUM_BITS | MsgSeqNum}, the
     * epoch counting the session's sequence resets.
     */
    public static final int INBOUND_SEQ_NUM_BITS = 40;

    public static long inboundPosition(long epoch, long seqNum) {
        return epoch << INBOUND_SEQ_NUM_BITS | (seqNum & ((1L << INBOUND_SEQ_NUM_BITS) - 1));
    }

    public static int inboundEpoch(long inboundPosition) {
        return (int) (inboundPosition >>> INBOUND_SEQ_NUM_BITS);
    }

    public static long inboundSeqNum(long inboundPosition) {
        return inboundPosition & ((1L << INBOUND_SEQ_NUM_BITS) - 1);
    }

    /** Every record of this codec starts with its owner (an OUT_COPY with its recipient), but NUMBERED and LEASE. */
    public static int owner(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset, ORDER);
    }

    // --- CLAIM ---

    public static int encodeClaim(MutableDirectBuffer buffer, int offset, int owner, long logonSeqNum, boolean reset,
                                  long tradingSessionStartMs) {
        buffer.putInt(offset, owner, ORDER);
        buffer.putLong(offset + 4, logonSeqNum, ORDER);
        buffer.putByte(offset + 12, (byte) (reset ? 1 : 0));
        buffer.putLong(offset + 13, tradingSessionStartMs, ORDER);
        return CLAIM_LENGTH;
    }

    public static long claimLogonSeqNum(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 4, ORDER);
    }

    public static boolean claimReset(DirectBuffer buffer, int offset) {
        return buffer.getByte(offset + 12) != 0;
    }

    public static long claimTradingSessionStartMs(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 13, ORDER);
    }

    // --- RELEASE, RESET, REVOKED ---

    public static int encodeOwner(MutableDirectBuffer buffer, int offset, int owner) {
        buffer.putInt(offset, owner, ORDER);
        return OWNER_LENGTH;
    }

    // --- OUT ---

    /** Writes an OUT's header; the body goes at {@code offset + OUT_HEADER_LENGTH}. */
    public static void encodeOutHeader(MutableDirectBuffer buffer, int offset, int owner, int flags,
                                       long answeredInbound, int msgType) {
        buffer.putInt(offset, owner, ORDER);
        buffer.putByte(offset + 4, (byte) flags);
        buffer.putLong(offset + 5, answeredInbound, ORDER);
        buffer.putInt(offset + 13, msgType, ORDER);
    }

    public static int outFlags(DirectBuffer buffer, int offset) {
        return buffer.getByte(offset + 4) & 0xFF;
    }

    public static long outAnsweredInbound(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 5, ORDER);
    }

    public static int outMsgType(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + 13, ORDER);
    }

    // --- RESEND ---

    public static int encodeResend(MutableDirectBuffer buffer, int offset, int owner, long begin, long last) {
        buffer.putInt(offset, owner, ORDER);
        buffer.putLong(offset + 4, begin, ORDER);
        buffer.putLong(offset + 12, last, ORDER);
        return RESEND_LENGTH;
    }

    public static long resendBegin(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 4, ORDER);
    }

    public static long resendLast(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 12, ORDER);
    }

    // --- NUMBERED ---

    /** Writes a NUMBERED header; the inner record's bytes go at {@code offset + NUMBERED_HEADER_LENGTH}. */
    public static void encodeNumberedHeader(MutableDirectBuffer buffer, int offset, long seqNum, int innerType) {
        buffer.putLong(offset, seqNum, ORDER);
        buffer.putInt(offset + 8, innerType, ORDER);
    }

    public static long numberedSeqNum(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset, ORDER);
    }

    public static int numberedInnerType(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + 8, ORDER);
    }

    // --- GRANTED ---

    public static int encodeGranted(MutableDirectBuffer buffer, int offset, int owner, int epoch, long answerSeqNum,
                                    long nextIn, boolean reset) {
        buffer.putInt(offset, owner, ORDER);
        buffer.putInt(offset + 4, epoch, ORDER);
        buffer.putLong(offset + 8, answerSeqNum, ORDER);
        buffer.putLong(offset + 16, nextIn, ORDER);
        buffer.putByte(offset + 24, (byte) (reset ? 1 : 0));
        return GRANTED_LENGTH;
    }

    public static int grantedEpoch(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + 4, ORDER);
    }

    public static long grantedAnswerSeqNum(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 8, ORDER);
    }

    public static long grantedNextIn(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 16, ORDER);
    }

    /** Whether this grant answers a RESET (a reset on the logged-on session) rather than a CLAIM. */
    public static boolean grantedReset(DirectBuffer buffer, int offset) {
        return buffer.getByte(offset + 24) != 0;
    }

    // --- REFUSED ---

    public static int encodeRefused(MutableDirectBuffer buffer, int offset, int owner, long logoutSeqNum,
                                    String reason) {
        buffer.putInt(offset, owner, ORDER);
        buffer.putLong(offset + 4, logoutSeqNum, ORDER);
        return REFUSED_HEADER_LENGTH + buffer.putStringWithoutLengthAscii(offset + REFUSED_HEADER_LENGTH, reason);
    }

    public static long refusedLogoutSeqNum(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 4, ORDER);
    }

    public static String refusedReason(DirectBuffer buffer, int offset, int length) {
        return buffer.getStringWithoutLengthAscii(offset + REFUSED_HEADER_LENGTH, length - REFUSED_HEADER_LENGTH);
    }

    // --- OUT_COPY ---

    /** Writes an OUT_COPY's header; the OUT it copies goes at {@code offset + OUT_COPY_HEADER_LENGTH}. */
    public static void encodeOutCopyHeader(MutableDirectBuffer buffer, int offset, int recipient) {
        buffer.putInt(offset, recipient, ORDER);
    }

    // --- RESENT ---

    /** Writes a RESENT header; the stored bytes go at {@code offset + RESENT_HEADER_LENGTH}. */
    public static void encodeResentHeader(MutableDirectBuffer buffer, int offset, int owner, long seqNum,
                                          long logTimeNanos, int kind) {
        buffer.putInt(offset, owner, ORDER);
        buffer.putLong(offset + 4, seqNum, ORDER);
        buffer.putLong(offset + 12, logTimeNanos, ORDER);
        buffer.putInt(offset + 20, kind, ORDER);
    }

    public static long resentSeqNum(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 4, ORDER);
    }

    public static long resentLogTimeNanos(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 12, ORDER);
    }

    public static int resentKind(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + 20, ORDER);
    }

    // --- RESEND_DONE ---

    public static int encodeResendDone(MutableDirectBuffer buffer, int offset, int owner, long lastAnswered,
                                       long askAgainFrom) {
        buffer.putInt(offset, owner, ORDER);
        buffer.putLong(offset + 4, lastAnswered, ORDER);
        buffer.putLong(offset + 12, askAgainFrom, ORDER);
        return RESEND_DONE_LENGTH;
    }

    public static long resendDoneLastAnswered(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 4, ORDER);
    }

    public static long resendDoneAskAgainFrom(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 12, ORDER);
    }

    // --- LEASE ---

    public static int encodeLease(MutableDirectBuffer buffer, int offset, long untilNanos) {
        buffer.putLong(offset, untilNanos, ORDER);
        return LEASE_LENGTH;
    }

    public static long leaseUntilNanos(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset, ORDER);
    }
}
