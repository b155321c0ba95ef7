package io.fixmatch.fix.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;

/**
 * On the listening socket, before an accepted connection is registered with a gateway's event loop: a connection
 * from a locked-out address is closed at once, before any handler,
 * buffer or registration is spent on it (a client that reconnects in a loop costs the gateway thread an accept and a
 * close, nothing more). The connection's own handler checks again, and counts it among the connections not logged
 * on, when it becomes active: this check is only the cheap early one.
 */
@ChannelHandler.Sharable
final class EarlyRefusal extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(EarlyRefusal.class);

    private final AcceptorGuards guards;

    EarlyRefusal(AcceptorGuards guards) {
        this.guards = guards;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel child = (Channel) msg;
        InetSocketAddress remote = child.remoteAddress() instanceof InetSocketAddress socket ? socket : null;
        if (guards.refuseEarly(remote == null ? null : remote.getAddress(), remote, System.currentTimeMillis(), LOG)) {
            child.unsafe().closeForcibly();
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
