package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.TradingPhase;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the matching thread publishes for readers on other threads (the admin endpoint): which symbols are halted,
 * which sessions' kill switches are engaged, and the answer to the last {@code BOOK_QUERY}. The matching thread is the only writer; readers never block it.
 *
 * <p>Why a query answered by the matching thread rather than a copy of the books kept up to date: the books change
 * with nearly every command, so a continuously published copy would cost every command some stores, while the
 * books are looked at a few times a minute. A query costs the matching thread nothing until it is asked, and its
 * answer is a consistent cut of every book between two commands. Readers never touch the books themselves: they
 * are plain fields of the matching thread.
 *
 * <p>The answer lies in one preallocated array guarded by a sequence number (a seqlock): the writer makes the
 * sequence odd, writes, makes it even again (release); a reader copies the array between two reads of the sequence
 * and keeps the copy only if both were the same even number. Allocation-free on the writer's side.
 */
public final class EngineView {
    /** The most price levels per side an answer carries for the asked symbol. */
    public static final int MAX_LEVELS = 20;

    static final int REQUEST = 0;
    static final int SYMBOL = 1;
    static final int LIVE_ORDERS = 2;
    /** The asked symbol's trading phase (code) and, during a call, its indicative uncross price and volume. */
    static final int PHASE = 3;
    static final int INDICATIVE_PRICE = 4;
    static final int INDICATIVE_VOLUME = 5;
    /** Then per side (bids, asks): levels in the book, levels shown, {@link #MAX_LEVELS} x (price, qty, orders). */
    static final int SIDES = 6;
    static final int SIDE_LENGTH = 2 + 3 * MAX_LEVELS;
    /** Then per symbol and side: levels, best price, quantity at the best price. */
    static final int SUMMARY = SIDES + 2 * SIDE_LENGTH;
    static final int SUMMARY_LENGTH = 3;

    private static final VarHandle SEQUENCE;

