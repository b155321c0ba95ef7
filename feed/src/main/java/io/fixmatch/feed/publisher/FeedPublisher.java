package io.fixmatch.feed.publisher;

import io.fixmatch.engine.api.TradingPhase;
import io.fixmatch.engine.codec.MarketDataCodec;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.ConsumerWakeup;
import io.fixmatch.engine.loop.CpuPinning;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.loop.TracedEventSink;
import io.fixmatch.engine.loop.WakeableBackoffIdleStrategy;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.feed.codec.BookSide;
import io.fixmatch.feed.codec.Datagram;
import io.fixmatch.feed.codec.FeedMessageWriter;
import io.fixmatch.feed.codec.SymbolBook;
import io.fixmatch.feed.sbe.Side;
import io.fixmatch.feed.sbe.UpdateAction;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The binary feed's publisher (docs/FEED.md), on a thread of its own, never the matching thread: reads the matching
 * step's market data records from a ring of its own (standalone: {@code MatchingRuntime#addMarketDataRing}; a cluster's
 * gateway: the records of the cluster's batches), turns each entry into one SBE message with the sequence number the
 * record gives it (decided in the matching step, so a restart or another replica goes on with the same numbers: this
 * class never numbers anything itself), packs them into MoldUDP64-style datagrams and sends each once to the channel
 * (a multicast group, or every unicast address). Keeps every symbol's book of levels to send the snapshot cycles and
 * the newest messages for the retransmission service; a heartbeat when the stream was quiet.
 *
 * <p>Numbers it has already published (a cluster's batch sent again) are passed over; numbers it never received (a
 * cluster gateway away from the cluster while they were made) are counted as lost and the stream goes on after them:
 * handlers find them refused by retransmission and take a snapshot.
 */
