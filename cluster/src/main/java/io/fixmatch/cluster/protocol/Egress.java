package io.fixmatch.cluster.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The messages the cluster sends a gateway (egress), little-endian, first byte the type:
 * <pre>
 *  WELCOME  2 u16 protocol version   4 i32 gateway id   8 i64 last applied gateway sequence
 *           16 i64 last egress sequence   24 i64 oldest egress sequence still held (history before it is lost)
 *           32 i32 seed messages
 *           36 i32 owners   40 i32 session controls   44 i32 symbols, then per owner: i32 owner id, i64 last
 *           inbound position, i64 per session control (its value); i64 per symbol (its reference price);
 *           i32 length and the engine view (halts, kill switches); then the symbols' schedule and volatility
 *           settings (absent from a node of an earlier release: the gateway then knows none): i32 k and k i32
 *           {@code SymbolControl} codes, i32 settings profiles, each k i64 values and the time zone (i32 length,
 *           ASCII id), then i32 per symbol (its profile); then (absent from a node of an earlier release) i64 the
 *           engine's market data sequence number (the binary feed's, docs/FEED.md: the books are as of it), and i64
 *           per symbol its last trade price (0: none)
 *  SEED     8 entries: i32 symbol id, u8 kind (0 buy, 1 sell: a resting order; 2: the symbol's call's indicative
 *           uncross), i64 price, i64 quantity (the order's shown quantity; the indicative volume)
 *  BATCH    1 u8 flags (bit 0: history, resent)   8 i64 egress sequence   16 i64 gateway sequence answered (0: none)
 *           24 i64 command sequence (the origin position of its events)   32 records
 *  REFUSED  4 i32 text length   8 ASCII text: why the HELLO was refused
 *  RESENT   8 records: a resend's answer from the leader's copy of a session's messages (SessionCodec's RESENT and
 *           RESEND_DONE), not numbered among the batches (asked again if lost)
 * </pre>
 * A BATCH's records are outbound ring records exactly as the service's matching step wrote them (events, copies,
 * market data), each {@code i32 type, i32 length, bytes}: the gateway publishes them into its own outbound ring, so
 * they reach the same report path as in a standalone server. Egress sequences number each gateway's batches 1, 2,
 * 3... so a gateway sees a gap (a batch lost in a leader change) and asks for a resend. A WELCOME's protocol version
 * ({@link ProtocolVersion}) was 0 in every release before versions (those bytes were never written).
 */
public final class Egress {
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    public static final byte WELCOME = 1;
    public static final byte SEED = 2;
    public static final byte BATCH = 3;
    public static final byte REFUSED = 4;
    public static final byte RESENT = 5;
    public static final int RESENT_HEADER_LENGTH = 8;

    public static final int HISTORY = 1;
    /**
     * A BATCH record type besides the outbound ring's: the engine's view (halts, kill switches, a book query's answer;
     * {@code EngineView#encode}) after an operator's command, for the gateway's mirror of it.
     */
    public static final int VIEW_RECORD = 100;
    /**
     * A BATCH record type besides the outbound ring's: the cluster's gateways and who holds each session
     * ({@code GatewayDirectory}), after a change, for the admin endpoint.
     */
    public static final int DIRECTORY_RECORD = 101;

    private static final int TYPE = 0;
    private static final int FLAGS = 1;
    private static final int VERSION = 2;
    private static final int GATEWAY_ID = 4;
    private static final int LAST_APPLIED = 8;
    private static final int LAST_EGRESS = 16;
    private static final int OLDEST_HELD = 24;
    private static final int SEED_MESSAGES = 32;
    private static final int OWNER_COUNT = 36;
    private static final int CONTROL_COUNT = 40;
    private static final int SYMBOL_COUNT = 44;
    public static final int WELCOME_HEADER_LENGTH = 48;

    public static final int SEED_HEADER_LENGTH = 8;
    public static final int SEED_ENTRY_LENGTH = Integer.BYTES + 1 + 2 * Long.BYTES;
    /** A SEED entry's kind besides the sides' ordinals (0 buy, 1 sell): a call's indicative uncross. */
    public static final int SEED_INDICATIVE = 2;

    private static final int EGRESS_SEQUENCE = 8;
    private static final int ANSWERED = 16;
    private static final int COMMAND_SEQUENCE = 24;
    public static final int BATCH_HEADER_LENGTH = 32;
    /** Each record in a BATCH or SEED: i32 ring record type, i32 length, then the bytes. */
    public static final int RECORD_HEADER_LENGTH = 8;

