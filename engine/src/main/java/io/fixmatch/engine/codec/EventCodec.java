package io.fixmatch.engine.codec;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The binary form of an {@link ExecutionEvent}, as it travels through the outbound ring. Little-endian:
 *
 * <pre>
 *  0 u8 event type   4 u8 status         8 i64 timestamp  24 i64 order id   48 i64 order qty  72 i64 leaves
 *  1 u8 side         5 u8 reject reason 16 i32 owner      32 i64 exec id    56 i64 last qty   80 i64 cum
 *  2 u8 order type   6 u8 clOrdId len   20 i32 symbol id  40 i64 price      64 i64 last px    88 i64 notional
 *  3 u8 time in force 7 u8 origClOrdId len
 * 96 i64 journal position   104 i32 ordinal   108 u8 flags (bit 0: attributes follow the ids)   109 reserved (0)
 * 112 i64 answered inbound position
 * 120 i64 risk value   128 i64 risk low   136 i64 risk high (pre-trade risk rejects: what the Text names)
 * 144 clOrdId, then origClOrdId, then, if flagged, the attributes: i64 stop price, i64 expire time (epoch ns),
 *     i64 report count (mass status answers)
 * </pre>
 * An absent enum value is written as 255. An event without attributes is encoded exactly as before they existed (the
 * flags were a reserved 0), so the records kept in a cluster's snapshot by an earlier build read unchanged.
 */
public final class EventCodec {
    public static final int HEADER_LENGTH = 144;
    public static final int ATTRIBUTES_LENGTH = 3 * Long.BYTES;
    public static final int MAX_LENGTH = HEADER_LENGTH + 2 * ClientOrderId.MAX_LENGTH + ATTRIBUTES_LENGTH;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int ABSENT = 0xFF;
    private static final int HAS_ATTRIBUTES = 1;

    private EventCodec() {
    }

    /** The number of bytes {@link #encode} writes for this event. */
    public static int encodedLength(ExecutionEvent event) {
        return HEADER_LENGTH + event.clientOrderId().length() + event.origClientOrderId().length()
            + (hasAttributes(event) ? ATTRIBUTES_LENGTH : 0);
    }

    /** Writes the event at {@code offset}; returns the encoded length. */
    public static int encode(ExecutionEvent event, MutableDirectBuffer buffer, int offset) {
        buffer.putByte(offset, ordinal(event.type()));
        buffer.putByte(offset + 1, ordinal(event.side()));
        buffer.putByte(offset + 2, ordinal(event.orderType()));
        buffer.putByte(offset + 3, ordinal(event.timeInForce()));
        buffer.putByte(offset + 4, ordinal(event.status()));
        buffer.putByte(offset + 5, ordinal(event.rejectReason()));
        buffer.putByte(offset + 6, (byte) event.clientOrderId().length());
        buffer.putByte(offset + 7, (byte) event.origClientOrderId().length());
        buffer.putLong(offset + 8, event.timestampNanos(), ORDER);
        buffer.putInt(offset + 16, event.owner(), ORDER);
        buffer.putInt(offset + 20, event.symbolId(), ORDER);
        buffer.putLong(offset + 24, event.orderId(), ORDER);
        buffer.putLong(offset + 32, event.execId(), ORDER);
        buffer.putLong(offset + 40, event.price(), ORDER);
        buffer.putLong(offset + 48, event.orderQuantity(), ORDER);
        buffer.putLong(offset + 56, event.lastQuantity(), ORDER);
        buffer.putLong(offset + 64, event.lastPrice(), ORDER);
        buffer.putLong(offset + 72, event.leavesQuantity(), ORDER);
        buffer.putLong(offset + 80, event.cumQuantity(), ORDER);
        buffer.putLong(offset + 88, event.cumNotional(), ORDER);
        buffer.putLong(offset + 96, event.journalPosition(), ORDER);
        buffer.putInt(offset + 104, event.ordinal(), ORDER);
        boolean attributes = hasAttributes(event);
        buffer.putInt(offset + 108, attributes ? HAS_ATTRIBUTES : 0, ORDER);
        buffer.putLong(offset + 112, event.answeredInbound(), ORDER);
        buffer.putLong(offset + 120, event.riskValue(), ORDER);
        buffer.putLong(offset + 128, event.riskLow(), ORDER);
        buffer.putLong(offset + 136, event.riskHigh(), ORDER);
        int position = offset + HEADER_LENGTH;
        position += event.clientOrderId().writeTo(buffer, position);
        position += event.origClientOrderId().writeTo(buffer, position);
        if (attributes) {
            buffer.putLong(position, event.stopPrice(), ORDER);
            buffer.putLong(position + 8, event.expireTimeNanos(), ORDER);
            buffer.putLong(position + 16, event.reportCount(), ORDER);
            position += ATTRIBUTES_LENGTH;
        }
        return position - offset;
    }

