package io.fixmatch.feed.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The feed's datagrams, MoldUDP64's framing (docs/FEED.md): a header of {@value #HEADER_LENGTH} bytes, big-endian
 *
 * <pre>
 *   0 session, 10 ASCII bytes (space-padded)   10 u64 sequence number of the first message   18 u16 message count
 * </pre>
 * then each message as {@code u16 length} (big-endian) and its bytes (one SBE message, little-endian). The n-th message
 * (from 0) of a datagram has the sequence number {@code sequence + n}. A datagram of no messages is a heartbeat: its
 * sequence number is the next one the stream will use. A retransmission request is a header alone: the first number
 * wanted and how many. A datagram whose sequence number is 0 numbers nothing (a retransmission service's refusal).
 * Snapshot datagrams use the same framing with the snapshot channel's own numbering.
 */
public final class Datagram {
    public static final int SESSION_LENGTH = 10;
    public static final int HEADER_LENGTH = SESSION_LENGTH + Long.BYTES + Short.BYTES;
    public static final int MESSAGE_LENGTH_BYTES = Short.BYTES;
    /** The most a datagram of the feed carries on Ethernet without fragmenting (1500 - IPv4 20 - UDP 8). */
    public static final int DEFAULT_MAX_BYTES = 1472;
    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
    private static final int SEQUENCE_OFFSET = SESSION_LENGTH;
    private static final int COUNT_OFFSET = SESSION_LENGTH + Long.BYTES;

    private Datagram() {
    }

    /** The session name as the header carries it: ASCII, space-padded or cut to {@value #SESSION_LENGTH} bytes. */
    public static byte[] session(String name) {
        byte[] session = new byte[SESSION_LENGTH];
        byte[] ascii = name.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < SESSION_LENGTH; i++) {
            session[i] = i < ascii.length ? ascii[i] : (byte) ' ';
        }
        return session;
    }

    public static void putHeader(MutableDirectBuffer buffer, int offset, byte[] session, long sequence, int count) {
        buffer.putBytes(offset, session);
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence, ORDER);
        buffer.putShort(offset + COUNT_OFFSET, (short) count, ORDER);
    }

    public static void putCount(MutableDirectBuffer buffer, int offset, int count) {
        buffer.putShort(offset + COUNT_OFFSET, (short) count, ORDER);
    }

    public static long sequence(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + SEQUENCE_OFFSET, ORDER);
    }

    public static int count(DirectBuffer buffer, int offset) {
        return buffer.getShort(offset + COUNT_OFFSET, ORDER) & 0xFFFF;
    }

    /** Whether the datagram's session is {@code session}. */
    public static boolean sessionIs(DirectBuffer buffer, int offset, byte[] session) {
        for (int i = 0; i < SESSION_LENGTH; i++) {
            if (buffer.getByte(offset + i) != session[i]) {
                return false;
            }
        }
        return true;
    }

    /** The session name of the datagram, trailing spaces dropped. */
    public static String sessionName(DirectBuffer buffer, int offset) {
        return buffer.getStringWithoutLengthAscii(offset, SESSION_LENGTH).stripTrailing();
    }

    public static int messageLength(DirectBuffer buffer, int at) {
        return buffer.getShort(at, ORDER) & 0xFFFF;
    }

    public static void putMessageLength(MutableDirectBuffer buffer, int at, int length) {
        buffer.putShort(at, (short) length, ORDER);
    }
}
