package io.fixmatch.fix.transport;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last on the listening channel: each accepted connection gets its socket options and its handler
 * ({@code connectionHandler}), and is registered with one of the gateways' loops (in turn; at Logon it moves to its
 * session's gateway if that is another).
 */
@ChannelHandler.Sharable
final class AcceptedConnections extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(AcceptedConnections.class);
    /** Unsent bytes above which a connection reports itself unwritable (and below which writable again). */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);

    private final EventLoopGroup gatewayLoops;
    private final ChannelHandler connectionHandler;
    private final WarningThrottle failureWarnings = new WarningThrottle(1000);

    AcceptedConnections(EventLoopGroup gatewayLoops, ChannelHandler connectionHandler) {
        this.gatewayLoops = gatewayLoops;
        this.connectionHandler = connectionHandler;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel child = (Channel) msg;
        try {
            child.config().setOption(ChannelOption.TCP_NODELAY, true);
            child.config().setOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT);
            child.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK);
            child.pipeline().addLast(connectionHandler);
            gatewayLoops.register(child).addListener(registered -> {
                if (!registered.isSuccess()) {
                    warn("cannot register an accepted connection", registered.cause());
                    child.unsafe().closeForcibly();
                }
            });
        } catch (RuntimeException e) {
            warn("cannot set up an accepted connection", e);
            child.unsafe().closeForcibly();
        }
    }

    /** Accepting failed (out of file descriptors, say): logged, at most once a second; the next accept may work. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        warn("accepting a connection failed", cause);
    }

    private void warn(String what, Throwable cause) {
        if (failureWarnings.allow(System.currentTimeMillis())) {
            long suppressed = failureWarnings.takeSuppressed();
            LOG.warn("{}: {}{}", what, cause.toString(), suppressed > 0 ? " (" + suppressed + " more since)" : "");
        }
    }
}
