package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.codec.SessionCodec;
import org.agrona.DirectBuffer;
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
 *
 * <p>A record is either a {@link #COMMAND} (the encoded command alone) or a {@link #TRACED_COMMAND}: two
 * {@link CommandTrace} stamps (i64 socket read, i64 ring offer) followed by the encoded command. The stamps stay out
 * of the command's bytes, so what the journal records is the same either way.
 */
public final class InboundCommandRing {
    /** Record type: a command in its {@link CommandCodec} form. */
    public static final int COMMAND = 1;
    /** Record type: the inbound trace stamps, then the command in its {@link CommandCodec} form. */
    public static final int TRACED_COMMAND = 2;

    private final RingBuffer ring;
    private Runnable consumerWaker = () -> { };

    /** @param capacityBytes a power of two: the bytes of commands the ring holds at once */
    public InboundCommandRing(int capacityBytes) {
        ring = new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacityBytes + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /**
     * Enqueues a copy of the command. Returns false when the ring is full: back-pressure the caller must act on
     * (reject the request with a reason, or keep it and retry); nothing is dropped silently.
     */
    public boolean offer(Command command) {
        int index = ring.tryClaim(COMMAND, CommandCodec.encodedLength(command));
        if (index < 0) {
            return false;
        }
        CommandCodec.encode(command, ring.buffer(), index);
        ring.commit(index);
        consumerWaker.run();
        return true;
    }

    /**
     * As {@link #offer}, for a command of a traced session: the command carries {@code socketReadNanos} (when its
     * bytes were read) and the System.nanoTime() of this offer.
     */
    public boolean offerTraced(Command command, long socketReadNanos) {
        int index = ring.tryClaim(TRACED_COMMAND, CommandTrace.INBOUND_LENGTH + CommandCodec.encodedLength(command));
        if (index < 0) {
            return false;
        }
        ring.buffer().putLong(index, socketReadNanos);
        CommandCodec.encode(command, ring.buffer(), index + CommandTrace.INBOUND_LENGTH);
        ring.buffer().putLong(index + Long.BYTES, System.nanoTime());
        ring.commit(index);
        consumerWaker.run();
        return true;
    }

    /**
     * Enqueues a record another ring's consumer read ({@link #read}) as it was: type {@link #COMMAND} or
     * {@link #TRACED_COMMAND} and its bytes (how the cluster service takes a gateway's command from the log), or a
     * session's request to a cluster that owns the sessions ({@code SessionCodec}'s request types: only a cluster
     * link reads those). Returns false when the ring is full.
     */
    public boolean offerRecord(int type, DirectBuffer source, int offset, int length) {
        if (type != COMMAND && type != TRACED_COMMAND && (type < SessionCodec.CLAIM || type > SessionCodec.KEEPALIVE)) {
            throw new IllegalArgumentException("not a command record type: " + type);
        }
        int index = ring.tryClaim(type, length);
        if (index < 0) {
            return false;
        }
        ring.buffer().putBytes(index, source, offset, length);
        ring.commit(index);
        consumerWaker.run();
        return true;
    }

    /** What to call after each offer so a parked consumer wakes up; set once, before producers start. */
    public void consumerWaker(Runnable waker) {
        consumerWaker = waker;
    }

    /**
     * The consumer only (the matching thread): hands up to {@code limit} queued records to the handler, each with its
     * record type ({@code 1}: a command, {@code 2}: the inbound trace stamps, 16 bytes, then a command); returns how
     * many.
     */
    public int read(MessageHandler handler, int limit) {
        return ring.read(handler, limit);
    }

    /** Bytes waiting to be read (an estimate while producers are writing). */
    public int size() {
        return ring.size();
    }

    public int capacity() {
        return ring.capacity();
    }

    /** Whether more than half the ring is taken: producers should stop taking in more work until it drains. */
    public boolean congested() {
        return ring.size() > ring.capacity() / 2;
    }
}
