package io.fixmatch.loadgen.client;

import net.openhft.chronicle.core.util.NanoSampler;
import org.HdrHistogram.Recorder;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The calibration probe: a bare TCP echo over loopback, in this process, of messages as large as our orders, sent
 * at the same moments as the orders. Its round trip is the machine's floor for a request/response over loopback;
 * the report shows how far the server is from it. Each message carries the time it was due.
 */
public final class LoopbackEcho implements AutoCloseable {
    private final int messageSize;
    private final ServerSocketChannel server;
    private final SocketChannel client;
    private final ByteBuffer outgoing;
    private final Thread echoThread;
    private final Thread readerThread;
    private final Recorder recorder;
    private volatile NanoSampler probe;
    private volatile boolean closing;

    public LoopbackEcho(int messageSize, Recorder recorder) {
        this.messageSize = Math.max(16, messageSize);
        this.recorder = recorder;
        this.outgoing = ByteBuffer.allocateDirect(this.messageSize).order(ByteOrder.LITTLE_ENDIAN);
        try {
            server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            client = SocketChannel.open(server.getLocalAddress());
            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            SocketChannel accepted = server.accept();
            accepted.setOption(StandardSocketOptions.TCP_NODELAY, true);
            echoThread = new Thread(() -> echo(accepted), "echo-server");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up the loopback echo", e);
        }
        readerThread = new Thread(this::readReplies, "echo-reader");
        echoThread.setDaemon(true);
        readerThread.setDaemon(true);
        echoThread.start();
        readerThread.start();
    }

    public void attach(NanoSampler jlbhProbe) {
        probe = jlbhProbe;
    }

    /** Sends one message due at {@code dueNanos}; called by the sending thread. */
    public void send(long dueNanos) {
        outgoing.clear();
        outgoing.putLong(0, dueNanos);
        try {
            while (outgoing.hasRemaining()) {
                client.write(outgoing);
            }
        } catch (ClosedByInterruptException e) {
            closing = true; // JLBH aborted the run by interrupting its thread; the report says why
        } catch (IOException e) {
            if (!closing) {
                throw new UncheckedIOException("loopback echo failed", e);
            }
        }
    }

    private void echo(SocketChannel accepted) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(messageSize * 64);
        try (accepted) {
            while (!closing) {
                buffer.clear();
                if (accepted.read(buffer) < 0) {
                    return;
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    accepted.write(buffer);
                }
            }
        } catch (IOException e) {
            // closed at the end of the run
        }
    }

    private void readReplies() {
        ByteBuffer message = ByteBuffer.allocateDirect(messageSize).order(ByteOrder.LITTLE_ENDIAN);
        try {
            while (!closing) {
                message.clear();
                while (message.hasRemaining()) {
                    if (client.read(message) < 0) {
                        throw new EOFException();
                    }
                }
                long nanos = System.nanoTime() - message.getLong(0);
                recorder.recordValue(Math.max(1, nanos));
                NanoSampler sampler = probe;
                if (sampler != null) {
                    sampler.sampleNanos(nanos);
                }
            }
        } catch (IOException e) {
            // closed at the end of the run
        }
    }

    @Override
    public void close() {
        closing = true;
        try {
            client.close();
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