    private static final int TEXT_LENGTH = 4;
    private static final int TEXT = 8;

    private Egress() {
    }

    public static byte type(DirectBuffer buffer, int offset) {
        return buffer.getByte(offset + TYPE);
    }

    // --- WELCOME ---

    /** @param version the node's protocol version ({@link ProtocolVersion#CURRENT}) */
    public static void encodeWelcomeHeader(MutableDirectBuffer buffer, int offset, int version, int gatewayId,
                                           long lastApplied, long lastEgress, long oldestHeld, int seedMessages,
                                           int ownerCount, int controlCount, int symbolCount) {
        buffer.putByte(offset + TYPE, WELCOME);
        buffer.putByte(offset + FLAGS, (byte) 0);
        buffer.putShort(offset + VERSION, (short) version, ORDER);
        buffer.putInt(offset + GATEWAY_ID, gatewayId, ORDER);
        buffer.putLong(offset + LAST_APPLIED, lastApplied, ORDER);
        buffer.putLong(offset + LAST_EGRESS, lastEgress, ORDER);
        buffer.putLong(offset + OLDEST_HELD, oldestHeld, ORDER);
        buffer.putInt(offset + SEED_MESSAGES, seedMessages, ORDER);
        buffer.putInt(offset + OWNER_COUNT, ownerCount, ORDER);
        buffer.putInt(offset + CONTROL_COUNT, controlCount, ORDER);
        buffer.putInt(offset + SYMBOL_COUNT, symbolCount, ORDER);
    }

    /** Where owner entry {@code index} starts: i32 owner, i64 inbound position, then the controls' i64 values. */
    public static int welcomeOwnerAt(DirectBuffer buffer, int offset, int index) {
        return offset + WELCOME_HEADER_LENGTH + index * welcomeOwnerLength(buffer, offset);
    }

    private static int welcomeOwnerLength(DirectBuffer buffer, int offset) {
        return Integer.BYTES + Long.BYTES + welcomeControlCount(buffer, offset) * Long.BYTES;
    }

    /** Where the reference prices start (i64 per symbol), after the owners. */
    public static int welcomeReferencePricesAt(DirectBuffer buffer, int offset) {
        return welcomeOwnerAt(buffer, offset, welcomeOwnerCount(buffer, offset));
    }

    /** Where the view starts (i32 length, then the engine view's bytes), after the reference prices. */
    public static int welcomeViewAt(DirectBuffer buffer, int offset) {
        return welcomeReferencePricesAt(buffer, offset) + welcomeSymbolCount(buffer, offset) * Long.BYTES;
    }

    /**
     * Where the symbols' settings start, after the view: at or past the welcome's end if it carries none (a node of
     * an earlier release).
     */
    public static int welcomeSymbolSettingsAt(DirectBuffer buffer, int offset) {
        int viewAt = welcomeViewAt(buffer, offset);
        return viewAt + Integer.BYTES + buffer.getInt(viewAt, ORDER);
    }

    /** The WELCOME's protocol version (0: a node of a release before versions). */
    public static int welcomeVersion(DirectBuffer buffer, int offset) {
        return buffer.getShort(offset + VERSION, ORDER) & 0xFFFF;
    }

