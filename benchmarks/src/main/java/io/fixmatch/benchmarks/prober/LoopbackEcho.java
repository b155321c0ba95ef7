package io.fixmatch.benchmarks.prober;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * A bare TCP echo on loopback, the prober's floor: every byte read is written back, one connection at a time. In the
 * prober's process by default; run alone ({@code java -cp benchmarks.jar ...LoopbackEcho PORT}, under {@code taskset}
 * if the server is pinned) to put it where the server runs.
 */
public final class LoopbackEcho implements AutoCloseable {
    private final ServerSocketChannel server;

    private LoopbackEcho(ServerSocketChannel server) {
        this.server = server;
    }

    /** Listens on 127.0.0.1:{@code port} (0: any free port) and serves connections on a daemon thread. */
    static LoopbackEcho start(int port) throws IOException {
        LoopbackEcho echo = new LoopbackEcho(ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", port)));
        Thread thread = new Thread(echo::serve, "prober-echo");
        thread.setDaemon(true);
        thread.start();
        return echo;
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 9990;
        try (LoopbackEcho echo = start(port)) {
            System.out.println("loopback echo on 127.0.0.1:" + echo.port());
            Thread.currentThread().join(); // until killed
        }
    }

    int port() {
        return ((InetSocketAddress) server.socket().getLocalSocketAddress()).getPort();
    }

    private void serve() {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 16);
        while (server.isOpen()) {
            try (SocketChannel connection = server.accept()) {
                connection.setOption(StandardSocketOptions.TCP_NODELAY, true);
                buffer.clear();
                while (connection.read(buffer) >= 0) {
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        connection.write(buffer);
                    }
                    buffer.clear();
                }
            } catch (IOException e) {
                // the connection ended (or the echo was closed): wait for the next one
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