    /** The owner of an encoded event, read without decoding the rest. */
    public static int owner(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + 16, ORDER);
    }

    /** The inbound position of the request an encoded event answers (0: none), read without decoding the rest. */
    public static long answeredInbound(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + 112, ORDER);
    }

    /** Reads an event written by {@link #encode} into {@code event}. */
    public static void decode(DirectBuffer buffer, int offset, ExecutionEvent event) {
        int type = unsigned(buffer, offset);
        event.begin(EventType.fromOrdinal(type), buffer.getLong(offset + 8, ORDER), buffer.getInt(offset + 16, ORDER))
            .ids(buffer.getLong(offset + 24, ORDER), buffer.getLong(offset + 32, ORDER))
            .order(buffer.getInt(offset + 20, ORDER), side(unsigned(buffer, offset + 1)),
                orderType(unsigned(buffer, offset + 2)), timeInForce(unsigned(buffer, offset + 3)),
                buffer.getLong(offset + 40, ORDER), buffer.getLong(offset + 48, ORDER))
            .lastFill(buffer.getLong(offset + 56, ORDER), buffer.getLong(offset + 64, ORDER))
            .quantities(buffer.getLong(offset + 72, ORDER), buffer.getLong(offset + 80, ORDER),
                buffer.getLong(offset + 88, ORDER))
            .status(status(unsigned(buffer, offset + 4)))
            .rejectReason(RejectReason.fromOrdinal(unsigned(buffer, offset + 5)))
            .origin(buffer.getLong(offset + 96, ORDER), buffer.getInt(offset + 104, ORDER))
            .answeredInbound(buffer.getLong(offset + 112, ORDER))
            .risk(buffer.getLong(offset + 120, ORDER), buffer.getLong(offset + 128, ORDER),
                buffer.getLong(offset + 136, ORDER));
        int idLength = unsigned(buffer, offset + 6);
        int origIdLength = unsigned(buffer, offset + 7);
        event.clientOrderId().readFrom(buffer, offset + HEADER_LENGTH, idLength);
        event.origClientOrderId().readFrom(buffer, offset + HEADER_LENGTH + idLength, origIdLength);
        if ((buffer.getByte(offset + 108) & HAS_ATTRIBUTES) != 0) {
            int at = offset + HEADER_LENGTH + idLength + origIdLength;
            event.attributes(buffer.getLong(at, ORDER), buffer.getLong(at + 8, ORDER))
                .reportCount(buffer.getLong(at + 16, ORDER));
        }
    }

    private static boolean hasAttributes(ExecutionEvent event) {
        return event.stopPrice() != 0 || event.expireTimeNanos() != 0 || event.reportCount() != 0;
    }

    private static byte ordinal(Enum<?> value) {
        return (byte) (value == null ? ABSENT : value.ordinal());
    }

    private static int unsigned(DirectBuffer buffer, int index) {
        return buffer.getByte(index) & 0xFF;
    }

    private static Side side(int ordinal) {
        return ordinal == ABSENT ? null : Side.fromOrdinal(ordinal);
    }

    private static OrderType orderType(int ordinal) {
        return ordinal == ABSENT ? null : OrderType.fromOrdinal(ordinal);
    }

    private static TimeInForce timeInForce(int ordinal) {
        return ordinal == ABSENT ? null : TimeInForce.fromOrdinal(ordinal);
    }

    private static OrderStatus status(int ordinal) {
        return ordinal == ABSENT ? null : OrderStatus.fromOrdinal(ordinal);
    }
}
