package io.fixmatch.fix.transport;

import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.security.UnauthenticatedConnections;
import io.fixmatch.fix.session.SessionRegistry;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.EventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * The TCP acceptor: Netty on the {@link Transport} the listening socket chose (io_uring, epoll or NIO), with one event
 * loop per gateway thread, each loop driven by its gateway's duty cycle ({@link GatewayLoops}). The listening socket
 * ({@link ListeningSocket}, listening since start-up) accepts on a loop of its own; accepted connections are spread
 * over the gateways' loops and moved to their session's loop at Logon.
 */
public final class FixAcceptor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FixAcceptor.class);

    private final GatewayLoops loops;
    private final ListeningSocket listening;

    private FixAcceptor(GatewayLoops loops, ListeningSocket listening) {
        this.loops = loops;
        this.listening = listening;
    }

    /**
     * Starts one event loop per gateway (each gateway thread takes its sessions over before this returns), then
     * starts accepting on {@code listening} (listening since start-up: connections the kernel queued meanwhile are
     * accepted now; from now on the acceptor closes it). The connections not logged on are counted in
     * {@code unauthenticated} (made from {@code settings}' limits).
     */
    public static FixAcceptor start(GatewaySettings settings, ListeningSocket listening, SessionRegistry registry,
                                    Gateways gateways, UnauthenticatedConnections unauthenticated)
        throws InterruptedException {
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            // Netty's default samples one buffer in 128 with a stack trace: an allocation on the gateway thread.
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        GatewayLoops loops = null;
        try {
            SslContext tls = settings.tls() == null ? null : settings.tls().serverContext(); // fails before any thread
            AcceptorGuards guards = new AcceptorGuards(settings.limits(), registry, unauthenticated);
            Transport transport = listening.transport();
            loops = GatewayLoops.start(transport, gateways.all(), settings.idle());
            int i = 0;
            for (EventExecutor loop : loops) {
                gateways.all().get(i++).attach((EventLoop) loop);
            }
            for (Gateway gateway : gateways.all()) {
                gateway.submit(() -> { }).get(10, TimeUnit.SECONDS); // the thread runs and owns its sessions
            }
            ChannelInitializer<SocketChannel> connection = new ChannelInitializer<>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (tls != null) {
                        ch.pipeline().addLast("tls", tls.newHandler(ch.alloc()));
                    }
                    ch.pipeline().addLast(new FixConnectionHandler(registry, gateways, settings, guards));
                }
            };
            listening.startAccepting(new EarlyRefusal(guards), new AcceptedConnections(loops, connection));
            String passedOver = transport.passedOver();
            LOG.info("FIX acceptor listening on {}:{} ({} transport{}{}, {} gateway threads, idle {})",
                listening.host(), listening.port(), transport.configName(),
                passedOver.isEmpty() ? "" : " (not available: " + passedOver + ")",
                tls == null ? "" : ", TLS " + settings.tls().protocols(), settings.threads(),
                settings.idle().configName());
            return new FixAcceptor(loops, listening);
        } catch (Exception e) { // get() and sync() rethrow their causes
            listening.close();
            if (loops != null) {
                loops.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly(); // sessions free
            }
            if (e instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            throw new IllegalStateException("cannot accept on " + listening.host() + ":" + listening.port() + ": "
                + e.getMessage(), e);
        }
    }

    public int port() {
        return listening.port();
    }

    /** Stops accepting connections; existing ones stay until {@link #close()}. */
    public void stopAccepting() {
        listening.stopAccepting();
    }

    /** Stops the gateway threads (connections must have been closed, sessions finished). */
    @Override
    public void close() {
        listening.close();
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
