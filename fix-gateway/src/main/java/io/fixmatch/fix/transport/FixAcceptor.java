package io.fixmatch.fix.transport;

import io.fixmatch.fix.gateway.DutyCycle;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.session.SessionRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.EventLoopTaskQueueFactory;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollMode;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultEventExecutorChooserFactory;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.RejectedExecutionHandlers;
import io.netty.util.concurrent.ThreadPerTaskExecutor;
import io.netty.util.internal.PlatformDependent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.channels.spi.SelectorProvider;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The TCP acceptor: Netty (native epoll on Linux, NIO elsewhere) with one event loop per gateway thread, each loop
 * driven by its gateway's {@link DutyCycle}. The listening socket ({@link ListeningSocket}, listening since start-up)
 * lives on one of these loops too (no separate acceptor thread); accepted connections are spread over the loops and
 * moved to their session's loop at Logon.
 */
public final class FixAcceptor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FixAcceptor.class);
    /**
     * Each loop's task queue: bounded and preallocated, so that the matching thread's wake-up task allocates
     * nothing. Tasks are rare (a wake-up per sleep, registrations, shutdown), never near this many.
     */
    private static final int TASK_QUEUE_CAPACITY = 1 << 16;

    private final EventLoopGroup group;
    private final Channel serverChannel;

    private FixAcceptor(EventLoopGroup group, Channel serverChannel) {
        this.group = group;
        this.serverChannel = serverChannel;
    }

    /**
     * Starts one event loop per gateway (each gateway thread takes its sessions over before this returns), then takes
     * over {@code listening} (bound and listening since start-up: connections the kernel queued meanwhile are
     * accepted now) and accepts; the port itself comes from {@code listening}, not from {@code settings}.
     */
    public static FixAcceptor start(GatewaySettings settings, ListeningSocket listening, SessionRegistry registry,
                                    Gateways gateways) throws InterruptedException {
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            // Netty's default samples one buffer in 128 with a stack trace: an allocation on the gateway thread.
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        SslContext tls = settings.tls() == null ? null : settings.tls().serverContext(); // fails before any thread
        AcceptorGuards guards = new AcceptorGuards(settings.limits(), registry);
        boolean epoll = listening.isNative();
        EventLoopGroup group = newGroup(settings, gateways.all(), epoll);
        try {
            int i = 0;
            for (EventExecutor loop : group) {
                gateways.all().get(i++).attach((EventLoop) loop);
            }
            for (Gateway gateway : gateways.all()) {
                gateway.submit(() -> { }).get(10, TimeUnit.SECONDS); // the thread runs and owns its sessions
            }
            ServerBootstrap bootstrap = new ServerBootstrap();
            if (epoll) {
                // Level-triggered: after a read that did not fill the buffer Netty stops; edge-triggered reads
                // again until EAGAIN: one wasted syscall per message at low rates.
                bootstrap.childOption(EpollChannelOption.EPOLL_MODE, EpollMode.LEVEL_TRIGGERED);
            }
            // The socket is bound and listening already (backlog and SO_REUSEADDR set there): registering it with
            // its event loop starts accepting, from the oldest connection the kernel queued.
            Channel channel = bootstrap
                .group(group)
                .channelFactory(listening::handOver)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .handler(new EarlyRefusal(guards))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast("tls", tls.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new FixConnectionHandler(registry, gateways, settings, guards));
                    }
                })
                .register()
                .sync()
                .channel();
            LOG.info("FIX acceptor listening on {}:{} ({} transport{}, {} gateway threads, idle {})", listening.host(),
                listening.port(), epoll ? "epoll" : "NIO", tls == null ? "" : ", TLS " + settings.tls().protocols(),
                settings.threads(), settings.idle().configName());
            return new FixAcceptor(group, channel);
        } catch (Exception e) { // register() rethrows its cause undeclared
            listening.close(); // if it was not handed over yet
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly(); // threads gone: sessions free
            if (e instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            throw new IllegalStateException("cannot accept on " + listening.host() + ":" + listening.port() + ": "
                + e.getMessage(), e);
        }
    }

    /**
     * One event loop per gateway, in order: Netty creates a group's loops one after the other, asking the strategy
     * factory once for each, so loop {@code i} gets gateway {@code i}'s duty cycle.
     */
    private static EventLoopGroup newGroup(GatewaySettings settings, List<Gateway> gateways, boolean epoll) {
        AtomicInteger created = new AtomicInteger();
        SelectStrategyFactory cycles = () -> new DutyCycle(gateways.get(created.getAndIncrement()), settings.idle());
        ThreadPerTaskExecutor executor = new ThreadPerTaskExecutor(new DefaultThreadFactory("gateway"));
        EventLoopTaskQueueFactory taskQueues = ignored -> PlatformDependent.newFixedMpscQueue(TASK_QUEUE_CAPACITY);
        if (epoll) {
            return new EpollEventLoopGroup(gateways.size(), executor, DefaultEventExecutorChooserFactory.INSTANCE,
                cycles, RejectedExecutionHandlers.reject(), taskQueues);
        }
        return new NioEventLoopGroup(gateways.size(), executor, DefaultEventExecutorChooserFactory.INSTANCE,
            SelectorProvider.provider(), cycles, RejectedExecutionHandlers.reject(), taskQueues);
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Stops accepting connections; existing ones stay until {@link #close()}. */
    public void stopAccepting() {
        serverChannel.close().syncUninterruptibly();
    }

    /** Stops the gateway threads (connections must have been closed, sessions finished). */
    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
