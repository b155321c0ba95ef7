package io.fixmatch.fix.transport;

import io.fixmatch.fix.session.SessionTransport;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/**
 * A session's connection. Messages are appended, in sequence-number order, to a pending buffer under this
 * object's lock by whichever thread produces them (the I/O thread for session messages, the event router for
 * execution reports); one task on the channel's event loop then writes the whole batch. Writing from one place
 * keeps the order on the wire equal to the sequence order, and batches replies that come together.
 */
final class ChannelTransport implements SessionTransport {
    private static final int INITIAL_BATCH_BYTES = 4096;

    private final Channel channel;
    private final long maxPendingBytes;
    private final Runnable flushTask = this::flush;
    private ByteBuf pending;
    private boolean flushScheduled;

    ChannelTransport(Channel channel, long maxPendingBytes) {
        this.channel = channel;
        this.maxPendingBytes = maxPendingBytes;
    }

    @Override
    public void send(byte[] message, int offset, int length) {
        synchronized (this) {
            if (pending == null) {
                pending = channel.alloc().directBuffer(Math.max(INITIAL_BATCH_BYTES, length));
            }
            pending.writeBytes(message, offset, length);
            if (flushScheduled) {
                return;
            }
            flushScheduled = true;
        }
        channel.eventLoop().execute(flushTask);
    }

    @Override
    public void disconnect() {
        channel.eventLoop().execute(() -> {
            flush();
            channel.close();
        });
    }

    @Override
    public String remoteAddress() {
        return String.valueOf(channel.remoteAddress());
    }

    /** Bytes written to the channel but not yet to the socket: how far behind a slow client is. */
    long unsentBytes() {
        return channel.unsafe().outboundBuffer() == null ? 0 : channel.unsafe().outboundBuffer().totalPendingWriteBytes();
    }

    boolean tooFarBehind() {
        return unsentBytes() > maxPendingBytes;
    }

    /** Event loop only. */
    private void flush() {
        ByteBuf batch;
        synchronized (this) {
            batch = pending;
            pending = null;
            flushScheduled = false;
        }
        if (batch == null) {
            return;
        }
        if (channel.isActive()) {
            channel.writeAndFlush(batch, channel.voidPromise());
        } else {
            batch.release();
        }
    }
}