    public static int welcomeGatewayId(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + GATEWAY_ID, ORDER);
    }

    public static long welcomeLastApplied(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + LAST_APPLIED, ORDER);
    }

    public static long welcomeLastEgress(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + LAST_EGRESS, ORDER);
    }

    public static long welcomeOldestHeld(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + OLDEST_HELD, ORDER);
    }

    public static int welcomeSeedMessages(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + SEED_MESSAGES, ORDER);
    }

    public static int welcomeOwnerCount(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + OWNER_COUNT, ORDER);
    }

    public static int welcomeControlCount(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + CONTROL_COUNT, ORDER);
    }

    public static int welcomeSymbolCount(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + SYMBOL_COUNT, ORDER);
    }

    // --- SEED ---

    public static void encodeSeedHeader(MutableDirectBuffer buffer, int offset) {
        buffer.putByte(offset + TYPE, SEED);
    }

    /**
     * Writes seed entry {@code index} ({@code kind}: a side's ordinal, or {@link #SEED_INDICATIVE}); returns the
     * message length with it.
     */
    public static int putSeedEntry(MutableDirectBuffer buffer, int offset, int index, int symbolId, int kind,
                                   long price, long quantity) {
        int at = offset + SEED_HEADER_LENGTH + index * SEED_ENTRY_LENGTH;
        buffer.putInt(at, symbolId, ORDER);
        buffer.putByte(at + Integer.BYTES, (byte) kind);
        buffer.putLong(at + Integer.BYTES + 1, price, ORDER);
        buffer.putLong(at + Integer.BYTES + 1 + Long.BYTES, quantity, ORDER);
        return SEED_HEADER_LENGTH + (index + 1) * SEED_ENTRY_LENGTH;
    }

    public static int seedEntries(int length) {
        return (length - SEED_HEADER_LENGTH) / SEED_ENTRY_LENGTH;
    }

    public static int seedSymbol(DirectBuffer buffer, int offset, int index) {
        return buffer.getInt(offset + SEED_HEADER_LENGTH + index * SEED_ENTRY_LENGTH, ORDER);
    }

    /** The entry's kind: a side's ordinal (a resting order), or {@link #SEED_INDICATIVE}. */
    public static int seedKind(DirectBuffer buffer, int offset, int index) {
        return buffer.getByte(offset + SEED_HEADER_LENGTH + index * SEED_ENTRY_LENGTH + Integer.BYTES);
    }

    public static long seedPrice(DirectBuffer buffer, int offset, int index) {
        return buffer.getLong(offset + SEED_HEADER_LENGTH + index * SEED_ENTRY_LENGTH + Integer.BYTES + 1, ORDER);
    }

    public static long seedQuantity(DirectBuffer buffer, int offset, int index) {
        return buffer.getLong(offset + SEED_HEADER_LENGTH + index * SEED_ENTRY_LENGTH + Integer.BYTES + 1
            + Long.BYTES, ORDER);
    }

    // --- BATCH ---

    public static void encodeBatchHeader(MutableDirectBuffer buffer, int offset, int flags, long egressSequence,
                                         long answered, long commandSequence) {
        buffer.putByte(offset + TYPE, BATCH);
        buffer.putByte(offset + FLAGS, (byte) flags);
        buffer.putLong(offset + EGRESS_SEQUENCE, egressSequence, ORDER);
        buffer.putLong(offset + ANSWERED, answered, ORDER);
        buffer.putLong(offset + COMMAND_SEQUENCE, commandSequence, ORDER);
    }

    public static int batchFlags(DirectBuffer buffer, int offset) {
        return buffer.getByte(offset + FLAGS);
    }

    /** Rewrites a BATCH's flags in place (a resent batch is marked history). */
    public static void batchFlags(MutableDirectBuffer buffer, int offset, int flags) {
        buffer.putByte(offset + FLAGS, (byte) flags);
    }

    public static long batchEgressSequence(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + EGRESS_SEQUENCE, ORDER);
    }

    public static long batchAnswered(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + ANSWERED, ORDER);
    }

    public static long batchCommandSequence(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + COMMAND_SEQUENCE, ORDER);
    }

    // --- records (BATCH) ---

    /** Writes a record at {@code at}; returns where the next one goes. */
    public static int putRecord(MutableDirectBuffer buffer, int at, int recordType, DirectBuffer source,
                                int sourceOffset, int length) {
        buffer.putInt(at, recordType, ORDER);
        buffer.putInt(at + Integer.BYTES, length, ORDER);
        buffer.putBytes(at + RECORD_HEADER_LENGTH, source, sourceOffset, length);
        return at + RECORD_HEADER_LENGTH + length;
    }

    public static int recordType(DirectBuffer buffer, int at) {
        return buffer.getInt(at, ORDER);
    }

    public static int recordLength(DirectBuffer buffer, int at) {
        return buffer.getInt(at + Integer.BYTES, ORDER);
    }

    // --- RESENT ---

    public static void encodeResentHeader(MutableDirectBuffer buffer, int offset) {
        buffer.putByte(offset + TYPE, RESENT);
    }

    // --- REFUSED ---

    public static int encodeRefused(MutableDirectBuffer buffer, int offset, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        buffer.putByte(offset + TYPE, REFUSED);
        buffer.putInt(offset + TEXT_LENGTH, bytes.length, ORDER);
        buffer.putBytes(offset + TEXT, bytes);
        return TEXT + bytes.length;
    }

    public static String refusedText(DirectBuffer buffer, int offset) {
        int length = buffer.getInt(offset + TEXT_LENGTH, ORDER);
        return buffer.getStringWithoutLengthAscii(offset + TEXT, length);
    }
}
