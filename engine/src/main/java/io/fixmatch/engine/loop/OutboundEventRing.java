package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.codec.EventCodec;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Events on their way from the matching thread to their one consumer (the gateway's sender): Agrona's
 * single-producer single-consumer {@link OneToOneRingBuffer}, events in their {@link EventCodec} form.
 *
 * <p>When the ring is full the matching thread waits for room (an event is never dropped); the consumer is the
 * server's own thread, which must never block on a client, so a full ring means a stalled consumer, counted in
 * {@link #fullRingWaits()}.
 */
public final class OutboundEventRing implements EventSink {
    private static final int MESSAGE_TYPE = 1;

    private final RingBuffer ring;
    private final IdleStrategy fullRingIdle;
    private final AtomicLong fullRingWaits = new AtomicLong();
    private final ExecutionEvent consumerEvent = new ExecutionEvent();
    private EventSink consumerSink;
    private volatile Runnable consumerWaker;
    private final MessageHandler decoder = (type, buffer, index, length) -> {
        EventCodec.decode(buffer, index, consumerEvent);
        consumerSink.onEvent(consumerEvent);
    };

    /** @param capacityBytes a power of two: the bytes of events the ring holds at once */
    public OutboundEventRing(int capacityBytes, IdleStrategy fullRingIdle) {
        ring = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacityBytes + RingBufferDescriptor.TRAILER_LENGTH)));
        this.fullRingIdle = fullRingIdle;
    }

    /** Matching thread: publishes one event, waiting for room if the ring is full. */
    @Override
    public void onEvent(ExecutionEvent event) {
        int length = EventCodec.encodedLength(event);
        int index = ring.tryClaim(MESSAGE_TYPE, length);
        if (index < 0) {
            fullRingWaits.incrementAndGet();
            fullRingIdle.reset();
            while ((index = ring.tryClaim(MESSAGE_TYPE, length)) < 0) {
                fullRingIdle.idle();
            }
        }
        EventCodec.encode(event, ring.buffer(), index);
        ring.commit(index);
    }

    /**
     * Sets what tells the consumer there are events (it schedules the consumer's drain); without one the consumer
     * is expected to poll.
     */
    public void consumerWaker(Runnable waker) {
        consumerWaker = waker;
    }

    /** Matching thread, after a batch of commands: lets the consumer know events are waiting. */
    void wakeConsumer() {
        Runnable waker = consumerWaker;
        if (waker != null) {
            waker.run();
        }
    }

    /**
     * Consumer thread: hands up to {@code limit} events to {@code sink}, decoded into one reused event.
     * Returns how many.
     */
    public int poll(EventSink sink, int limit) {
        consumerSink = sink;
        return ring.read(decoder, limit);
    }

    /** How many times the matching thread found this ring full and had to wait. */
    public long fullRingWaits() {
        return fullRingWaits.get();
    }
}
