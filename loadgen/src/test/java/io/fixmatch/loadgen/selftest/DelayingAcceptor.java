package io.fixmatch.loadgen.selftest;

import io.fixmatch.fix.codec.FixFramer;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.codec.MsgTypes;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongUnaryOperator;

/**
 * A FIX 4.4 acceptor for testing the generator, on the project's codec, that answers every request after an
 * injected delay: request n (counted from the first after logon) is answered {@code delayNanos(n)} after it was
 * read, and reading stops for {@code stallNanos} once request {@code stallAt} has been read. With a small receive
 * buffer (and the generator's small send buffer) a stall fills the socket and blocks the generator's sender: the
 * case where coordinated omission hides a server's stall.
 *
 * <p>Answers: New for a resting order, a full Trade for an IOC, Canceled, Replaced; with {@code trace}, the
 * latency-trace tags 7101-7107, stamped so that the "journal" stage is the injected delay. A market data request is
 * refused (MarketDataRequestReject).
 */
final class DelayingAcceptor implements AutoCloseable {
    private static final int MAX_MESSAGE = 8192;
    /** Requests whose read and answer times are kept (numbered from 1). */
    private static final int RECORDED = 1 << 16;

    private final ServerSocketChannel server;
    private final LongUnaryOperator delayNanos;
    private final long stallAt;
    private final long stallNanos;
    private final boolean trace;
    private final Thread reader;
    private final Thread writer;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition added = lock.newCondition();
    private final PriorityQueue<Answer> answers = new PriorityQueue<>((a, b) -> Long.compare(a.due, b.due));
    private final FixWriter out = new FixWriter(MAX_MESSAGE);
    private volatile SocketChannel connection;
    private volatile boolean closing;
    private long nextSeqNum = 1;
    private long execId;
    /** By request number: when it was read, when its answer was about to be written (see {@link #readAt}). */
    private final long[] readAt = new long[RECORDED];
    private final long[] answeredAt = new long[RECORDED];

    /** What to answer, and when. */
    private record Answer(long number, long due, long read, int msgType, String clOrdId, String symbol, byte side,
                          boolean ioc, long quantity) {
    }

