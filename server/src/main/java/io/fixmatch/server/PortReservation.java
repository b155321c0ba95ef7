package io.fixmatch.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;

/**
 * The FIX port, bound before recovery touches the data folder, so that a taken port stops the start at once instead
 * of after a journal replay (and a snapshot written at the failed start's stop). Held while the books are rebuilt,
 * then handed over: closed the moment before the acceptor binds the same port (a client that connected meanwhile is
 * reset, and its FIX engine reconnects).
 */
final class PortReservation implements AutoCloseable {
    private final ServerSocketChannel channel;
    private final int port;

    private PortReservation(ServerSocketChannel channel, int port) {
        this.channel = channel;
        this.port = port;
    }

    /** Binds {@code host:port} (0: any free port) or throws {@link IllegalStateException} saying why. */
    static PortReservation bind(String host, int port) {
        ServerSocketChannel channel = null;
        try {
            channel = ServerSocketChannel.open();
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true); // as the acceptor binds
            channel.bind(new InetSocketAddress(host, port));
            return new PortReservation(channel, ((InetSocketAddress) channel.getLocalAddress()).getPort());
        } catch (IOException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // already failing
                }
            }
            throw new IllegalStateException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** The port bound (the free one chosen when asked for 0). */
    int port() {
        return port;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
