package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.codec.EventCodec;
import io.fixmatch.engine.codec.SessionCodec;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Events on their way from the matching thread to their one consumer (a gateway thread): Agrona's single-producer
 * single-consumer {@link OneToOneRingBuffer}, events in their {@link EventCodec} form.
 *
 * <p>A record is an {@link #EVENT} (the encoded event), a {@link #STORED_THROUGH} mark after a snapshot, a
 * {@link #MARKET_DATA} record (one command's level changes and trades, for every gateway), a
 * {@link #COPY} (i64 the drop-copy session's owner id, then the encoded event of another owner), or a
 * {@link #TRACED_EVENT}: five {@link CommandTrace} stamps
 * (i64 socket read, ring offer, match start, journal done, match done), then the encoded event. The events of a
 * traced command are claimed as they happen but committed (made visible) only when the command is done, so that they
 * can carry its match-done stamp; a consumer never sees a later record before an uncommitted one. A gateway of a
 * cluster that owns the sessions also gets {@link SessionCodec}'s records: reports wrapped as NUMBERED (the MsgSeqNum
 * the cluster gave them), and the sessions' own records ({@link TracedEventSink#onSessionRecord}).
 *
 * <p>When the ring is full the matching thread waits for room (an event is never dropped): it wakes the consumer and
 * then either idles or, when the consumer runs on the same thread (the one-thread layout), runs the consumer's drain
 * itself. Counted in {@link #fullRingWaits()}: a full ring means a stalled consumer.
 */
public final class OutboundEventRing {
    /** Record type: an event in its {@link EventCodec} form. */
    public static final int EVENT = 1;
    /** Record type: the outbound trace stamps, then the event in its {@link EventCodec} form. */
    public static final int TRACED_EVENT = 2;
    /** Record type: i64 journal position: every event of the commands up to it is before this record. */
    public static final int STORED_THROUGH = 3;
    /** Record type: one command's market data in its {@code MarketDataCodec} form. */
    public static final int MARKET_DATA = 4;
    /** Record type: i64 recipient owner id (a drop-copy session), then the copied event in its EventCodec form. */
    public static final int COPY = 5;
    private static final int MATCH_DONE_OFFSET = 4 * Long.BYTES;

    private final RingBuffer ring;
    private final IdleStrategy fullRingIdle;
    private final AtomicLong fullRingWaits = new AtomicLong();
    /** Traced records claimed but not yet committed (producer only). */
    private final IntArrayList uncommitted = new IntArrayList(256, -1);
    private volatile ConsumerWakeup consumerWakeup;
    private volatile Runnable drainWhenFull;

    private final ExecutionEvent consumerEvent = new ExecutionEvent();
    private final CommandTrace consumerTrace = new CommandTrace();
    private TracedEventSink consumerSink;
    private EventSink plainSink;
    private final TracedEventSink plainAdapter = (event, trace) -> plainSink.onEvent(event);
    private final MessageHandler decoder = this::decode;

    /** @param capacityBytes a power of two: the bytes of events the ring holds at once */
    public OutboundEventRing(int capacityBytes, IdleStrategy fullRingIdle) {
        ring = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacityBytes + RingBufferDescriptor.TRAILER_LENGTH)));
        this.fullRingIdle = fullRingIdle;
    }

    /** Matching thread: publishes one event (visible at once), waiting for room if the ring is full. */
    void publish(ExecutionEvent event) {
        int index = claim(EVENT, EventCodec.encodedLength(event));
        EventCodec.encode(event, ring.buffer(), index);
        ring.commit(index);
    }

    /**
     * Matching thread: publishes a copy of another owner's event for the drop-copy session {@code recipientOwner}
     * (visible at once, never traced), waiting for room if the ring is full.
     */
    void publishCopy(int recipientOwner, ExecutionEvent event) {
        int index = claim(COPY, Long.BYTES + EventCodec.encodedLength(event));
        MutableDirectBuffer buffer = ring.buffer();
        buffer.putLong(index, recipientOwner);
        EventCodec.encode(event, buffer, index + Long.BYTES);
        ring.commit(index);
    }

    /**
     * Matching thread, after a snapshot covering the journal up to {@code journalPosition}: tells the consumer that
     * every event of those commands is before this record, so once it has stored what it read, its stores hold all
     * of them (see {@link TracedEventSink#onStoredThrough}).
     */
    void publishStoredThrough(long journalPosition) {
        int index = claim(STORED_THROUGH, Long.BYTES);
        ring.buffer().putLong(index, journalPosition);
        ring.commit(index);
    }

    /** The longest record the ring takes (Agrona's ring: an eighth of its capacity). */
    int maxRecordBytes() {
        return ring.maxMsgLength();
    }

    /** Matching thread: one command's market data (see {@link MarketDataPublisher}), waiting for room if full. */
    void publishMarketData(DirectBuffer record, int length) {
        int index = claim(MARKET_DATA, length);
        ring.buffer().putBytes(index, record, 0, length);
        ring.commit(index);
    }

    /**
     * Matching thread: writes one event of a traced command with the command's stamps so far; it becomes visible at
     * the next {@link #commitTraced}.
     */
    void publishTraced(ExecutionEvent event, CommandTrace trace) {
        int index = claim(TRACED_EVENT, CommandTrace.OUTBOUND_LENGTH + EventCodec.encodedLength(event));
        MutableDirectBuffer buffer = ring.buffer();
        buffer.putLong(index, trace.socketReadNanos());
        buffer.putLong(index + Long.BYTES, trace.ringOfferNanos());
        buffer.putLong(index + 2 * Long.BYTES, trace.matchStartNanos());
        buffer.putLong(index + 3 * Long.BYTES, trace.journalDoneNanos());
        EventCodec.encode(event, buffer, index + CommandTrace.OUTBOUND_LENGTH);
        uncommitted.addInt(index);
    }

    /** Matching thread, when the traced command is done: stamps and commits its events, in order. */
    void commitTraced(long matchDoneNanos) {
        for (int i = 0; i < uncommitted.size(); i++) {
            int index = uncommitted.getInt(i);
            ring.buffer().putLong(index + MATCH_DONE_OFFSET, matchDoneNanos);
            ring.commit(index);
        }
        uncommitted.clear();
    }

    private int claim(int type, int length) {
        int index = ring.tryClaim(type, length);
        if (index >= 0) {
            return index;
        }
        fullRingWaits.incrementAndGet();
        // The consumer cannot read past an uncommitted record: commit them (their match is not quite done).
        commitTraced(System.nanoTime());
        fullRingIdle.reset();
        while ((index = ring.tryClaim(type, length)) < 0) {
            Runnable drain = drainWhenFull;
            if (drain != null) {
                drain.run();
            } else {
                wakeConsumer();
                fullRingIdle.idle();
            }
        }
        return index;
    }

    /**
     * How the consumer wants to be woken when it announced a sleep (see {@link ConsumerWakeup}); without one the
     * consumer polls, or runs on the producer's thread. Set before the matching thread starts.
     */
    public void consumerWakeup(ConsumerWakeup wakeup) {
        consumerWakeup = wakeup;
    }

    /**
     * For a consumer on the matching thread itself (the one-thread layout): what the producer runs, instead of
     * waiting, while the ring is full.
     */
    public void drainWhenFull(Runnable drain) {
        drainWhenFull = drain;
    }

    /**
     * Producer: publishes a record as another ring's consumer read it ({@link #readRecords}): its type and bytes
     * (how a cluster client hands the engine's events, read from the cluster, to its gateway), waiting for room if
     * the ring is full.
     */
    public void publishRecord(int type, DirectBuffer source, int offset, int length) {
        int index = claim(type, length);
        ring.buffer().putBytes(index, source, offset, length);
        ring.commit(index);
    }

    /**
     * Consumer thread: hands up to {@code limit} records to {@code handler} undecoded, each with its type (how the
     * cluster service turns a command's events into one message to the gateway that consumes them). Returns how many.
     */
    public int readRecords(MessageHandler handler, int limit) {
        return ring.read(handler, limit);
    }

    /** Producer, after a batch that published here: wakes the consumer if it sleeps. */
    public void wakeConsumer() {
        ConsumerWakeup wakeup = consumerWakeup;
        if (wakeup != null) {
            wakeup.wakeIfSleeping();
        }
    }

    /**
     * Consumer thread: hands up to {@code limit} events to {@code sink}, decoded into one reused event, each with
     * the stamps of its command if it was traced. Returns how many.
     */
    public int poll(TracedEventSink sink, int limit) {
        consumerSink = sink;
        return ring.read(decoder, limit);
    }

    /** Consumer thread: as {@link #poll(TracedEventSink, int)}, ignoring traces. */
    public int poll(EventSink sink, int limit) {
        plainSink = sink;
        return poll(plainAdapter, limit);
    }

    /** Whether events are waiting (the consumer checks before it blocks). */
    public boolean hasEvents() {
        return ring.size() > 0;
    }

    private void decode(int type, MutableDirectBuffer buffer, int index, int length) {
        if (type == SessionCodec.NUMBERED) {
            // A session's message numbered by the cluster: the number first, then the message as any other record.
            consumerSink.onNumber(SessionCodec.numberedSeqNum(buffer, index));
            decode(SessionCodec.numberedInnerType(buffer, index), buffer, index + SessionCodec.NUMBERED_HEADER_LENGTH,
                length - SessionCodec.NUMBERED_HEADER_LENGTH);
        } else if (type > COPY) {
            consumerSink.onSessionRecord(type, buffer, index, length);
        } else if (type == STORED_THROUGH) {
            consumerSink.onStoredThrough(buffer.getLong(index));
        } else if (type == MARKET_DATA) {
            consumerSink.onMarketData(buffer, index, length);
        } else if (type == COPY) {
            EventCodec.decode(buffer, index + Long.BYTES, consumerEvent);
            consumerSink.onCopy((int) buffer.getLong(index), consumerEvent);
        } else if (type == TRACED_EVENT) {
            consumerTrace.set(buffer.getLong(index), buffer.getLong(index + Long.BYTES),
                buffer.getLong(index + 2 * Long.BYTES), buffer.getLong(index + 3 * Long.BYTES),
                buffer.getLong(index + MATCH_DONE_OFFSET));
            EventCodec.decode(buffer, index + CommandTrace.OUTBOUND_LENGTH, consumerEvent);
            consumerSink.onEvent(consumerEvent, consumerTrace);
        } else {
            EventCodec.decode(buffer, index, consumerEvent);
            consumerSink.onEvent(consumerEvent, null);
        }
    }

    /** Any thread: how far the producer has written (bytes since the ring was made). */
    public long producerPosition() {
        return ring.producerPosition();
    }

    /** Any thread: how far the consumer has read; every record before it has been handled. */
    public long consumerPosition() {
        return ring.consumerPosition();
    }

    /** Any thread: bytes of events waiting for the consumer (an estimate while the ring is written). */
    public int size() {
        return ring.size();
    }

    public int capacity() {
        return ring.capacity();
    }

    /** How many times the matching thread found this ring full and had to wait. */
    public long fullRingWaits() {
        return fullRingWaits.get();
    }
}