    DelayingAcceptor(LongUnaryOperator delayNanos, long stallAt, long stallNanos, int receiveBufferBytes,
                     boolean trace) {
        this.delayNanos = delayNanos;
        this.stallAt = stallAt;
        this.stallNanos = stallNanos;
        this.trace = trace;
        try {
            server = ServerSocketChannel.open();
            if (receiveBufferBytes > 0) {
                server.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes); // accepted sockets inherit it
            }
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        reader = new Thread(this::read, "acceptor-reader");
        writer = new Thread(this::answer, "acceptor-writer");
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    int port() {
        return server.socket().getLocalPort();
    }

    /**
     * After {@link #close()}: when request {@code number} (from 1) was read off the socket, by the acceptor's
     * {@code System.nanoTime()} (the generator's clock too: same process), or 0 if it never came.
     */
    long readAt(long number) {
        return readAt[(int) number];
    }

    /** After {@link #close()}: when the answer to request {@code number} began to be written, or 0 if never. */
    long answeredAt(long number) {
        return answeredAt[(int) number];
    }

    private void read() {
        try (SocketChannel channel = server.accept()) {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            connection = channel;
            ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
            UnsafeBuffer view = new UnsafeBuffer(in);
            FixFramer framer = new FixFramer(MAX_MESSAGE);
            FixMessage message = new FixMessage();
            byte[] frame = new byte[MAX_MESSAGE];
            int readFrom = 0;
            long count = 0;
            while (!closing) {
                if (in.capacity() - in.position() < MAX_MESSAGE) {
                    in.limit(in.position()).position(readFrom);
                    in.compact();
                    readFrom = 0;
                }
                if (channel.read(in) < 0) {
                    return;
                }
                long now = System.nanoTime();
                while (framer.scan(view, readFrom, in.position()) == FixFramer.FRAME) {
                    int length = framer.length();
                    view.getBytes(readFrom, frame, 0, length);
                    readFrom += length;
                    if (FixParser.parse(frame, 0, length, message) != FixParser.OK) {
                        throw new IllegalStateException("unparsable request " + message);
                    }
                    switch (message.msgType()) {
                        case MsgTypes.LOGON -> send(MsgTypes.LOGON, w -> w.field(FixTags.ENCRYPT_METHOD, 0L)
                            .field(FixTags.HEART_BT_INT, 30L).field(FixTags.RESET_SEQ_NUM_FLAG, 'Y'));
                        case MsgTypes.LOGOUT -> send(MsgTypes.LOGOUT, w -> { });
                        // No market data here: refused at once, as a venue without it does, so the generator runs
                        // without its md_update probe instead of waiting its whole --timeout for a snapshot.
                        case MsgTypes.MARKET_DATA_REQUEST -> send(MsgTypes.MARKET_DATA_REQUEST_REJECT, w -> w
                            .field(FixTags.MD_REQ_ID, message.stringValue(FixTags.MD_REQ_ID))
                            .field(FixTags.MD_REQ_REJ_REASON, '0').field(FixTags.TEXT, "no market data here"));
                        case MsgTypes.NEW_ORDER_SINGLE, MsgTypes.ORDER_CANCEL_REQUEST,
                             MsgTypes.ORDER_CANCEL_REPLACE_REQUEST -> {
                            count++;
                            if (count < RECORDED) {
                                readAt[(int) count] = now;
                            }
                            schedule(new Answer(count, now + delayNanos.applyAsLong(count), now, message.msgType(),
                                message.stringValue(FixTags.CL_ORD_ID), message.stringValue(FixTags.SYMBOL),
                                message.byteValue(FixTags.SIDE), message.isSingleByte(FixTags.TIME_IN_FORCE, '3'),
                                Math.max(0, message.longValue(FixTags.ORDER_QTY))));
                            if (count == stallAt) {
                                stall(); // stop reading: the socket fills up
                            }
                        }
                        default -> { }
                    }
                }
            }
        } catch (IOException e) {
            // closed
        }
    }

    /**
     * Parks for {@code stallNanos} in all. One park is not enough: a park may return early, spuriously or at once on
     * a permit left by an earlier unpark (as taking the contended lock in {@link #schedule} can leave), and then the
     * stall the test counts on does not happen: seen returning after 21 and 25 µs in 2 of 33 runs on a loaded
     * machine.
     */
    private void stall() {
        long end = System.nanoTime() + stallNanos;
        for (long left = stallNanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private void schedule(Answer answer) {
        lock.lock();
        try {
            answers.add(answer);
            added.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Sends each answer when it falls due, earliest first; a new answer due earlier wakes the wait. */
    private void answer() {
        try {
            while (!closing) {
                Answer next;
                lock.lock();
                try {
                    next = answers.peek();
                    long wait = next == null ? 100_000_000 : next.due - System.nanoTime();
                    if (wait > 0) {
                        added.awaitNanos(wait);
                        continue;
                    }
                    answers.poll();
                } finally {
                    lock.unlock();
                }
                long taken = System.nanoTime();
                if (next.number < RECORDED) {
                    answeredAt[(int) next.number] = taken; // before the write: the generator cannot read it earlier
                }
                report(next, taken);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void report(Answer a, long taken) {
        char execType = switch (a.msgType) {
            case MsgTypes.ORDER_CANCEL_REQUEST -> '4';
            case MsgTypes.ORDER_CANCEL_REPLACE_REQUEST -> '5';
            default -> a.ioc ? 'F' : '0';
        };
        char status = execType == 'F' ? '2' : execType == '4' ? '4' : '0';
        send(MsgTypes.EXECUTION_REPORT, w -> {
            w.field(FixTags.ORDER_ID, "O" + a.clOrdId).field(FixTags.CL_ORD_ID, a.clOrdId)
                .field(FixTags.EXEC_ID, ++execId).field(FixTags.EXEC_TYPE, execType).field(FixTags.ORD_STATUS, status)
                .field(FixTags.SYMBOL, a.symbol == null ? "?" : a.symbol).field(FixTags.SIDE, (char) a.side)
                .field(FixTags.LEAVES_QTY, execType == '0' || execType == '5' ? a.quantity : 0)
                .field(FixTags.CUM_QTY, execType == 'F' ? a.quantity : 0).field(FixTags.AVG_PX, 0L);
            if (execType == 'F') {
                w.field(FixTags.LAST_QTY, a.quantity).field(FixTags.LAST_PX, 1L);
            }
            if (trace) {
                long queued = a.read + 1_000;
                w.field(FixTags.TRACE_SOCKET_READ, a.read).field(FixTags.TRACE_RING_OFFER, a.read + 500)
                    .field(FixTags.TRACE_MATCH_START, queued).field(FixTags.TRACE_JOURNAL_DONE, a.due)
                    .field(FixTags.TRACE_MATCH_DONE, a.due + 500).field(FixTags.TRACE_RING_TAKEN, taken)
                    .field(FixTags.TRACE_WRITE, System.nanoTime());
            }
        });
    }

    private synchronized void send(int msgType, MessageBody body) {
        out.begin(msgType).field(FixTags.SENDER_COMP_ID, "FIXMATCH").field(FixTags.TARGET_COMP_ID, "LOADGEN")
            .field(FixTags.MSG_SEQ_NUM, nextSeqNum++)
            .timestamp(FixTags.SENDING_TIME, System.currentTimeMillis() * 1_000_000L);
        body.writeBody(out);
        out.finish();
        ByteBuffer bytes = ByteBuffer.wrap(out.buffer(), out.start(), out.length());
        try {
            while (bytes.hasRemaining()) {
                connection.write(bytes);
            }
        } catch (IOException e) {
            // the generator went away
        }
    }

    @Override
    public void close() throws Exception {
        closing = true;
        server.close();
        SocketChannel channel = connection;
        if (channel != null) {
            channel.close();
        }
        writer.interrupt();
        reader.join(2000);
        writer.join(2000);
    }
}
