package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.codec.CommandCodec;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

/**
 * Commands on their way to the matching thread: a bounded, lock-free, allocation-free many-producer ring (Agrona's
 * {@link ManyToOneRingBuffer}) holding commands in their {@link CommandCodec} form. Any thread may
 * {@link #offer}; only the matching thread reads.
 */
public final class InboundCommandRing {
    private static final int MESSAGE_TYPE = 1;

    private final RingBuffer ring;
    private Runnable consumerWaker = () -> { };

    /** @param capacityBytes a power of two: the bytes of commands the ring holds at once */
    public InboundCommandRing(int capacityBytes) {
        ring = new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacityBytes + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /**
     * Enqueues a copy of the command. Returns false when the ring is full: back-pressure the caller must act on
     * (reject the request with a reason); nothing is dropped silently.
     */
    public boolean offer(Command command) {
        int length = CommandCodec.encodedLength(command);
        int index = ring.tryClaim(MESSAGE_TYPE, length);
        if (index < 0) {
            return false;
        }
        CommandCodec.encode(command, ring.buffer(), index);
        ring.commit(index);
        consumerWaker.run();
        return true;
    }

    /** What to call after each offer so a parked consumer wakes up; set once, before producers start. */
    void consumerWaker(Runnable waker) {
        consumerWaker = waker;
    }

    /** Matching thread only: hands up to {@code limit} queued commands to the handler; returns how many. */
    int read(MessageHandler handler, int limit) {
        return ring.read(handler, limit);
    }

    /** Bytes waiting to be read (an estimate while producers are writing). */
    public int size() {
        return ring.size();
    }
}