    static {
        try {
            SEQUENCE = MethodHandles.lookup().findVarHandle(EngineView.class, "sequence", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int symbols;
    private final AtomicIntegerArray halted;
    private final AtomicIntegerArray killSwitches = new AtomicIntegerArray(OwnerOrders.MAX_OWNERS);
    /** Per symbol: phase code, indicative price, indicative volume. */
    private final AtomicLongArray auctions;
    private final long[] answer;
    @SuppressWarnings("unused") // accessed through SEQUENCE
    private volatile long sequence;
    /** EXPIRE_DAY_ORDERS commands processed since start (the matching thread's one writer). */
    private volatile long dayEnds;
    /** The engine's next deadline (journal time, epoch ns; Long.MAX_VALUE: none), see MatchingEngine#nextDeadlineNanos. */
    private volatile long nextDeadline = Long.MAX_VALUE;

    /**
     * A view written by a cluster gateway's link from the records the cluster sends ({@link #apply}), so the gateway's
     * admin endpoint reads halts, kill switches and book answers the same way in both modes.
     */
    public static EngineView mirror(int symbols) {
        return new EngineView(symbols);
    }

    EngineView(int symbols) {
        this.symbols = symbols;
        this.halted = new AtomicIntegerArray(symbols);
        this.auctions = new AtomicLongArray(symbols * 3);
        this.answer = new long[SUMMARY + symbols * 2 * SUMMARY_LENGTH];
        answer[REQUEST] = -1;
    }

    /** Any thread: whether trading in the symbol is halted (as of the last halt or resume the engine processed). */
    public boolean isHalted(int symbolId) {
        return halted.get(symbolId) != 0;
    }

    /** Any thread: whether the session's kill switch is engaged (as of the last command the engine processed). */
    public boolean isKillSwitchEngaged(int owner) {
        return OwnerOrders.isValidOwner(owner) && killSwitches.get(owner) != 0;
    }

    /** Any thread: how many end-of-day expiries the engine has processed since it started (replayed ones too). */
    public long dayEnds() {
        return dayEnds;
    }

    /**
     * Any thread: when the engine next has time-driven work (a GTD expiry), as of the last command it processed; the
     * server's timer sends a TIMER command once the wall clock passes it. {@link Long#MAX_VALUE}: nothing scheduled.
     */
    public long nextDeadlineNanos() {
        return nextDeadline;
    }

    /** Matching thread: the engine's next deadline changed. */
    void nextDeadline(long nanos) {
        nextDeadline = nanos;
    }

    /** Any thread: the symbol's trading phase (as of the last command the engine processed). */
    public TradingPhase phase(int symbolId) {
        return TradingPhase.ofCode((int) auctions.get(symbolId * 3));
    }

    /** Any thread: during a call, the symbol's indicative uncross price (0: none). */
    public long indicativePrice(int symbolId) {
        return auctions.get(symbolId * 3 + 1);
    }

    /** Any thread: during a call, the volume the symbol's auction would execute now (0: none). */
    public long indicativeVolume(int symbolId) {
        return auctions.get(symbolId * 3 + 2);
    }

    /** Matching thread: the symbol's phase changed. */
    void phase(int symbolId, TradingPhase phase) {
        auctions.setRelease(symbolId * 3, phase.code());
    }

    /** Matching thread: the symbol's indicative uncross moved. */
    void indicative(int symbolId, long price, long volume) {
        auctions.setRelease(symbolId * 3 + 1, price);
        auctions.setRelease(symbolId * 3 + 2, volume);
    }

    /** Matching thread: an end-of-day expiry was processed. */
    void dayEnded() {
        dayEnds = dayEnds + 1; // one writer
    }

    /** Matching thread: the owner's kill switch changed. */
    void killSwitch(int owner, boolean engaged) {
        killSwitches.setRelease(owner, engaged ? 1 : 0);
    }

    public int symbolCount() {
        return symbols;
    }

    /**
     * Any thread: a consistent copy of the last answer if it answers request {@code requestId}, else null (not
     * answered yet, or being written: ask again).
     */
    public BookQueryAnswer answer(long requestId) {
        long[] copy = new long[answer.length];
        long before = (long) SEQUENCE.getAcquire(this);
        if ((before & 1) != 0) {
            return null;
        }
        System.arraycopy(answer, 0, copy, 0, copy.length);
        VarHandle.loadLoadFence();
        long after = (long) SEQUENCE.getOpaque(this);
        if (before != after || copy[REQUEST] != requestId) {
            return null;
        }
        return new BookQueryAnswer(copy, symbols);
    }

    /** Matching thread: the symbol's halted flag changed. */
    void halted(int symbolId, boolean value) {
        halted.setRelease(symbolId, value ? 1 : 0);
    }

    /** Matching thread: answers a book query (no allocation). */
    void answer(long requestId, int symbolId, OrderBook[] books, int liveOrders) {
        long next = (long) SEQUENCE.getOpaque(this) + 1;
        SEQUENCE.setOpaque(this, next);
        VarHandle.storeStoreFence();
        answer[REQUEST] = requestId;
        answer[SYMBOL] = symbolId;
        answer[LIVE_ORDERS] = liveOrders;
        OrderBook asked = symbolId >= 0 && symbolId < books.length ? books[symbolId] : null;
        answer[PHASE] = asked == null ? TradingPhase.CONTINUOUS.code() : asked.session.phase.code();
        answer[INDICATIVE_PRICE] = asked == null ? 0 : asked.session.indicativePrice;
        answer[INDICATIVE_VOLUME] = asked == null ? 0 : asked.session.indicativeVolume;
        writeLevels(asked == null ? null : asked.bids, SIDES);
        writeLevels(asked == null ? null : asked.asks, SIDES + SIDE_LENGTH);
        int at = SUMMARY;
        for (OrderBook book : books) {
            at = writeSummary(book.bids, at);
            at = writeSummary(book.asks, at);
        }
        SEQUENCE.setRelease(this, next + 1);
    }

    /**
     * The writer (the service thread of a cluster node): this view's halts and engaged kill switches, and, if
     * {@code withAnswer}, the last book query's answer, and, if {@code withPhases}, each symbol's trading phase, into
     * {@code buffer} for a gateway's mirror ({@link #apply}): i32 symbols, a byte per symbol (halted), i32 engaged
     * kill switches and their owner ids, u8 flags (1: a day ended, 2: an answer follows, 4: the phases follow), then
     * the answer's longs, then a byte per symbol (its phase's code). Only replicated state goes in (no counters of
     * this node's own), so every node writes the same bytes. Returns the length.
     *
     * <p>The phases are for a welcome, which must tell a gateway joining during a call that the symbol is in one
     * (its feed and market data start from them); a reader of an earlier release passes over the flag and the bytes
     * after what it reads, so they need no new protocol version.
     */
    public int encode(MutableDirectBuffer buffer, int offset, boolean dayEnded, boolean withAnswer) {
        return encode(buffer, offset, dayEnded, withAnswer, false);
    }

    /** {@link #encode(MutableDirectBuffer, int, boolean, boolean)}, with each symbol's phase if {@code withPhases}. */
    public int encode(MutableDirectBuffer buffer, int offset, boolean dayEnded, boolean withAnswer,
                      boolean withPhases) {
        int at = offset;
        buffer.putInt(at, symbols);
        at += Integer.BYTES;
        for (int i = 0; i < symbols; i++) {
            buffer.putByte(at++, (byte) halted.get(i));
        }
        int countAt = at;
        at += Integer.BYTES;
        int engaged = 0;
        for (int owner = 0; owner < OwnerOrders.MAX_OWNERS; owner++) {
            if (killSwitches.get(owner) != 0) {
                buffer.putInt(at, owner);
                at += Integer.BYTES;
                engaged++;
            }
        }
        buffer.putInt(countAt, engaged);
        buffer.putByte(at++, (byte) ((dayEnded ? 1 : 0) | (withAnswer ? 2 : 0) | (withPhases ? 4 : 0)));
        if (withAnswer) {
            for (long value : answer) {
                buffer.putLong(at, value);
                at += Long.BYTES;
            }
        }
        if (withPhases) {
            for (int i = 0; i < symbols; i++) {
                buffer.putByte(at++, (byte) phase(i).code());
            }
        }
        return at - offset;
    }

    /** The most bytes {@link #encode} writes, for buffers. */
    public int maxEncodedLength(int engagedKillSwitches) {
        return 2 * Integer.BYTES + symbols + engagedKillSwitches * Integer.BYTES + 1 + answer.length * Long.BYTES
            + symbols;
    }

    /** A mirror's one writer: takes what {@link #encode} wrote on a node. */
    public void apply(DirectBuffer buffer, int offset) {
        int at = offset;
        int count = Math.min(buffer.getInt(at), symbols);
        at += Integer.BYTES;
        for (int i = 0; i < count; i++) {
            halted(i, buffer.getByte(at++) != 0);
        }
        int engaged = buffer.getInt(at);
        at += Integer.BYTES;
        for (int owner = 0; owner < OwnerOrders.MAX_OWNERS; owner++) {
            if (killSwitches.get(owner) != 0) {
                killSwitches.setRelease(owner, 0);
            }
        }
        for (int i = 0; i < engaged; i++) {
            killSwitch(buffer.getInt(at), true);
            at += Integer.BYTES;
        }
        int flags = buffer.getByte(at++);
        if ((flags & 1) != 0) {
            dayEnded();
        }
        if ((flags & 2) != 0) {
            long next = (long) SEQUENCE.getOpaque(this) + 1;
            SEQUENCE.setOpaque(this, next);
            VarHandle.storeStoreFence();
            for (int i = 0; i < answer.length; i++) {
                answer[i] = buffer.getLong(at);
                at += Long.BYTES;
            }
            SEQUENCE.setRelease(this, next + 1);
        }
        if ((flags & 4) != 0) {
            for (int i = 0; i < count; i++) {
                phase(i, TradingPhase.ofCode(buffer.getByte(at++)));
            }
        }
    }

    private void writeLevels(BookSide side, int at) {
        int shown = 0;
        PriceLevel level = side == null ? null : side.best;
        for (; level != null && shown < MAX_LEVELS; level = level.worse, shown++) {
            int row = at + 2 + shown * 3;
            answer[row] = level.price;
            answer[row + 1] = level.totalQuantity;
            answer[row + 2] = level.orderCount;
        }
        answer[at] = side == null ? 0 : side.levelCount;
        answer[at + 1] = shown;
    }

    private int writeSummary(BookSide side, int at) {
        PriceLevel best = side.best;
        answer[at] = side.levelCount;
        answer[at + 1] = best == null ? 0 : best.price;
        answer[at + 2] = best == null ? 0 : best.totalQuantity;
        return at + SUMMARY_LENGTH;
    }
}
