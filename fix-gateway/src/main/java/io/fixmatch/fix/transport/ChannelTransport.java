package io.fixmatch.fix.transport;

import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.session.SessionTransport;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/**
 * A session's connection, used only by the gateway thread that owns it: messages are appended, in sequence-number
 * order, to a pending buffer, and the gateway's duty cycle writes the whole batch once per cycle, so replies that
 * come together leave in one write and the order on the wire is the sequence order.
 */
final class ChannelTransport implements SessionTransport {
    private static final int INITIAL_BATCH_BYTES = 4096;

    private final Channel channel;
    private final long maxPendingBytes;
    private Gateway gateway;
    private ByteBuf pending;
    private boolean queued;
    private boolean fenced;

    ChannelTransport(Channel channel, long maxPendingBytes, Gateway gateway) {
        this.channel = channel;
        this.maxPendingBytes = maxPendingBytes;
        this.gateway = gateway;
    }

    /** The connection moved to another gateway thread (before anything was queued). */
    void movedTo(Gateway newGateway) {
        gateway = newGateway;
    }

    @Override
    public void send(byte[] message, int offset, int length) {
        if (pending == null) {
            pending = channel.alloc().directBuffer(Math.max(INITIAL_BATCH_BYTES, length));
        }
        pending.writeBytes(message, offset, length);
        if (!queued) {
            queued = true;
            gateway.markDirty(this);
        }
    }

    @Override
    public int flush() {
        queued = false;
        ByteBuf batch = pending;
        if (batch == null) {
            return 0;
        }
        pending = null;
        int bytes = batch.readableBytes();
        if (channel.isActive()) {
            channel.writeAndFlush(batch, channel.voidPromise());
        } else {
            batch.release();
        }
        return bytes;
    }

    /** Writes what is queued (a cluster-owned session's only under the lease: {@link Gateway#mayWrite}), closes. */
    @Override
    public void disconnect() {
        if (!fenced || gateway.mayWrite()) {
            flush();
        }
        abort();
    }

    @Override
    public void fence() {
        fenced = true;
    }

    @Override
    public boolean fenced() {
        return fenced;
    }

    @Override
    public void abort() {
        release();
        channel.close();
    }

    @Override
    public String remoteAddress() {
        return String.valueOf(channel.remoteAddress());
    }

    /** Bytes written to the channel but not yet to the socket: how far behind a slow client is. */
    long unsentBytes() {
        return channel.unsafe().outboundBuffer() == null ? 0 : channel.unsafe().outboundBuffer().totalPendingWriteBytes();
    }

    @Override
    public long queuedBytes() {
        return (pending == null ? 0 : pending.readableBytes()) + unsentBytes();
    }

    boolean tooFarBehind() {
        return unsentBytes() > maxPendingBytes;
    }

    /** The connection closed: nothing more is written. */
    void release() {
        queued = false;
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }
}
