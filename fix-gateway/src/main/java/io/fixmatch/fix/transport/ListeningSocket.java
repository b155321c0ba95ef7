package io.fixmatch.fix.transport;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The FIX port, bound and listening from the first moment of start-up: the one socket the server ever listens on. A
 * client that connects while the server still recovers is accepted by the kernel into the backlog and waits there
 * (its Logon in its socket's buffer); once the server is ready the acceptor {@link #startAccepting starts accepting}
 * and answers it. Nothing is closed and bound again in between, so no connection is reset or left hanging.
 *
 * <p>It is a channel of the chosen {@link Transport} on an event loop of its own ({@code fix-acceptor}, which only
 * accepts): a transport's listening channel can only be made by binding it (io_uring's cannot take over a socket), and
 * so it must exist before the gateways' loops do. Accepted connections go to the gateways' loops.
 */
public final class ListeningSocket implements AutoCloseable {
    /** Connections the kernel completes and queues for us before we accept them (start-up, bursts). */
    static final int BACKLOG = 128;

    private final Transport transport;
    private final MultiThreadIoEventLoopGroup loop;
    private final ServerChannel channel;
    private final String host;
    private final int port;
    private boolean closed;

    private ListeningSocket(Transport transport, MultiThreadIoEventLoopGroup loop, ServerChannel channel, String host) {
        this.transport = transport;
        this.loop = loop;
        this.channel = channel;
        this.host = host;
        this.port = ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /**
     * Binds {@code host:port} (0: any free port) and listens, on the transport {@code transportName} chooses
     * ({@link Transport#choose}), or throws {@link IllegalStateException} saying why not.
     */
    public static ListeningSocket listen(String host, int port, String transportName) {
        Transport transport = Transport.choose(transportName);
        MultiThreadIoEventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, new AcceptorThreads(),
            transport.ioHandlerFactory());
        try {
            ServerChannel channel = transport.newServerChannel();
            channel.config().setOption(ChannelOption.SO_REUSEADDR, true);
            channel.config().setOption(ChannelOption.SO_BACKLOG, BACKLOG);
            channel.config().setAutoRead(false); // the kernel queues connections until the acceptor takes them
            loop.register(channel).syncUninterruptibly();
            channel.bind(new InetSocketAddress(host, port)).syncUninterruptibly();
            return new ListeningSocket(transport, loop, channel, host);
        } catch (Exception e) { // sync() rethrows the bind's cause undeclared, checked or not (a NativeIoException)
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly();
            throw new IllegalStateException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** The port bound (the free one chosen when asked for 0). */
    public int port() {
        return port;
    }

    String host() {
        return host;
    }

    Transport transport() {
        return transport;
    }

    /**
     * Accepts from now on, each new connection passed through {@code handlers} (the first one sees it first), from
     * the oldest the kernel queued.
     */
    void startAccepting(ChannelHandler... handlers) {
        channel.eventLoop().submit(() -> {
            channel.pipeline().addLast(handlers);
            channel.config().setAutoRead(true);
        }).syncUninterruptibly();
    }

    /** Stops accepting: the port is closed (connections already accepted stay). */
    void stopAccepting() {
        channel.close().syncUninterruptibly();
    }

    /** The loop's one thread, named {@code fix-acceptor}; a daemon, like the JDK's own service threads. */
    private static final class AcceptorThreads extends DefaultThreadFactory {
        AcceptorThreads() {
            super("fix-acceptor", true);
        }

        @Override
        protected Thread newThread(Runnable task, String name) {
            return super.newThread(task, "fix-acceptor");
        }
    }

    /** Closes the port and stops its loop. Once: the start's failure and the server's close may both ask. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopAccepting();
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
