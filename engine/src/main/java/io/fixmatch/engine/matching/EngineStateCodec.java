package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's own state format, for snapshots: everything a fresh {@link MatchingEngine} needs to continue exactly
 * where the snapshotted one was, with explicit codes (never enum ordinals, which change when constants are added or
 * reordered). The snapshot file's owner (the journal module) frames it: magic, journal index, symbol and session
 * tables, checksum. Big-endian, as {@link DataOutput} writes:
 * <pre>
 *   u8 state format version (3; 1 is still read: it ends after the inbound positions; 2: after the symbol prices)
 *   i64 last order id   i64 last exec id
 *   i32 order count, then per resting order, in priority order (symbol, side, price level, time):
 *     i32 symbol id, u8 side ('1' buy, '2' sell: the FIX codes), u8 time in force ('0' day, '1' GTC),
 *     i64 order id, i32 owner, u8 ClOrdID length, ClOrdID bytes, i64 price, i64 order qty, i64 leaves, i64 cum,
 *     i64 cum notional
 *   i32 owner count, then per owner: i32 owner, i64 inbound position of its last journaled command
 *   version 2:
 *   i32 setting count, then per non-zero session setting: i32 owner, u8 {@link SessionControl#code()} (risk limits,
 *     firm, self-trade prevention mode, 8 = kill switch engaged), i64 value
 *   i32 symbol count, then per symbol: i64 last trade price, i64 reference price (0: none)
 *   version 3:
 *   i64 journal timestamp (epoch ns) of the last journaled command, i64 that of the last EXPIRE_DAY_ORDERS (0: none)
 * </pre>
 * Open order counts are not written: they are the resting orders.
 */
public final class EngineStateCodec {
    private static final int VERSION = 3;
    private static final int VERSION_2 = 2;
    private static final int VERSION_1 = 1;

    private EngineStateCodec() {
    }

