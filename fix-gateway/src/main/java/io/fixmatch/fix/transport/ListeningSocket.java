package io.fixmatch.fix.transport;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.unix.Socket;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;

/**
 * The FIX port, bound and listening from the first moment of start-up until the acceptor takes it over: the one
 * socket the server ever listens on. A client that connects while the server still recovers is accepted by the
 * kernel into the backlog and waits there (its Logon in its socket's buffer); the acceptor, once the server is ready,
 * accepts it and answers. Nothing is closed and bound again in between, so no connection is reset or left hanging.
 *
 * <p>The socket is of the transport the acceptor runs: a native one for epoll (handed to Netty by its descriptor),
 * a JDK channel for NIO.
 */
public final class ListeningSocket implements AutoCloseable {
    /** Connections the kernel completes and queues for us before we accept them (start-up, bursts). */
    static final int BACKLOG = 128;

    private final Socket nativeSocket;
    private final java.nio.channels.ServerSocketChannel jdkChannel;
    private final String host;
    private final int port;
    /** Until the acceptor takes it over, or it is closed. */
    private boolean ours = true;

    private ListeningSocket(Socket nativeSocket, java.nio.channels.ServerSocketChannel jdkChannel, String host,
                            int port) {
        this.nativeSocket = nativeSocket;
        this.jdkChannel = jdkChannel;
        this.host = host;
        this.port = port;
    }

    /** Binds {@code host:port} (0: any free port) and listens, or throws {@link IllegalStateException} saying why. */
    public static ListeningSocket listen(String host, int port) {
        InetSocketAddress address = new InetSocketAddress(host, port);
        try {
            return Epoll.isAvailable() ? listenNative(address, host) : listenJdk(address, host);
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    private static ListeningSocket listenNative(InetSocketAddress address, String host) throws IOException {
        Socket socket = Socket.newSocketStream();
        try {
            socket.setReuseAddress(true);
            socket.bind(address);
            socket.listen(BACKLOG);
            return new ListeningSocket(socket, null, host, ((InetSocketAddress) socket.localAddress()).getPort());
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private static ListeningSocket listenJdk(InetSocketAddress address, String host) throws IOException {
        java.nio.channels.ServerSocketChannel channel = java.nio.channels.ServerSocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(address, BACKLOG);
            return new ListeningSocket(null, channel, host, ((InetSocketAddress) channel.getLocalAddress()).getPort());
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The port bound (the free one chosen when asked for 0). */
    public int port() {
        return port;
    }

    String host() {
        return host;
    }

    /** Whether it is a native socket, for Netty's epoll transport (else a JDK channel, for NIO). */
    boolean isNative() {
        return nativeSocket != null;
    }

    /** The socket as a Netty channel, not yet registered: from now on the channel owns it. Once. */
    synchronized ServerSocketChannel handOver() {
        if (!ours) {
            throw new IllegalStateException("the listening socket was handed over or closed already");
        }
        ours = false;
        return nativeSocket != null ? new EpollServerSocketChannel(nativeSocket.intValue())
            : new NioServerSocketChannel(jdkChannel);
    }

    /** Closes the socket unless the acceptor took it over (then the acceptor closes it). */
    @Override
    public synchronized void close() {
        if (!ours) {
            return;
        }
        ours = false;
        try {
            if (nativeSocket != null) {
                nativeSocket.close();
            } else {
                jdkChannel.close();
            }
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
