package io.fixmatch.fix.transport;

import io.fixmatch.fix.session.SessionRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/** The TCP acceptor: Netty with the native epoll transport on Linux, NIO elsewhere. */
public final class FixAcceptor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FixAcceptor.class);

    private final EventLoopGroup bossGroup;
    private final EventLoopGroup ioGroup;
    private final Channel serverChannel;

    private FixAcceptor(EventLoopGroup bossGroup, EventLoopGroup ioGroup, Channel serverChannel) {
        this.bossGroup = bossGroup;
        this.ioGroup = ioGroup;
        this.serverChannel = serverChannel;
    }

    /** Binds and starts accepting; throws if the address cannot be bound (port taken, say). */
    public static FixAcceptor start(GatewaySettings settings, SessionRegistry registry) throws InterruptedException {
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup boss = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
        EventLoopGroup io = epoll ? new EpollEventLoopGroup(settings.ioThreads())
            : new NioEventLoopGroup(settings.ioThreads());
        Class<? extends ServerSocketChannel> channelType = epoll ? EpollServerSocketChannel.class
            : NioServerSocketChannel.class;
        try {
            Channel channel = new ServerBootstrap()
                .group(boss, io)
                .channel(channelType)
                .option(ChannelOption.SO_BACKLOG, 128)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new FixConnectionHandler(registry, settings));
                    }
                })
                .bind(new InetSocketAddress(settings.host(), settings.port()))
                .sync()
                .channel();
            LOG.info("FIX acceptor listening on {}:{} ({} transport, {} I/O threads)", settings.host(),
                ((InetSocketAddress) channel.localAddress()).getPort(), epoll ? "epoll" : "NIO", settings.ioThreads());
            return new FixAcceptor(boss, io, channel);
        } catch (Exception e) { // bind() rethrows the checked BindException undeclared
            boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            io.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            if (e instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            throw new IllegalStateException("cannot listen on " + settings.host() + ":" + settings.port() + ": "
                + e.getMessage(), e);
        }
    }

    /** The I/O thread that consumes the engine's events (see EventRouter). */
    public Executor eventLoop() {
        return ioGroup.next();
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Stops accepting connections; existing ones stay until {@link #close()}. */
    public void stopAccepting() {
        serverChannel.close().syncUninterruptibly();
    }

    /** Closes every connection and stops the I/O threads. */
    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