    /** Writes the engine's state; the engine must not be processing a command meanwhile. */
    public static void write(MatchingEngine engine, DataOutput out) throws IOException {
        out.writeByte(VERSION);
        out.writeLong(engine.lastOrderId());
        out.writeLong(engine.lastExecId());
        List<RestingOrderView> orders = new ArrayList<>(engine.liveOrderCount());
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            engine.forEachRestingOrder(symbol, Side.BUY, orders::add);
            engine.forEachRestingOrder(symbol, Side.SELL, orders::add);
        }
        out.writeInt(orders.size());
        for (RestingOrderView order : orders) {
            out.writeInt(order.symbolId());
            out.writeByte(sideCode(order.side()));
            out.writeByte(timeInForceCode(order.timeInForce()));
            out.writeLong(order.orderId());
            out.writeInt(order.owner());
            ClientOrderId id = order.clientOrderId();
            out.writeByte(id.length());
            for (int i = 0; i < id.length(); i++) {
                out.writeByte(id.byteAt(i));
            }
            out.writeLong(order.price());
            out.writeLong(order.orderQuantity());
            out.writeLong(order.leavesQuantity());
            out.writeLong(order.cumQuantity());
            out.writeLong(order.cumNotional());
        }
        int[] owners = {0};
        engine.forEachInboundPosition((owner, position) -> owners[0]++);
        out.writeInt(owners[0]);
        IOException[] failure = {null};
        engine.forEachInboundPosition((owner, position) -> {
            try {
                out.writeInt(owner);
                out.writeLong(position);
            } catch (IOException e) {
                failure[0] = e;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
        writeSessionControls(engine, out);
        out.writeInt(engine.symbolCount());
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            out.writeLong(engine.lastTradePrice(symbol));
            out.writeLong(engine.referencePrice(symbol));
        }
        out.writeLong(engine.lastCommandNanos());
        out.writeLong(engine.lastDayEndNanos());
    }

    private static void writeSessionControls(MatchingEngine engine, DataOutput out) throws IOException {
        List<long[]> settings = new ArrayList<>();
        engine.forEachSessionControl((owner, control, value) -> settings.add(new long[] {owner, control.code(),
            value}));
        out.writeInt(settings.size());
        for (long[] setting : settings) {
            out.writeInt((int) setting[0]);
            out.writeByte((int) setting[1]);
            out.writeLong(setting[2]);
        }
    }

    /**
     * Puts the state into a fresh engine. Throws {@link IOException} for a format it does not know or a code it does
     * not know, {@link IllegalStateException} for orders the engine cannot hold.
     */
    public static void read(DataInput in, MatchingEngine engine) throws IOException {
        int version = in.readUnsignedByte();
        if (version < VERSION_1 || version > VERSION) {
            throw new IOException("engine state format version " + version + "; this release reads " + VERSION_1
                + " to " + VERSION);
        }
        long lastOrderId = in.readLong();
        long lastExecId = in.readLong();
        int orders = in.readInt();
        ClientOrderId id = new ClientOrderId();
        byte[] idBytes = new byte[ClientOrderId.MAX_LENGTH];
        for (int i = 0; i < orders; i++) {
            int symbol = in.readInt();
            Side side = side(in.readUnsignedByte());
            TimeInForce timeInForce = timeInForce(in.readUnsignedByte());
            long orderId = in.readLong();
            int owner = in.readInt();
            int idLength = in.readUnsignedByte();
            if (idLength > ClientOrderId.MAX_LENGTH) {
                throw new IOException("a ClOrdID of " + idLength + " bytes");
            }
            in.readFully(idBytes, 0, idLength);
            id.copyFrom(idBytes, 0, idLength);
            engine.restoreRestingOrder(symbol, side, orderId, owner, id, timeInForce, in.readLong(), in.readLong(),
                in.readLong(), in.readLong(), in.readLong());
        }
        int owners = in.readInt();
        for (int i = 0; i < owners; i++) {
            engine.restoreInboundPosition(in.readInt(), in.readLong());
        }
        if (version >= VERSION_2) {
            readSessionControls(in, engine);
        }
        if (version >= VERSION) {
            engine.restoreJournalTimes(in.readLong(), in.readLong());
        }
        engine.finishRestore(lastOrderId, lastExecId);
    }

    private static void readSessionControls(DataInput in, MatchingEngine engine) throws IOException {
        int settings = in.readInt();
        for (int i = 0; i < settings; i++) {
            int owner = in.readInt();
            int code = in.readUnsignedByte();
            long value = in.readLong();
            SessionControl control = SessionControl.ofCode(code);
            if (control == null) {
                throw new IOException("unknown session setting code " + code);
            }
            engine.restoreSessionControl(owner, control, value);
        }
        int symbols = in.readInt();
        if (symbols != engine.symbolCount()) {
            throw new IOException("prices of " + symbols + " symbols for an engine of " + engine.symbolCount());
        }
        for (int symbol = 0; symbol < symbols; symbol++) {
            engine.restoreSymbolPrices(symbol, in.readLong(), in.readLong());
        }
    }

    private static int sideCode(Side side) {
        return side == Side.BUY ? '1' : '2';
    }

    private static Side side(int code) throws IOException {
        return switch (code) {
            case '1' -> Side.BUY;
            case '2' -> Side.SELL;
            default -> throw new IOException("unknown side code " + code);
        };
    }

    private static int timeInForceCode(TimeInForce timeInForce) {
        return switch (timeInForce) {
            case DAY -> '0';
            case GTC -> '1';
            case IOC, FOK -> throw new IllegalStateException("an " + timeInForce + " order never rests");
        };
    }

    private static TimeInForce timeInForce(int code) throws IOException {
        return switch (code) {
            case '0' -> TimeInForce.DAY;
            case '1' -> TimeInForce.GTC;
            default -> throw new IOException("unknown time-in-force code " + code);
        };
    }
}