public final class FeedPublisher implements Agent, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FeedPublisher.class);
    private static final int RECORDS_PER_POLL = 64;
    /** Polls of an empty ring before the thread parks (about 5 µs: the next command's record often comes by then). */
    private static final int IDLE_SPINS = 100;
    /** How often the retransmission service's socket is read (its requests wait at most this, or a park). */
    private static final long RETRANSMIT_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final FeedSettings settings;
    private final OutboundEventRing ring;
    private final FeedCounters counters = new FeedCounters();
    private final SymbolBook[] books;
    private final byte[] session;
    private final FeedMessageWriter writer = new FeedMessageWriter();
    private final MessageHistory history;
    private final UdpSender stream;
    private final UdpSender snapshots;
    private final SnapshotCycle snapshotCycle;
    private final RetransmitService retransmit;
    private final ByteBuffer datagram;
    private final UnsafeBuffer view;
    private final TracedEventSink onRecords = new TracedEventSink() {
        @Override
        public void onEvent(io.fixmatch.engine.api.ExecutionEvent event, io.fixmatch.engine.loop.CommandTrace trace) {
            // the feed's ring carries market data only
        }

        @Override
        public void onMarketData(DirectBuffer buffer, int offset, int length) {
            onRecord(buffer, offset, length);
        }
    };
    private final long heartbeatNanos;
    private final long snapshotNanos;
    private long lastSequence;
    private int at = Datagram.HEADER_LENGTH;
    private long datagramFirst;
    private int inDatagram;
    private long lastSendNanos;
    private long nextSnapshotNanos;
    private long nextRetransmitPollNanos;
    private long nowNanos;
    private AgentRunner runner;

    /** @param symbols the venue's symbols, by id */
    public FeedPublisher(FeedSettings settings, OutboundEventRing ring, List<SymbolSpec> symbols) {
        this(settings, ring, symbols.stream().map(SymbolSpec::name).toList(),
            symbols.stream().mapToInt(SymbolSpec::priceScale).toArray());
    }

    private FeedPublisher(FeedSettings settings, OutboundEventRing ring, List<String> symbols, int[] priceScales) {
        this.settings = settings;
        this.ring = ring;
        this.session = Datagram.session(settings.session());
        this.books = new SymbolBook[symbols.size()];
        for (int i = 0; i < books.length; i++) {
            books[i] = new SymbolBook(i);
        }
        this.history = new MessageHistory(settings.historyMessages());
        this.datagram = ByteBuffer.allocateDirect(settings.maxDatagramBytes());
        this.view = new UnsafeBuffer(datagram);
        this.heartbeatNanos = TimeUnit.MILLISECONDS.toNanos(settings.heartbeatIntervalMs());
        this.snapshotNanos = TimeUnit.MILLISECONDS.toNanos(settings.snapshotIntervalMs());
        this.stream = new UdpSender(settings.channel(), settings.multicastTtl());
        this.snapshots = settings.snapshotChannel().isEmpty() ? null
            : new UdpSender(settings.snapshotChannel(), settings.multicastTtl());
        this.snapshotCycle = snapshots == null ? null : new SnapshotCycle(snapshots, counters, session, symbols,
            priceScales, settings.maxDatagramBytes());
        this.retransmit = settings.retransmitPort() < 0 ? null : retransmitService(settings);
    }

    /**
     * The retransmission service, or null when its port is taken: the stream and the snapshots go on without it
     * (handlers then recover every gap from a snapshot), said loudly, seen in {@code GET /feed} as port -1.
     */
    private RetransmitService retransmitService(FeedSettings settings) {
        try {
            return new RetransmitService(settings, history, counters, session);
        } catch (UncheckedIOException e) {
            LOG.warn("market data feed: no retransmission service ({}); handlers recover gaps from snapshots",
                e.getMessage() + ": " + e.getCause().getMessage());
            return null;
        }
    }

    // --- before start: the books as the engine holds them, and the number they are as of ---

    /** A resting order of the books the stream starts from (adds to its level). */
    public void seedOrder(int symbolId, io.fixmatch.engine.api.Side side, long price, long displayedQuantity) {
        SymbolBook book = books[symbolId];
        (side == io.fixmatch.engine.api.Side.BUY ? book.bids : book.asks).add(price, displayedQuantity);
    }

    /** A symbol's phase, halt, indicative uncross and last trade price as the books the stream starts from hold them. */
    public void seedStatus(int symbolId, TradingPhase phase, boolean halted, long indicativePrice,
                           long indicativeVolume, long lastTradePrice) {
        SymbolBook book = books[symbolId];
        book.phase = phase(phase.code());
        book.halted = halted;
        book.indicativePrice = indicativePrice;
        book.indicativeVolume = indicativeVolume;
        book.lastTradePrice = lastTradePrice;
    }

    /**
     * The books the stream starts from are the engine's (recovered, not running): its resting orders, each symbol's
     * phase, halt, indicative uncross and last trade, as of its market data sequence number.
     */
    public void seedFrom(MatchingEngine engine) {
        for (int symbolId = 0; symbolId < engine.symbolCount(); symbolId++) {
            for (io.fixmatch.engine.api.Side side : io.fixmatch.engine.api.Side.values()) {
                int symbol = symbolId;
                engine.forEachRestingOrder(symbolId, side,
                    order -> seedOrder(symbol, order.side(), order.price(), order.displayedQuantity()));
            }
            long[] indicative = engine.indicative(symbolId);
            seedStatus(symbolId, engine.phase(symbolId), engine.isHalted(symbolId), indicative[0], indicative[1],
                engine.lastTradePrice(symbolId));
        }
        startAfter(engine.marketDataSequence());
    }

    /** The seeded books are as of message {@code lastSequence}: the stream goes on from the next. */
    public void startAfter(long lastSequence) {
        this.lastSequence = lastSequence;
        counters.lastSequence = lastSequence;
        history.startAfter(lastSequence);
    }

    /** Starts the publisher's thread ({@code cpu}: pinned there, -1: not pinned). */
    public void start(int cpu) {
        // A short spin, no yields, then a park the matching step's next record ends (1 ms at most: heartbeats, snapshot
        // cycles and retransmission requests are looked at between parks): the feed is not worth a core of its own.
        WakeableBackoffIdleStrategy backoff = new WakeableBackoffIdleStrategy(ring::hasEvents,
            TimeUnit.MILLISECONDS.toNanos(1), IDLE_SPINS, 0);
        ConsumerWakeup ringWakeup = new ConsumerWakeup(backoff::wake);
        ring.consumerWakeup(ringWakeup);
        IdleStrategy idle = new IdleStrategy() {
            @Override
            public void idle(int workCount) {
                if (workCount > 0) {
                    backoff.idle(workCount);
                } else {
                    idle();
                }
            }

            @Override
            public void idle() {
                ringWakeup.announceSleep();
                backoff.idle();
                ringWakeup.awake();
            }

            @Override
            public void reset() {
                backoff.reset();
            }
        };
        runner = new AgentRunner(idle, error -> LOG.error("market data feed error", error), null, this);
        AgentRunner.startOnThread(runner, new CpuPinning("md-feed", cpu));
        LOG.info("market data feed: stream to {}, snapshots to {}, retransmission on UDP port {}, from sequence {}",
            settings.channel(), settings.snapshotChannel(), counters.retransmitPort, lastSequence + 1);
    }

    public FeedCounters counters() {
        return counters;
    }

    public FeedSettings settings() {
        return settings;
    }

    // --- the publisher's thread ---

    @Override
    public void onStart() {
        nowNanos = System.nanoTime();
        lastSendNanos = nowNanos;
        nextSnapshotNanos = nowNanos;
    }

    @Override
    public int doWork() {
        int work = ring.poll(onRecords, RECORDS_PER_POLL);
        flush();
        nowNanos = System.nanoTime();
        if (retransmit != null && nowNanos - nextRetransmitPollNanos >= 0) {
            // a system call: looked at every RETRANSMIT_POLL_NANOS, not at every spin of an idle thread
            work += retransmit.poll(nowNanos);
            nextRetransmitPollNanos = nowNanos + RETRANSMIT_POLL_NANOS;
        }
        if (snapshotCycle != null && nowNanos - nextSnapshotNanos >= 0) {
            snapshotCycle.send(books, lastSequence);
            nextSnapshotNanos = nowNanos + snapshotNanos;
            work++;
        }
        if (nowNanos - lastSendNanos >= heartbeatNanos) {
            heartbeat();
            work++;
        }
        return work;
    }

    private void onRecord(DirectBuffer buffer, int offset, int length) {
        long first = MarketDataCodec.firstSequence(buffer, offset);
        int entries = MarketDataCodec.entries(length);
        for (int n = 0; n < entries; n++) {
            long sequence = first + n;
            if (sequence <= lastSequence) {
                continue; // published already (a cluster's batch sent again)
            }
            if (sequence > lastSequence + 1) {
                lost(sequence);
            }
            publish(sequence, buffer, offset, n);
        }
    }

    /** The numbers before {@code sequence} never reached this publisher: the stream goes on after them. */
    private void lost(long sequence) {
        flush();
        long missing = sequence - lastSequence - 1;
        counters.lostMessages += missing;
        LOG.warn("market data feed: {} messages from {} never reached the publisher; handlers take a snapshot",
            missing, lastSequence + 1);
        lastSequence = sequence - 1;
        history.startAfter(lastSequence);
    }

    private void publish(long sequence, DirectBuffer record, int offset, int n) {
        if (at + Datagram.MESSAGE_LENGTH_BYTES + FeedMessageWriter.MAX_STREAM_MESSAGE > view.capacity()) {
            flush();
        }
        if (inDatagram == 0) {
            datagramFirst = sequence;
        }
        int symbolId = MarketDataCodec.symbolId(record, offset, n);
        long price = MarketDataCodec.price(record, offset, n);
        long quantity = MarketDataCodec.quantity(record, offset, n);
        SymbolBook book = books[symbolId];
        int message = at + Datagram.MESSAGE_LENGTH_BYTES;
        int length = switch (MarketDataCodec.kind(record, offset, n)) {
            case MarketDataCodec.LEVEL -> {
                boolean buy = MarketDataCodec.side(record, offset, n) == io.fixmatch.engine.api.Side.BUY;
                int action = (buy ? book.bids : book.asks).set(price, quantity);
                yield writer.level(view, message, symbolId, buy ? Side.BUY : Side.SELL, action(action), price,
                    quantity);
            }
            case MarketDataCodec.TRADE -> {
                book.lastTradePrice = price;
                book.lastTradeQuantity = quantity;
                yield writer.trade(view, message, symbolId, price, quantity);
            }
            case MarketDataCodec.INDICATIVE -> {
                book.indicativePrice = price;
                book.indicativeVolume = quantity;
                yield writer.indicative(view, message, symbolId, price, quantity);
            }
            case MarketDataCodec.PHASE -> {
                book.phase = phase((int) price);
                yield writer.phase(view, message, symbolId, book.phase);
            }
            case MarketDataCodec.HALT -> {
                book.halted = quantity != 0;
                yield writer.halt(view, message, symbolId, book.halted);
            }
            default -> throw new IllegalStateException("unknown market data entry kind "
                + MarketDataCodec.kind(record, offset, n));
        };
        Datagram.putMessageLength(view, at, length);
        history.add(sequence, view, message, length);
        at = message + length;
        inDatagram++;
        lastSequence = sequence;
    }

    private static UpdateAction action(int bookAction) {
        return switch (bookAction) {
            case BookSide.NEW -> UpdateAction.NEW;
            case BookSide.CHANGE -> UpdateAction.CHANGE;
            default -> UpdateAction.DELETE; // a delete of a level this book lacked still takes its number
        };
    }

    private static io.fixmatch.feed.sbe.TradingPhase phase(int code) {
        io.fixmatch.feed.sbe.TradingPhase phase = io.fixmatch.feed.sbe.TradingPhase.get((short) code);
        return phase == io.fixmatch.feed.sbe.TradingPhase.NULL_VAL ? io.fixmatch.feed.sbe.TradingPhase.CONTINUOUS
            : phase;
    }

    /** Sends the datagram being filled, if it holds messages. */
    private void flush() {
        if (inDatagram == 0) {
            return;
        }
        Datagram.putHeader(view, 0, session, datagramFirst, inDatagram);
        datagram.clear().limit(at);
        counters.sendFailures += stream.send(datagram);
        counters.messages += inDatagram;
        counters.datagrams++;
        counters.lastSequence = lastSequence;
        at = Datagram.HEADER_LENGTH;
        inDatagram = 0;
        lastSendNanos = System.nanoTime();
    }

    private void heartbeat() {
        Datagram.putHeader(view, 0, session, lastSequence + 1, 0);
        datagram.clear().limit(Datagram.HEADER_LENGTH);
        counters.sendFailures += stream.send(datagram);
        counters.heartbeats++;
        counters.datagrams++;
        lastSendNanos = nowNanos;
    }

    @Override
    public void onClose() {
        while (ring.poll(onRecords, Integer.MAX_VALUE) > 0) {
            // publish what the matching step had written before it stopped
        }
        flush();
        stream.close();
        if (snapshots != null) {
            snapshots.close();
        }
        if (retransmit != null) {
            retransmit.close();
        }
    }

    /** Stops the thread (after the matching step stopped: what it wrote is published first). */
    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        } else {
            onClose();
        }
    }

    @Override
    public String roleName() {
        return "md-feed";
    }
}
