package io.fixmatch.cluster.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The messages a gateway sends the cluster (ingress), little-endian, first byte the type:
 * <pre>
 *  HELLO    2 u16 protocol version   4 i32 gateway id   8 i64 venue fingerprint   16 i32 owner count
 *           20 i32 owner ids ..., then i64 incarnation (this process's: a new one is a restart), i64 pid, i32 FIX
 *           port, i32 admin port
 *  COMMAND  1 u8 ring record type     8 i64 gateway sequence   16 i64 egress stored through   24 the ring record
 *  ACK                                                        16 i64 egress stored through
 *  RESUME                             8 i64 resend the egress after this sequence
 * </pre>
 * A COMMAND carries one inbound ring record as the gateway's ring held it (the command in its {@code CommandCodec}
 * form, after the trace stamps if it is traced); its gateway sequence numbers the gateway's commands 1, 2, 3... so the
 * service applies each exactly once, in order. "Egress stored through" acknowledges the egress batches whose records
 * the gateway has consumed (its stores hold their reports), so the service may forget them. A COMMAND whose record
 * type is one of {@code SessionCodec}'s requests carries a session's request (a Logon's claim, a message to number)
 * in the same sequence, so it is applied once and in order with the gateway's commands. A HELLO's protocol
 * version ({@link ProtocolVersion}) was 0 in every release before versions (those bytes were never written).
 */
public final class Ingress {
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    public static final byte HELLO = 1;
    public static final byte COMMAND = 2;
    public static final byte ACK = 3;
    public static final byte RESUME = 4;

    private static final int TYPE = 0;
    private static final int VERSION = 2;
    private static final int GATEWAY_ID = 4;
    private static final int FINGERPRINT = 8;
    private static final int OWNER_COUNT = 16;
    private static final int OWNERS = 20;
    private static final int RECORD_TYPE = 1;
    private static final int SEQUENCE = 8;
    private static final int STORED_THROUGH = 16;
    /** Where a COMMAND's ring record starts. */
    public static final int COMMAND_HEADER_LENGTH = 24;
    public static final int ACK_LENGTH = 24;
    public static final int RESUME_LENGTH = 16;
    /** A HELLO's bytes after its owners: incarnation, pid, FIX port, admin port. */
    private static final int HELLO_TAIL_LENGTH = 2 * Long.BYTES + 2 * Integer.BYTES;
    /** More owners than any venue configures: a HELLO claiming more is refused as malformed. */
    public static final int MAX_OWNERS = 4096;

    private Ingress() {
    }

    public static byte type(DirectBuffer buffer, int offset) {
        return buffer.getByte(offset + TYPE);
    }

    // --- HELLO ---

    /**
     * A HELLO of this release's {@link ProtocolVersion#CURRENT}.
     *
     * @param fingerprint the gateway's {@link VenueFingerprint}
     * @param owners      the owner ids (sessions) it may serve
     * @param process     who it is: its incarnation, pid and ports
     */
    public static int encodeHello(MutableDirectBuffer buffer, int offset, int gatewayId, long fingerprint,
                                  int[] owners, GatewayProcess process) {
        buffer.putByte(offset + TYPE, HELLO);
        buffer.putByte(offset + TYPE + 1, (byte) 0);
        buffer.putShort(offset + VERSION, (short) ProtocolVersion.CURRENT, ORDER);
        buffer.putInt(offset + GATEWAY_ID, gatewayId, ORDER);
        buffer.putLong(offset + FINGERPRINT, fingerprint, ORDER);
        buffer.putInt(offset + OWNER_COUNT, owners.length, ORDER);
        for (int i = 0; i < owners.length; i++) {
            buffer.putInt(offset + OWNERS + i * Integer.BYTES, owners[i], ORDER);
        }
        int tail = offset + OWNERS + owners.length * Integer.BYTES;
        buffer.putLong(tail, process.incarnation(), ORDER);
        buffer.putLong(tail + Long.BYTES, process.pid(), ORDER);
        buffer.putInt(tail + 2 * Long.BYTES, process.fixPort(), ORDER);
        buffer.putInt(tail + 2 * Long.BYTES + Integer.BYTES, process.adminPort(), ORDER);
        return OWNERS + owners.length * Integer.BYTES + HELLO_TAIL_LENGTH;
    }

    /** A well-formed HELLO's (see {@link #helloOwners}) process: incarnation, pid, ports. */
    public static GatewayProcess helloProcess(DirectBuffer buffer, int offset, int length) {
        if (!hasProcess(buffer, offset, length)) {
            return GatewayProcess.UNKNOWN; // a release before versions said nothing of its process
        }
        int tail = offset + length - HELLO_TAIL_LENGTH;
        return new GatewayProcess(buffer.getLong(tail, ORDER), buffer.getLong(tail + Long.BYTES, ORDER),
            buffer.getInt(tail + 2 * Long.BYTES, ORDER), buffer.getInt(tail + 2 * Long.BYTES + Integer.BYTES, ORDER));
    }

    /** Whether the HELLO names its process (every version since 2; a release before versions did not). */
    private static boolean hasProcess(DirectBuffer buffer, int offset, int length) {
        return helloVersion(buffer, offset, length) >= 2;
    }

    /** The HELLO's protocol version (0: a release before versions); 0 for a HELLO too short to say. */
    public static int helloVersion(DirectBuffer buffer, int offset, int length) {
        return length < VERSION + Short.BYTES ? 0 : buffer.getShort(offset + VERSION, ORDER) & 0xFFFF;
    }

    public static int helloGatewayId(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + GATEWAY_ID, ORDER);
    }

    /** Only for a HELLO of at least {@link #OWNERS} bytes (see {@link #helloOwners}). */
    public static long helloFingerprint(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + FINGERPRINT, ORDER);
    }

    /** The owners a HELLO claims, or null if its length does not match its count (malformed). */
    public static int[] helloOwners(DirectBuffer buffer, int offset, int length) {
        if (length < OWNERS) {
            return null;
        }
        int count = buffer.getInt(offset + OWNER_COUNT, ORDER);
        int tail = hasProcess(buffer, offset, length) ? HELLO_TAIL_LENGTH : 0;
        if (count < 0 || count > MAX_OWNERS || length != OWNERS + count * Integer.BYTES + tail) {
            return null;
        }
        int[] owners = new int[count];
        for (int i = 0; i < count; i++) {
            owners[i] = buffer.getInt(offset + OWNERS + i * Integer.BYTES, ORDER);
        }
        return owners;
    }

    // --- COMMAND ---

    /** Writes a COMMAND's header; the ring record's bytes go at {@code offset + COMMAND_HEADER_LENGTH}. */
    public static void encodeCommandHeader(MutableDirectBuffer buffer, int offset, int recordType, long sequence,
                                           long storedThrough) {
        buffer.putByte(offset + TYPE, COMMAND);
        buffer.putByte(offset + RECORD_TYPE, (byte) recordType);
        buffer.putLong(offset + SEQUENCE, sequence, ORDER);
        buffer.putLong(offset + STORED_THROUGH, storedThrough, ORDER);
    }

    public static int commandRecordType(DirectBuffer buffer, int offset) {
        return buffer.getByte(offset + RECORD_TYPE);
    }

    public static long commandSequence(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + SEQUENCE, ORDER);
    }

    /** COMMAND and ACK: the egress batches (by sequence) whose records the gateway has consumed. */
    public static long storedThrough(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + STORED_THROUGH, ORDER);
    }

    // --- ACK ---

    public static int encodeAck(MutableDirectBuffer buffer, int offset, long storedThrough) {
        buffer.putByte(offset + TYPE, ACK);
        buffer.putLong(offset + STORED_THROUGH, storedThrough, ORDER);
        return ACK_LENGTH;
    }

    // --- RESUME ---

    public static int encodeResume(MutableDirectBuffer buffer, int offset, long afterSequence) {
        buffer.putByte(offset + TYPE, RESUME);
        buffer.putLong(offset + SEQUENCE, afterSequence, ORDER);
        return RESUME_LENGTH;
    }

    public static long resumeAfter(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + SEQUENCE, ORDER);
    }
}
