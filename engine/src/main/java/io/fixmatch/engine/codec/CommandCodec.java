package io.fixmatch.engine.codec;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The binary form of a {@link Command}: how commands travel through the inbound ring and how the journal stores
 * them. Little-endian, fixed header then the two client order ids:
 *
 * <pre>
 *  0 u8  command type      5 u8  clOrdId length       8 i64 timestamp (epoch ns)   24 i64 price
 *  1 u8  side              6 u8  origClOrdId length  16 i32 owner                  32 i64 quantity
 *  2 u8  order type        7 u8  reserved (0)        20 i32 symbol id              40 clOrdId, then origClOrdId
 *  3 u8  time in force                                                             40 i64 inbound position
 *  4 u8  flags: bit 0 possible resend (version 1: reserved, 0)                      48 clOrdId, then origClOrdId
 *              bit 1 the order attributes follow the ids, bit 2 post-only
 * </pre>
 * The order attributes (stop price, MaxFloor, MinQty, GTD expire time), when the command has any
 * ({@link Command#hasAttributes()}), follow the ids as {@value #ATTRIBUTES_LENGTH} bytes: i64 stop price, i64 max
 * floor, i64 min quantity, i64 expire time (epoch ns). A command without them is encoded exactly as before they
 * existed, so the journals written earlier read unchanged and the plain order costs nothing more.
 * The command type is the {@link CommandType} ordinal: 0 NEW_ORDER, 1 CANCEL, 2 REPLACE, 3 ORDER_STATUS,
 * 4 CANCEL_ALL_FOR_OWNER, 5 HALT_SYMBOL, 6 RESUME_SYMBOL, 7 BOOK_QUERY (never journaled). New types are appended, so
 * journals written before them read unchanged; a release that does not know a type refuses the record as damaged.
 * The inbound position (the owner's session epoch and MsgSeqNum, see {@link Command}) was added in journal format
 * version 2; {@link #decodeVersion1} reads the version 1 layout (no position, ids at 40).
 * Changing this layout changes the journal format: bump {@code JournalFormat.VERSION} in the journal module.
 */
public final class CommandCodec {
    public static final int HEADER_LENGTH = 48;
    private static final int VERSION_1_HEADER_LENGTH = 40;
    public static final int ATTRIBUTES_LENGTH = 4 * Long.BYTES;
    public static final int MAX_LENGTH = HEADER_LENGTH + 2 * ClientOrderId.MAX_LENGTH + ATTRIBUTES_LENGTH;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int TYPE = 0;
    private static final int SIDE = 1;
    private static final int ORDER_TYPE = 2;
    private static final int TIME_IN_FORCE = 3;
    private static final int CLORDID_LENGTH = 5;
    private static final int ORIG_CLORDID_LENGTH = 6;
    private static final int TIMESTAMP = 8;
    private static final int OWNER = 16;
    private static final int SYMBOL = 20;
    private static final int PRICE = 24;
    private static final int QUANTITY = 32;
    private static final int INBOUND_POSITION = 40;
    private static final int FLAGS = 4;
    private static final int POSSIBLE_RESEND = 1;
    private static final int HAS_ATTRIBUTES = 2;
    private static final int POST_ONLY = 4;

    private CommandCodec() {
    }

    /** The number of bytes {@link #encode} writes for this command. */
    public static int encodedLength(Command command) {
        return HEADER_LENGTH + command.clientOrderId().length() + command.origClientOrderId().length()
            + (command.hasAttributes() ? ATTRIBUTES_LENGTH : 0);
    }

    /** Writes the command at {@code offset}; returns the encoded length. */
    public static int encode(Command command, MutableDirectBuffer buffer, int offset) {
        buffer.putByte(offset + TYPE, (byte) command.type().ordinal());
        buffer.putByte(offset + SIDE, (byte) command.side().ordinal());
        buffer.putByte(offset + ORDER_TYPE, (byte) command.orderType().ordinal());
        buffer.putByte(offset + TIME_IN_FORCE, (byte) command.timeInForce().ordinal());
        boolean attributes = command.hasAttributes();
        buffer.putByte(offset + FLAGS, (byte) ((command.possibleResend() ? POSSIBLE_RESEND : 0)
            | (attributes ? HAS_ATTRIBUTES : 0) | (command.postOnly() ? POST_ONLY : 0)));
        buffer.putByte(offset + CLORDID_LENGTH, (byte) command.clientOrderId().length());
        buffer.putByte(offset + ORIG_CLORDID_LENGTH, (byte) command.origClientOrderId().length());
        buffer.putByte(offset + 7, (byte) 0);
        buffer.putLong(offset + TIMESTAMP, command.timestampNanos(), ORDER);
        buffer.putInt(offset + OWNER, command.owner(), ORDER);
        buffer.putInt(offset + SYMBOL, command.symbolId(), ORDER);
        buffer.putLong(offset + PRICE, command.price(), ORDER);
        buffer.putLong(offset + QUANTITY, command.quantity(), ORDER);
        buffer.putLong(offset + INBOUND_POSITION, command.inboundPosition(), ORDER);
        int position = offset + HEADER_LENGTH;
        position += command.clientOrderId().writeTo(buffer, position);
        position += command.origClientOrderId().writeTo(buffer, position);
        if (attributes) {
            buffer.putLong(position, command.stopPrice(), ORDER);
            buffer.putLong(position + 8, command.maxFloor(), ORDER);
            buffer.putLong(position + 16, command.minQuantity(), ORDER);
            buffer.putLong(position + 24, command.expireTimeNanos(), ORDER);
            position += ATTRIBUTES_LENGTH;
        }
        return position - offset;
    }

    /**
     * Reads a command written by {@link #encode}. Returns false, leaving {@code command} in an unspecified state,
     * when the bytes are not a well-formed command (a damaged journal entry, say).
     */
    public static boolean decode(DirectBuffer buffer, int offset, int length, Command command) {
        if (!decode(buffer, offset, length, command, HEADER_LENGTH)) {
            return false;
        }
        command.inboundPosition(buffer.getLong(offset + INBOUND_POSITION, ORDER)).journalPosition(0);
        return true;
    }

    /** Reads a command of journal format version 1 (no inbound position: it reads as 0). */
    public static boolean decodeVersion1(DirectBuffer buffer, int offset, int length, Command command) {
        if (!decode(buffer, offset, length, command, VERSION_1_HEADER_LENGTH)) {
            return false;
        }
        command.inboundPosition(0).journalPosition(0);
        return true;
    }

    private static boolean decode(DirectBuffer buffer, int offset, int length, Command command, int headerLength) {
        if (length < headerLength) {
            return false;
        }
        int type = buffer.getByte(offset + TYPE);
        int side = buffer.getByte(offset + SIDE);
        int orderType = buffer.getByte(offset + ORDER_TYPE);
        int timeInForce = buffer.getByte(offset + TIME_IN_FORCE);
        int idLength = buffer.getByte(offset + CLORDID_LENGTH);
        int origIdLength = buffer.getByte(offset + ORIG_CLORDID_LENGTH);
        int flags = buffer.getByte(offset + FLAGS);
        int attributesLength = (flags & HAS_ATTRIBUTES) != 0 ? ATTRIBUTES_LENGTH : 0;
        if (!inRange(type, CommandType.count()) || !inRange(side, Side.count())
            || !inRange(orderType, OrderType.count())
            || !inRange(timeInForce, TimeInForce.count())
            || !inRange(idLength, ClientOrderId.MAX_LENGTH + 1) || !inRange(origIdLength, ClientOrderId.MAX_LENGTH + 1)
            || length != headerLength + idLength + origIdLength + attributesLength) {
            return false;
        }
        command.type(CommandType.fromOrdinal(type))
            .side(Side.fromOrdinal(side))
            .orderType(OrderType.fromOrdinal(orderType))
            .timeInForce(TimeInForce.fromOrdinal(timeInForce))
            .timestampNanos(buffer.getLong(offset + TIMESTAMP, ORDER))
            .owner(buffer.getInt(offset + OWNER, ORDER))
            .symbolId(buffer.getInt(offset + SYMBOL, ORDER))
            .price(buffer.getLong(offset + PRICE, ORDER))
            .quantity(buffer.getLong(offset + QUANTITY, ORDER))
            .possibleResend((flags & POSSIBLE_RESEND) != 0)
            .postOnly((flags & POST_ONLY) != 0);
        command.clientOrderId().readFrom(buffer, offset + headerLength, idLength);
        command.origClientOrderId().readFrom(buffer, offset + headerLength + idLength, origIdLength);
        int attributes = offset + headerLength + idLength + origIdLength;
        if (attributesLength == 0) {
            command.stopPrice(0).maxFloor(0).minQuantity(0).expireTimeNanos(0);
        } else {
            command.stopPrice(buffer.getLong(attributes, ORDER))
                .maxFloor(buffer.getLong(attributes + 8, ORDER))
                .minQuantity(buffer.getLong(attributes + 16, ORDER))
                .expireTimeNanos(buffer.getLong(attributes + 24, ORDER));
        }
        return true;
    }

    /** Sets the timestamp of an encoded command in place: the matching loop stamps commands as it takes them. */
    public static void putTimestamp(MutableDirectBuffer buffer, int offset, long timestampNanos) {
        buffer.putLong(offset + TIMESTAMP, timestampNanos, ORDER);
    }

    public static CommandType type(DirectBuffer buffer, int offset) {
        return CommandType.fromOrdinal(buffer.getByte(offset + TYPE));
    }

    private static boolean inRange(int value, int limit) {
        return value >= 0 && value < limit;
    }
}
