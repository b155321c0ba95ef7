package io.fixmatch.loadgen.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The floor: a bare TCP echo on loopback, in this process, on one thread doing blocking reads and writes. The
 * generator sends it the same byte stream at the same rate as the server phase, alone (the server idle), and times
 * each request's bytes coming back: the machine's floor for a request and its answer over loopback.
 */
public final class EchoServer implements AutoCloseable {
    private final ServerSocketChannel server;
    private final Thread thread;

    public EchoServer() {
        try {
            server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the loopback echo", e);
        }
        thread = new Thread(this::serve, "loopback-echo");
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        return server.socket().getLocalPort();
    }

    private void serve() {
        try (SocketChannel connection = server.accept()) {
            connection.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 16);
            while (connection.read(buffer) >= 0) {
                buffer.flip();
                while (buffer.hasRemaining()) {
                    connection.write(buffer);
                }
                buffer.clear();
            }
        } catch (IOException e) {
            // closed at the end of the phase
        }
    }

    @Override
    public void close() {
        try {
            server.close();
            thread.join(2000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
