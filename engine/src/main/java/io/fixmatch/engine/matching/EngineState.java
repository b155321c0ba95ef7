package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.MarketDataSink;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.io.DirectBufferInputStream;
import org.agrona.io.DirectBufferOutputStream;
import org.agrona.io.ExpandableDirectBufferOutputStream;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The one door in and out of a {@link MatchingEngine}'s state: everything a freshly constructed engine needs to
 * continue exactly where the written one was, and the format it travels in. Every snapshot mechanism (the journal's
 * snapshot files, a replicated service's snapshots) writes and reads the engine through this class, onto a stream
 * ({@link DataOutput}, {@link DataInput}) or a buffer (Agrona's {@link MutableDirectBuffer} and {@link DirectBuffer},
 * which also wrap a {@code byte[]} or a {@code ByteBuffer}). It reaches the engine's parts through package-private
 * access, so the engine itself only matches and answers queries.
 *
 * <p>Explicit codes, never enum ordinals (which change when constants are added or reordered). Big-endian, as
 * {@link DataOutput} writes:
 * <pre>
 *   u16 halted symbol count, then each halted symbol's id as u16
 *   u8 state format version (6; 1 is still read: it ends after the inbound positions; 2: after the symbol prices;
 *     3: after the journal times, and its orders have no attributes; 4: after the waiting stops; 5: after the queued
 *     orders)
 *   i64 last order id   i64 last exec id
 *   i32 order count, then per resting order, in priority order (symbol, side, price level, time):
 *     i32 symbol id, u8 side ('1' buy, '2' sell: the FIX codes), u8 time in force ('0' day, '1' GTC, '6' GTD),
 *     i64 order id, i32 owner, u8 ClOrdID length, ClOrdID bytes, i64 price, i64 order qty, i64 leaves, i64 cum,
 *     i64 cum notional, then (version 4) its attributes: u8 order type (FIX OrdType: '2' limit, '3' stop, '4'
 *     stop-limit; a resting stop-limit order was triggered), u8 flags (bit 0 post-only), i64 stop price, i64 max
 *     floor, i64 displayed quantity (an iceberg's current displayed part), i64 expire time (GTD, epoch ns)
 *   i32 owner count, then per owner: i32 owner, i64 inbound position of its last journaled command
 *   version 2:
 *   i32 setting count, then per non-zero session setting: i32 owner, u8 {@link SessionControl#code()} (risk limits,
 *     firm, self-trade prevention mode, 8 = kill switch engaged), i64 value
 *   i32 symbol count, then per symbol: i64 last trade price, i64 reference price (0: none)
 *   version 3:
 *   i64 journal timestamp (epoch ns) of the last journaled command, i64 that of the last EXPIRE_DAY_ORDERS (0: none)
 *   version 4:
 *   i32 waiting stop count, then per stop and stop-limit order waiting for its stop price, per symbol buy stops then
 *     sell stops in trigger order: the same record as a resting order (displayed quantity 0)
 *   version 5 (time in force codes '2' At the Opening and '7' At the Close, order type '1' market for queued orders):
 *   i32 symbol count, then per symbol its trading session: u8 phase code, i64 next scheduled point (epoch ns;
 *     Long.MAX_VALUE: none), u8 its kind (0 opening call, 1 opening uncross, 2 closing call, 3 closing uncross),
 *     i64 end of the running interruption (Long.MAX_VALUE: none), i64 x 4 the opening call, opening uncross, closing
 *     call and closing uncross times (ms of the day; -1: none), i64 random end (ms), i64 volatility band (basis
 *     points), i64 interruption length (ms), u8 time zone id length, the id (ASCII)
 *   i32 queued order count, then per order waiting out of the levels: u8 queue (1 a call's market buys, 2 its market
 *     sells, 3 At the Close orders waiting for the closing call), the order record (queues in order)
 *   version 6:
 *   i64 the number of the last market data message (the binary feed's sequence number, docs/FEED.md)
 * </pre>
 * The halted symbols come before the version byte because the journal's snapshot files (format 2) always had them
 * there, in their own frame, just before the rest: the files written before this class read unchanged. Open order
 * counts are not written: they are the resting orders. The symbol table is not written either: whoever frames the
 * state makes sure the reading engine has the same symbols (the journal's snapshot files carry the table).
 *
 * <p>Writing and reading allocate; never on the hot path. The engine must not be processing a command meanwhile.
 */
public final class EngineState {
    private static final int VERSION = 6;
    private static final int VERSION_5 = 5;
    private static final int VERSION_4 = 4;
    private static final int VERSION_3 = 3;
    private static final int VERSION_2 = 2;
    private static final int VERSION_1 = 1;
    private static final int POST_ONLY = 1;
    private static final int MARKET_BUYS = 1;
    private static final int MARKET_SELLS = 2;
    private static final int AT_CLOSE = 3;

    private EngineState() {
    }

    /**
     * Writes the engine's state into the buffer at {@code offset}; returns the number of bytes written. An expandable
     * buffer grows as needed; a fixed one too small throws {@link IllegalStateException} (Agrona's).
     */
    public static int write(MatchingEngine engine, MutableDirectBuffer buffer, int offset) {
        DataOutputStream out = new DataOutputStream(buffer.isExpandable()
            ? new ExpandableDirectBufferOutputStream(buffer, offset)
            : new DirectBufferOutputStream(buffer, offset, buffer.capacity() - offset));
        try {
            write(engine, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a buffer throws no IOException
        }
        return out.size();
    }

    /**
     * Puts the state written by {@link #write(MatchingEngine, MutableDirectBuffer, int)} (the {@code length} bytes at
     * {@code offset}) into a freshly constructed engine with the same symbols. Throws {@link IOException} for a format
     * or a code it does not know or for state cut short, {@link IllegalStateException} for orders the engine cannot
     * hold.
     */
    public static void read(MatchingEngine engine, DirectBuffer buffer, int offset, int length) throws IOException {
        read(engine, new DataInputStream(new DirectBufferInputStream(buffer, offset, length)));
    }

    /** Writes the engine's state onto the stream. */
    public static void write(MatchingEngine engine, DataOutput out) throws IOException {
        writeHalts(engine, out);
        out.writeByte(VERSION);
        out.writeLong(engine.lastOrderId());
        out.writeLong(engine.lastExecId());
        List<RestingOrderView> orders = new ArrayList<>(engine.liveOrderCount());
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            engine.forEachRestingOrder(symbol, Side.BUY, orders::add);
            engine.forEachRestingOrder(symbol, Side.SELL, orders::add);
        }
        writeOrders(out, orders);
        writeInboundPositions(engine, out);
        writeSessionControls(engine, out);
        out.writeInt(engine.symbolCount());
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            out.writeLong(engine.lastTradePrice(symbol));
            out.writeLong(engine.referencePrice(symbol));
        }
        out.writeLong(engine.lastCommandNanos());
        out.writeLong(engine.lastDayEndNanos());
        List<RestingOrderView> stops = new ArrayList<>();
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            engine.forEachWaitingStop(symbol, Side.BUY, stops::add);
            engine.forEachWaitingStop(symbol, Side.SELL, stops::add);
        }
        writeOrders(out, stops);
        writeSessions(engine, out);
        List<RestingOrderView> queued = new ArrayList<>();
        List<Integer> queues = new ArrayList<>();
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            OrderBook book = engine.bookOf(symbol);
            for (OrderQueue queue : new OrderQueue[] {book.marketBuys, book.marketSells, book.atClose}) {
                int code = queue == book.marketBuys ? MARKET_BUYS : queue == book.marketSells ? MARKET_SELLS : AT_CLOSE;
                for (Order order = queue.head; order != null; order = order.next) {
                    queued.add(order);
                    queues.add(code);
                }
            }
        }
        out.writeInt(queued.size());
        for (int i = 0; i < queued.size(); i++) {
            out.writeByte(queues.get(i));
            writeOrders(out, List.of(queued.get(i)), false);
        }
        out.writeLong(engine.marketDataSequence());
    }

    /** Version 5: each symbol's trading session (phase, deadlines, schedule, volatility settings, time zone). */
    private static void writeSessions(MatchingEngine engine, DataOutput out) throws IOException {
        out.writeInt(engine.symbolCount());
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            TradingSession session = engine.bookOf(symbol).session;
            out.writeByte(session.phase.code());
            out.writeLong(session.nextPoint);
            out.writeByte(session.nextPointKind);
            out.writeLong(session.interruptionEnd);
            for (long time : session.times) {
                out.writeLong(time);
            }
            out.writeLong(session.randomEndMillis);
            out.writeLong(session.bandBasisPoints);
            out.writeLong(session.interruptionMillis);
            byte[] zone = session.zoneId.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            out.writeByte(zone.length);
            out.write(zone);
        }
    }

    private static void readSessions(MatchingEngine engine, DataInput in) throws IOException {
        int symbols = in.readInt();
        if (symbols != engine.symbolCount()) {
            throw new IOException("trading sessions of " + symbols + " symbols for an engine of "
                + engine.symbolCount());
        }
        for (int symbol = 0; symbol < symbols; symbol++) {
            TradingSession session = engine.bookOf(symbol).session;
            int phaseCode = in.readUnsignedByte();
            io.fixmatch.engine.api.TradingPhase phase = io.fixmatch.engine.api.TradingPhase.ofCode(phaseCode);
            if (phase == null) {
                throw new IOException("unknown trading phase code " + phaseCode);
            }
            session.phase = phase;
            session.nextPoint = in.readLong();
            session.nextPointKind = in.readUnsignedByte();
            session.interruptionEnd = in.readLong();
            for (int i = 0; i < session.times.length; i++) {
                session.times[i] = in.readLong();
            }
            session.randomEndMillis = in.readLong();
            session.bandBasisPoints = in.readLong();
            session.interruptionMillis = in.readLong();
            byte[] zone = new byte[in.readUnsignedByte()];
            in.readFully(zone);
            String zoneId = new String(zone, java.nio.charset.StandardCharsets.US_ASCII);
            if (!session.zone(zoneId) && !zoneId.equals(session.zoneId)) {
                throw new IOException("unknown time zone " + zoneId);
            }
        }
    }

    /** Version 5: the orders waiting in a book's queues (a call's market orders, At the Close orders), in order. */
    private static void readQueuedOrders(MatchingEngine engine, DataInput in, List<Order> orders) throws IOException {
        int count = in.readInt();
        for (int i = 0; i < count; i++) {
            int queue = in.readUnsignedByte();
            List<Order> one = new ArrayList<>(1);
            readOrder(engine, in, true, one);
            Order order = one.get(0);
            OrderBook book = order.book;
            OrderQueue target = switch (queue) {
                case MARKET_BUYS -> book.marketBuys;
                case MARKET_SELLS -> book.marketSells;
                case AT_CLOSE -> book.atClose;
                default -> throw new IOException("unknown order queue code " + queue);
            };
            boolean valid = order.shown == 0 && (queue == AT_CLOSE
                ? order.timeInForce == TimeInForce.AT_THE_CLOSE && !order.orderType.isStop()
                : !order.orderType.hasLimitPrice() && (order.side == Side.BUY) == (queue == MARKET_BUYS));
            if (!valid) {
                throw new IllegalStateException("not a restorable queued order: " + order);
            }
            order.triggered = order.orderType.isStop(); // a stop in a call's market orders was triggered
            target.add(order);
            index(engine, order);
            orders.add(order);
        }
    }

    /** After a restore: the books in a call counted, phases and indicative prices published, the next deadline. */
    private static void finishSessions(MatchingEngine engine) {
        engine.phases.callBooks = 0;
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            TradingSession session = engine.bookOf(symbol).session;
            if (session.phase.isCall()) {
                engine.phases.callBooks++;
            }
            engine.view().phase(symbol, session.phase);
        }
        engine.phases.refreshSessionDeadline();
        engine.auction.refreshIndicatives();
    }

    private static void writeOrders(DataOutput out, List<RestingOrderView> orders) throws IOException {
        writeOrders(out, orders, true);
    }

    private static void writeOrders(DataOutput out, List<RestingOrderView> orders, boolean counted)
        throws IOException {
        if (counted) {
            out.writeInt(orders.size());
        }
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
            out.writeByte(orderTypeCode(order.orderType()));
            out.writeByte(order.postOnly() ? POST_ONLY : 0);
            out.writeLong(order.stopPrice());
            out.writeLong(order.maxFloor());
            out.writeLong(order.displayedQuantity());
            out.writeLong(order.expireTimeNanos());
        }
    }

    /**
     * Puts the state written by {@link #write(MatchingEngine, DataOutput)} into a freshly constructed engine with the
     * same symbols; same failures as {@link #read(MatchingEngine, DirectBuffer, int, int)}.
     */
    public static void read(MatchingEngine engine, DataInput in) throws IOException {
        // Putting state back is not a change of the market: what the restore makes the engine tell (halts, calls'
        // indicative uncrosses) is not published, so the market data's numbering is what it was when written.
        MarketDataSink marketData = engine.live.marketData;
        engine.live.marketData = MarketDataSink.NONE;
        try {
            readState(engine, in);
        } finally {
            engine.live.marketData = marketData;
        }
    }

    private static void readState(MatchingEngine engine, DataInput in) throws IOException {
        readHalts(engine, in);
        int version = in.readUnsignedByte();
        if (version < VERSION_1 || version > VERSION) {
            throw new IOException("engine state format version " + version + "; this release reads " + VERSION_1
                + " to " + VERSION);
        }
        long lastOrderId = in.readLong();
        long lastExecId = in.readLong();
        List<Order> orders = new ArrayList<>();
        readOrders(engine, in, version >= VERSION_4, false, orders);
        int owners = in.readInt();
        for (int i = 0; i < owners; i++) {
            engine.inboundPositions.record(in.readInt(), in.readLong());
        }
        if (version >= VERSION_2) {
            readSessionControls(engine, in);
            readSymbolPrices(engine, in);
        }
        if (version >= VERSION_3) {
            engine.lastCommandNanos = in.readLong();
            engine.lastDayEndNanos = in.readLong();
        }
        if (version >= VERSION_4) {
            readOrders(engine, in, true, true, orders);
        }
        if (version >= VERSION_5) {
            readSessions(engine, in);
            readQueuedOrders(engine, in, orders);
        }
        if (version >= VERSION) {
            engine.marketDataSequence = in.readLong();
        }
        finishSessions(engine);
        finishRestore(engine, orders, lastOrderId, lastExecId);
    }

    /**
     * Reads a list of order records ({@code withAttributes}: version 4's) and puts each back: resting orders at the
     * back of their level, {@code waiting} stops at the back of their book's waiting stops (both lists come in the
     * engine's order).
     */
    private static void readOrders(MatchingEngine engine, DataInput in, boolean withAttributes, boolean waiting,
                                   List<Order> orders) throws IOException {
        int orderCount = in.readInt();
        for (int i = 0; i < orderCount; i++) {
            List<Order> one = new ArrayList<>(1);
            readOrder(engine, in, withAttributes, one);
            Order order = one.get(0);
            place(engine, order, waiting);
            orders.add(order);
        }
    }

    /** Reads one order record into a pooled order (not placed yet) and adds it to {@code into}. */
    private static void readOrder(MatchingEngine engine, DataInput in, boolean withAttributes, List<Order> into)
        throws IOException {
        ClientOrderId id = new ClientOrderId();
        byte[] idBytes = new byte[ClientOrderId.MAX_LENGTH];
        {
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
            Order order = restoreOrder(engine, symbol, side, orderId, owner, id, timeInForce, in.readLong(),
                in.readLong(), in.readLong(), in.readLong(), in.readLong());
            if (withAttributes) {
                order.orderType = orderType(in.readUnsignedByte());
                order.postOnly = (in.readUnsignedByte() & POST_ONLY) != 0;
                order.stopPrice = in.readLong();
                order.maxFloor = in.readLong();
                order.shown = in.readLong();
                order.expireTimeNanos = in.readLong();
            } else {
                order.shown = order.leaves;
            }
            into.add(order);
        }
    }

    /**
     * The orders of a journal snapshot file of format 1 (before #14, when the journal wrote them itself: enum
     * ordinals, the id counters in the file's header; no halts, positions or settings), put into a fresh engine.
     */
    public static void readJournalFormat1Orders(MatchingEngine engine, DataInput in, long lastOrderId,
                                                long lastExecId) throws IOException {
        int orderCount = in.readInt();
        List<Order> orders = new ArrayList<>(orderCount);
        ClientOrderId id = new ClientOrderId();
        for (int i = 0; i < orderCount; i++) {
            int symbol = in.readInt();
            Side side = Side.fromOrdinal(in.readUnsignedByte());
            TimeInForce timeInForce = TimeInForce.fromOrdinal(in.readUnsignedByte());
            long orderId = in.readLong();
            int owner = in.readInt();
            byte[] idBytes = new byte[in.readUnsignedByte()];
            in.readFully(idBytes);
            id.copyFrom(idBytes, 0, idBytes.length);
            Order order = restoreOrder(engine, symbol, side, orderId, owner, id, timeInForce, in.readLong(),
                in.readLong(), in.readLong(), in.readLong(), in.readLong());
            order.shown = order.leaves;
            place(engine, order, false);
            orders.add(order);
        }
        finishRestore(engine, orders, lastOrderId, lastExecId);
    }

    /** What {@link #forEachSessionControl} calls for each setting that is not 0. */
    interface SessionControlVisitor {
        void visit(int owner, SessionControl control, long value);
    }

    /** Every non-zero session setting and engaged kill switch (scans all possible owners). */
    static void forEachSessionControl(MatchingEngine engine, SessionControlVisitor visitor) {
        SessionControl[] controls = SessionControl.values();
        for (int owner = 0; owner < OwnerOrders.MAX_OWNERS; owner++) {
            for (SessionControl control : controls) {
                long value = engine.sessionControl(owner, control);
                if (value != 0) {
                    visitor.visit(owner, control, value);
                }
            }
        }
    }

    private static void writeHalts(MatchingEngine engine, DataOutput out) throws IOException {
        List<Integer> halted = new ArrayList<>();
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            if (engine.isHalted(symbol)) {
                halted.add(symbol);
            }
        }
        out.writeShort(halted.size());
        for (int symbol : halted) {
            out.writeShort(symbol);
        }
    }

    private static void readHalts(MatchingEngine engine, DataInput in) throws IOException {
        int[] halted = new int[in.readUnsignedShort()];
        for (int i = 0; i < halted.length; i++) {
            halted[i] = in.readUnsignedShort();
        }
        for (int symbol : halted) {
            if (engine.bookOf(symbol) == null) {
                throw new IllegalStateException("not a restorable halt: symbol " + symbol);
            }
            engine.halts.halt(symbol, true);
        }
    }

    private static void writeInboundPositions(MatchingEngine engine, DataOutput out) throws IOException {
        int owners = 0;
        for (int owner = 0; owner < OwnerOrders.MAX_OWNERS; owner++) {
            if (engine.inboundPositions.of(owner) != 0) {
                owners++;
            }
        }
        out.writeInt(owners);
        for (int owner = 0; owner < OwnerOrders.MAX_OWNERS; owner++) {
            long position = engine.inboundPositions.of(owner);
            if (position != 0) {
                out.writeInt(owner);
                out.writeLong(position);
            }
        }
    }

    private static void writeSessionControls(MatchingEngine engine, DataOutput out) throws IOException {
        List<long[]> settings = new ArrayList<>();
        forEachSessionControl(engine, (owner, control, value) -> settings.add(new long[] {owner, control.code(),
            value}));
        out.writeInt(settings.size());
        for (long[] setting : settings) {
            out.writeInt((int) setting[0]);
            out.writeByte((int) setting[1]);
            out.writeLong(setting[2]);
        }
    }

    private static void readSessionControls(MatchingEngine engine, DataInput in) throws IOException {
        int settings = in.readInt();
        for (int i = 0; i < settings; i++) {
            int owner = in.readInt();
            int code = in.readUnsignedByte();
            long value = in.readLong();
            SessionControl control = SessionControl.ofCode(code);
            if (control == null) {
                throw new IOException("unknown session setting code " + code);
            }
            if (!OwnerOrders.isValidOwner(owner)) {
                throw new IllegalStateException("not a restorable session setting: owner " + owner + " " + control);
            }
            if (control == SessionControl.KILL_SWITCH) {
                engine.massActions.killSwitch(owner, value != 0);
            } else {
                engine.setSessionControl(owner, control, value);
            }
        }
    }

    private static void readSymbolPrices(MatchingEngine engine, DataInput in) throws IOException {
        int symbols = in.readInt();
        if (symbols != engine.symbolCount()) {
            throw new IOException("prices of " + symbols + " symbols for an engine of " + engine.symbolCount());
        }
        for (int symbol = 0; symbol < symbols; symbol++) {
            engine.risk.restoreLastTradePrice(symbol, in.readLong());
            engine.risk.referencePrice(symbol, in.readLong());
        }
    }

    /**
     * Takes a pooled order and fills in a live order's fields (a limit order without attributes; the caller sets
     * those, then {@link #place}s it).
     *
     * @throws IllegalStateException if capacity is exhausted or the order cannot be a live order
     */
    private static Order restoreOrder(MatchingEngine engine, int symbolId, Side side, long orderId, int owner,
                                      ClientOrderId clientOrderId, TimeInForce timeInForce, long price,
                                      long quantity, long leaves, long cum, long cumNotional) {
        OrderBook book = engine.bookOf(symbolId);
        if (book == null || !OwnerOrders.isValidOwner(owner) || leaves <= 0 || quantity != leaves + cum
            || !timeInForce.rests() || clientOrderId.isEmpty()
            || engine.live.orderIndex.find(owner, clientOrderId) != null) {
            throw new IllegalStateException("not a restorable resting order: symbol " + symbolId + " order "
                + orderId + " " + clientOrderId);
        }
        Order order = engine.live.orderPool.acquire();
        if (order == null) {
            throw new IllegalStateException("the snapshot holds more orders than configured");
        }
        order.orderId = orderId;
        order.owner = owner;
        order.clientOrderId.copyFrom(clientOrderId);
        order.book = book;
        order.side = side;
        order.orderType = OrderType.LIMIT;
        order.timeInForce = timeInForce;
        order.price = price;
        order.quantity = quantity;
        order.leaves = leaves;
        order.cum = cum;
        order.cumNotional = cumNotional;
        order.stopPrice = 0;
        order.triggered = false;
        order.maxFloor = 0;
        order.minQuantity = 0;
        order.expireTimeNanos = 0;
        order.postOnly = false;
        return order;
    }

    /**
     * Puts a restored order back: at the back of its price level with its displayed part (orders come in priority
     * order, as {@link MatchingEngine#forEachRestingOrder} visits them), or, {@code waiting}, at the back of its book's
     * waiting stops (in trigger order); then indexed. Its owner's list waits for {@link #finishRestore}.
     */
    private static void place(MatchingEngine engine, Order order, boolean waiting) {
        BookSide side = order.book.side(order.side);
        boolean valid = waiting
            ? order.orderType.isStop() && order.stopPrice > 0 && order.cum == 0 && order.shown == 0
            : (order.orderType == OrderType.LIMIT || order.orderType == OrderType.STOP_LIMIT) && order.shown > 0
                && order.shown <= order.leaves && (order.maxFloor != 0 || order.shown == order.leaves);
        if (!valid) {
            throw new IllegalStateException("not a restorable " + (waiting ? "waiting stop" : "resting") + " order: "
                + order);
        }
        if (waiting) {
            order.book.stops.add(order);
        } else {
            if (engine.live.noFreeLevel(side, order.price)) {
                throw new IllegalStateException("the snapshot holds more price levels than configured");
            }
            order.triggered = order.orderType.isStop();
            long shown = order.shown;
            engine.live.rest(order); // shows what a fresh order would; an iceberg may show less, as it did
            order.level.displayedQuantity += shown - order.shown;
            order.shown = shown;
        }
        index(engine, order);
    }

    /** A restored order becomes findable (its owner's list waits for {@link #finishRestore}) and, GTD, expires. */
    private static void index(MatchingEngine engine, Order order) {
        engine.live.orderIndex.add(order);
        engine.risk.orderRested(order.owner);
        if (order.timeInForce == TimeInForce.GTD) {
            engine.live.expiries.add(order);
        }
    }

    /**
     * Ends a restore: sets the id counters, and rebuilds each owner's list of orders in the order normal operation
     * leaves it (most recently accepted first), so that cancel-on-disconnect cancels in the same order as before.
     */
    private static void finishRestore(MatchingEngine engine, List<Order> orders, long lastOrderId, long lastExecId) {
        orders.sort(Comparator.comparingLong(order -> order.orderId));
        for (Order order : orders) {
            engine.live.ownerOrders.add(order);
        }
        engine.requests.lastOrderId = lastOrderId;
        engine.publisher.restoreLastExecId(lastExecId);
        engine.publishDeadline();
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
            case GTD -> '6';
            case AT_THE_OPENING -> '2';
            case AT_THE_CLOSE -> '7';
            case IOC, FOK -> throw new IllegalStateException("an " + timeInForce + " order never rests");
        };
    }

    private static TimeInForce timeInForce(int code) throws IOException {
        return switch (code) {
            case '0' -> TimeInForce.DAY;
            case '1' -> TimeInForce.GTC;
            case '6' -> TimeInForce.GTD;
            case '2' -> TimeInForce.AT_THE_OPENING;
            case '7' -> TimeInForce.AT_THE_CLOSE;
            default -> throw new IOException("unknown time-in-force code " + code);
        };
    }

    private static int orderTypeCode(OrderType orderType) {
        return switch (orderType) {
            case MARKET -> '1';
            case LIMIT -> '2';
            case STOP -> '3';
            case STOP_LIMIT -> '4';
        };
    }

    private static OrderType orderType(int code) throws IOException {
        return switch (code) {
            case '1' -> OrderType.MARKET;
            case '2' -> OrderType.LIMIT;
            case '3' -> OrderType.STOP;
            case '4' -> OrderType.STOP_LIMIT;
            default -> throw new IOException("unknown order type code " + code);
        };
    }
}
