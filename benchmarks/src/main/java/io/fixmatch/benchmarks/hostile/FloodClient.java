package io.fixmatch.benchmarks.hostile;

import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A hostile FIX client for measurements: logs a session on and sends IOC orders (far from any market: each is
 * acknowledged and canceled) as fast as the socket takes them, far above any sane rate, and comes back at once
 * whenever the server logs it out. It reads and discards what the server sends, counting Rejects (35=3) and
 * Logouts (35=5). {@code --reconnect-delay-ms} waits before each reconnection (default 0). Used with the open-loop prober (benchmarks/README.md) to measure another session's latency while
 * one session floods; it measures nothing itself.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.fixmatch.benchmarks.hostile.FloodClient \
 *     --port 9878 --sender CLIENT1 --seconds 30</pre>
 */
public final class FloodClient {
    private static final int BATCH = 64;

    private final String host;
    private final int port;
    private final String sender;
    private final String target;
    private final long seconds;
    private final long reconnectDelayMs;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong rejects = new AtomicLong();
    private final AtomicLong logouts = new AtomicLong();
    private long connections;

    private FloodClient(String host, int port, String sender, String target, long seconds, long reconnectDelayMs) {
        this.host = host;
        this.port = port;
        this.sender = sender;
        this.target = target;
        this.seconds = seconds;
        this.reconnectDelayMs = reconnectDelayMs;
    }

    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 9878;
        String sender = "CLIENT1";
        String target = "FIXMATCH";
        long seconds = 30;
        long reconnectDelayMs = 0;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--host" -> host = args[i + 1];
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--sender" -> sender = args[i + 1];
                case "--target" -> target = args[i + 1];
                case "--seconds" -> seconds = Long.parseLong(args[i + 1]);
                case "--reconnect-delay-ms" -> reconnectDelayMs = Long.parseLong(args[i + 1]);
                default -> {
                    System.err.println("usage: FloodClient [--host H] [--port P] [--sender ID] [--target ID]"
                        + " [--seconds S] [--reconnect-delay-ms MS]");
                    System.exit(2);
                }
            }
        }
        new FloodClient(host, port, sender, target, seconds, reconnectDelayMs).run();
    }

    private void run() throws InterruptedException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long nextReport = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < end) {
            connections++;
            try (Socket socket = new Socket()) {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(host, port), 5000);
                Thread reader = startReader(socket.getInputStream());
                flood(socket.getOutputStream(), end);
                reader.join(1000);
            } catch (IOException e) {
                // logged out and disconnected, or refused: come back (at once by default)
            }
            Thread.sleep(reconnectDelayMs);
            long now = System.nanoTime();
            if (now >= nextReport) {
                report();
                nextReport = now + 1_000_000_000L;
            }
        }
        report();
    }

    /** Logon with ResetSeqNumFlag=Y, then orders in batches until the end or the connection fails. */
    private void flood(OutputStream out, long endNanos) throws IOException {
        FixWriter writer = new FixWriter(512);
        long seqNum = 1;
        header(writer.begin(MsgTypes.LOGON), seqNum++).field(FixTags.ENCRYPT_METHOD, 0L)
            .field(FixTags.HEART_BT_INT, 30L).field(FixTags.RESET_SEQ_NUM_FLAG, 'Y').finish();
        out.write(writer.buffer(), writer.start(), writer.length());
        ByteArrayOutputStream batch = new ByteArrayOutputStream(BATCH * 256);
        long nextReport = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < endNanos) {
            batch.reset();
            for (int i = 0; i < BATCH; i++) {
                header(writer.begin(MsgTypes.NEW_ORDER_SINGLE), seqNum).field(FixTags.CL_ORD_ID, "F", seqNum)
                    .field(FixTags.SYMBOL, "MSFT").field(FixTags.SIDE, '1')
                    .timestamp(FixTags.TRANSACT_TIME, System.currentTimeMillis() * 1_000_000L)
                    .field(FixTags.ORDER_QTY, 1L).field(FixTags.ORD_TYPE, '2').field(FixTags.PRICE, "0.01")
                    .field(FixTags.TIME_IN_FORCE, '3').finish();
                batch.write(writer.buffer(), writer.start(), writer.length());
                seqNum++;
            }
            batch.writeTo(out);
            sent.addAndGet(BATCH);
            if (System.nanoTime() >= nextReport) {
                report();
                nextReport = System.nanoTime() + 1_000_000_000L;
            }
        }
    }

    private FixWriter header(FixWriter writer, long seqNum) {
        return writer.field(FixTags.SENDER_COMP_ID, sender).field(FixTags.TARGET_COMP_ID, target)
            .field(FixTags.MSG_SEQ_NUM, seqNum).timestamp(FixTags.SENDING_TIME, System.currentTimeMillis() * 1_000_000L);
    }

    /** Counts Rejects and Logouts in what the server sends (a plain scan for "35=3" and "35=5" after an SOH). */
    private Thread startReader(InputStream in) {
        Thread reader = new Thread(() -> {
            byte[] buffer = new byte[1 << 16];
            int carry = 0;
            try {
                int read;
                while ((read = in.read(buffer, carry, buffer.length - carry)) > 0) {
                    int end = carry + read;
                    for (int i = 0; i + 4 < end; i++) {
                        if (buffer[i] == 1 && buffer[i + 1] == '3' && buffer[i + 2] == '5' && buffer[i + 3] == '=') {
                            if (buffer[i + 4] == '3') {
                                rejects.incrementAndGet();
                            } else if (buffer[i + 4] == '5') {
                                logouts.incrementAndGet();
                            }
                        }
                    }
                    carry = Math.min(4, end);
                    System.arraycopy(buffer, end - carry, buffer, 0, carry);
                }
            } catch (IOException e) {
                // the connection is gone
            }
        }, "flood-reader");
        reader.setDaemon(true);
        reader.start();
        return reader;
    }

    private void report() {
        System.out.printf(Locale.ROOT, "flood: %,d orders sent, %,d rejects and %,d logouts received, %,d connections%n",
            sent.get(), rejects.get(), logouts.get(), connections);
    }
}
