package io.fixmatch.engine.codec;

import io.fixmatch.engine.api.Side;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The binary form of one command's market data as it travels through the outbound rings: a record of
 * {@code u8 flags} ({@link #CONTINUED}: the command's changes go on in the next record), {@code i64} the sequence
 * number of its first entry (every entry is one message of the binary feed, numbered by the matching step in the
 * command stream: docs/FEED.md), and then entries of {@value #ENTRY_LENGTH} bytes, little-endian:
 *
 * <pre>
 *  0 u8 kind ({@link #LEVEL}, {@link #TRADE}, {@link #INDICATIVE}, {@link #PHASE}, {@link #HALT})
 *  1 u8 side (levels; 255 otherwise)
 *  2 i32 symbol id   6 i64 price (a phase's code for {@link #PHASE})   14 i64 quantity (a level's new total, 0: gone;
 *  a trade's size; the indicative volume; 1 halted, 0 resumed for {@link #HALT})
 * </pre>
 * An {@link #INDICATIVE} entry is a call's indicative uncross price and volume (both 0: none any more).
 * Entries come in the order they happened, except that a level changed several times in a row by one command (a
 * sweep through its orders) appears once, with its last quantity.
 */
public final class MarketDataCodec {
    public static final int HEADER_LENGTH = 1 + Long.BYTES;
    public static final int ENTRY_LENGTH = 22;
    public static final byte CONTINUED = 1;
    public static final byte LEVEL = 0;
    public static final byte TRADE = 1;
    /** During a call: the price the auction would uncross at now and the volume it would execute (0, 0: none). */
    public static final byte INDICATIVE = 2;
    /** The symbol entered the trading phase whose code the price holds. */
    public static final byte PHASE = 3;
    /** The operator halted (quantity 1) or resumed (0) the symbol. */
    public static final byte HALT = 4;
    private static final int SEQUENCE_OFFSET = 1;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int NO_SIDE = 0xFF;

    private MarketDataCodec() {
    }

    /** Writes entry {@code n} (0-based) of a record starting at {@code offset}. */
    public static void putEntry(MutableDirectBuffer buffer, int offset, int n, byte kind, Side side, int symbolId,
                                long price, long quantity) {
        int at = offset + HEADER_LENGTH + n * ENTRY_LENGTH;
        buffer.putByte(at, kind);
        buffer.putByte(at + 1, (byte) (side == null ? NO_SIDE : side.ordinal()));
        buffer.putInt(at + 2, symbolId, ORDER);
        buffer.putLong(at + 6, price, ORDER);
        buffer.putLong(at + 14, quantity, ORDER);
    }

    /** Overwrites the quantity of entry {@code n}. */
    public static void putQuantity(MutableDirectBuffer buffer, int offset, int n, long quantity) {
        buffer.putLong(offset + HEADER_LENGTH + n * ENTRY_LENGTH + 14, quantity, ORDER);
    }

    /** The number of entries of a record of {@code length} bytes. */
    public static int entries(int length) {
        return (length - HEADER_LENGTH) / ENTRY_LENGTH;
    }

    /** The record's header: its flags and the sequence number of its first entry. */
    public static void putHeader(MutableDirectBuffer buffer, int offset, byte flags, long firstSequence) {
        buffer.putByte(offset, flags);
        buffer.putLong(offset + SEQUENCE_OFFSET, firstSequence, ORDER);
    }

    /** The feed sequence number of the record's first entry (entry n has this plus n). */
    public static long firstSequence(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + SEQUENCE_OFFSET, ORDER);
    }

    public static boolean continued(DirectBuffer buffer, int offset) {
        return (buffer.getByte(offset) & CONTINUED) != 0;
    }

    public static byte kind(DirectBuffer buffer, int offset, int n) {
        return buffer.getByte(offset + HEADER_LENGTH + n * ENTRY_LENGTH);
    }

    /** The side of a level entry. */
    public static Side side(DirectBuffer buffer, int offset, int n) {
        return Side.fromOrdinal(buffer.getByte(offset + HEADER_LENGTH + n * ENTRY_LENGTH + 1));
    }

    public static int symbolId(DirectBuffer buffer, int offset, int n) {
        return buffer.getInt(offset + HEADER_LENGTH + n * ENTRY_LENGTH + 2, ORDER);
    }

    public static long price(DirectBuffer buffer, int offset, int n) {
        return buffer.getLong(offset + HEADER_LENGTH + n * ENTRY_LENGTH + 6, ORDER);
    }

    public static long quantity(DirectBuffer buffer, int offset, int n) {
        return buffer.getLong(offset + HEADER_LENGTH + n * ENTRY_LENGTH + 14, ORDER);
    }
}
