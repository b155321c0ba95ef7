package io.fixmatch.loadgen.client;

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
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A minimal FIX 4.4 initiator on the project's allocation-free codec, made for measuring: one TCP connection, a
 * sender side safe to call from any thread, and one reader thread that frames and parses what arrives, answers
 * TestRequests, checks the acceptor's sequence numbers, and hands execution reports to the {@link RequestTracker}.
 * Logs on with ResetSeqNumFlag=Y: every run starts a fresh session day.
 *
 * <p>The socket is non-blocking so that the sender can tell the acceptor's back-pressure (the socket refusing bytes
 * because the acceptor does not read) from its own slowness: the time spent waiting for the socket to take the rest
 * of a message is {@link #lastBackpressureNanos()}.
 */
public final class FixClient implements AutoCloseable {
    private static final int MAX_MESSAGE = 8192;

    private final SocketChannel channel;
    private final byte[] senderCompId;
    private final byte[] targetCompId;
    private final Listener listener;
    private final FixWriter writer = new FixWriter(MAX_MESSAGE);
    private final ByteBuffer writeView = ByteBuffer.wrap(writer.buffer());
    private final CountDownLatch loggedOn = new CountDownLatch(1);
    private final CountDownLatch loggedOut = new CountDownLatch(1);
    private final Thread reader;
    private final Selector readSelector;
    private final Selector writeSelector;
    private long lastBackpressureNanos;
    private long nextOutgoing = 1;
    private long nextIncoming = 1;
    private volatile boolean closing;
    private volatile boolean loggingOut;
    private volatile long sequenceGaps;
    private volatile String logoutText;

    /** What the client reports: application messages (and session Rejects), and anything that went wrong. */
    public interface Listener {
        /** Called on the reader thread; the message is reused afterwards. */
        void onMessage(FixMessage message, long receivedNanos);

        void onProblem(String description);
    }

    /** Told, under the send lock, the moment a request's bytes are about to be written, and its MsgSeqNum. */
    public interface WriteListener {
        void beforeWrite(long seqNum, long nanos);
    }

    public FixClient(String host, int port, String senderCompId, String targetCompId, Listener listener) {
        this(host, port, senderCompId, targetCompId, listener, 0);
    }

    /** @param sendBufferBytes SO_SNDBUF of our socket; 0 leaves the system's (auto-tuned) default */
    public FixClient(String host, int port, String senderCompId, String targetCompId, Listener listener,
                     int sendBufferBytes) {
        this.senderCompId = senderCompId.getBytes(StandardCharsets.US_ASCII);
        this.targetCompId = targetCompId.getBytes(StandardCharsets.US_ASCII);
        this.listener = listener;
        try {
            channel = SocketChannel.open();
            if (sendBufferBytes > 0) {
                channel.setOption(StandardSocketOptions.SO_SNDBUF, sendBufferBytes);
            }
            channel.connect(new InetSocketAddress(host, port));
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            readSelector = Selector.open();
            writeSelector = Selector.open();
            channel.register(readSelector, SelectionKey.OP_READ);
            channel.register(writeSelector, SelectionKey.OP_WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot connect to " + host + ":" + port, e);
        }
        reader = new Thread(this::readLoop, "fix-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Why a Logon was not answered: one line. */
    public static final class LogonFailed extends Exception {
        private static final long serialVersionUID = 1L;

        LogonFailed(String message) {
            super(message);
        }
    }

    /** Logs on and waits for the acceptor's Logon; throws if it does not come. */
    public void logon(int heartbeatSeconds, long timeoutSeconds) throws InterruptedException, LogonFailed {
        logonBy(heartbeatSeconds, System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds));
    }

    /**
     * Logs on and waits until {@code deadlineNanos} ({@link System#nanoTime()}) for the acceptor's Logon; throws at
     * once if it answers with a Logout or the connection ends, at the deadline if nothing comes.
     */
    public void logonBy(int heartbeatSeconds, long deadlineNanos) throws InterruptedException, LogonFailed {
        try {
            send(MsgTypes.LOGON, w -> w.field(FixTags.ENCRYPT_METHOD, 0L).field(FixTags.HEART_BT_INT, heartbeatSeconds)
                .field(FixTags.RESET_SEQ_NUM_FLAG, 'Y'));
        } catch (UncheckedIOException e) {
            throw new LogonFailed("the connection closed before the Logon was sent");
        }
        while (!loggedOn.await(10, TimeUnit.MILLISECONDS)) {
            if (loggedOut.getCount() == 0) {
                throw new LogonFailed(logoutText != null ? "Logon refused: " + logoutText
                    : "the connection closed without a Logon reply");
            }
            if (System.nanoTime() - deadlineNanos >= 0) {
                throw new LogonFailed("no Logon reply");
            }
        }
    }

    /** Sends a message with the next sequence number: header, then the body; safe from any thread. */
    public void send(int msgType, MessageBody body) {
        sendRequest(msgType, body, null);
    }

    /**
     * As {@link #send}, telling {@code writeListener} (if not null) when the bytes are about to be written. After it
     * returns, {@link #lastBackpressureNanos()} says how long the socket kept the message waiting.
     */
    public synchronized void sendRequest(int msgType, MessageBody body, WriteListener writeListener) {
        long seqNum = nextOutgoing;
        writer.begin(msgType)
            .field(FixTags.SENDER_COMP_ID, senderCompId)
            .field(FixTags.TARGET_COMP_ID, targetCompId)
            .field(FixTags.MSG_SEQ_NUM, nextOutgoing++)
            .timestamp(FixTags.SENDING_TIME, System.currentTimeMillis() * 1_000_000L);
        body.writeBody(writer);
        writer.finish();
        writeView.limit(writer.start() + writer.length()).position(writer.start());
        lastBackpressureNanos = 0;
        try {
            if (writeListener != null) {
                writeListener.beforeWrite(seqNum, System.nanoTime());
            }
            channel.write(writeView);
            if (writeView.hasRemaining()) {
                awaitSocket();
            }
        } catch (ClosedByInterruptException e) {
            // JLBH interrupts its thread to abort a run (no answers within the timeout): stop sending, report later.
            closing = true;
            listener.onProblem("sending stopped: the run was aborted");
        } catch (IOException e) {
            if (!closing) {
                throw new UncheckedIOException("connection lost while sending", e);
            }
        }
    }

    /** The acceptor's back-pressure: the socket's buffer is full, so wait until it takes the rest of the message. */
    private void awaitSocket() throws IOException {
        long start = System.nanoTime();
        while (writeView.hasRemaining()) {
            writeSelector.select(100);
            writeSelector.selectedKeys().clear();
            if (Thread.currentThread().isInterrupted()) {
                throw new ClosedByInterruptException();
            }
            channel.write(writeView);
        }
        lastBackpressureNanos = Math.max(1, System.nanoTime() - start);
    }

    /** How long the last message sent waited for the socket to take it (the acceptor's back-pressure); 0 if not. */
    public synchronized long lastBackpressureNanos() {
        return lastBackpressureNanos;
    }

    public void logout(long timeoutSeconds) throws InterruptedException {
        loggingOut = true;
        send(MsgTypes.LOGOUT, MessageBody.EMPTY);
        loggedOut.await(timeoutSeconds, TimeUnit.SECONDS);
    }

    public long sequenceGaps() {
        return sequenceGaps;
    }

    @Override
    public void close() {
        closing = true;
        try {
            channel.close();
            readSelector.wakeup();
            reader.join(2000);
            readSelector.close();
            writeSelector.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void readLoop() {
        ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
        UnsafeBuffer view = new UnsafeBuffer(in);
        FixFramer framer = new FixFramer(MAX_MESSAGE);
        byte[] frame = new byte[MAX_MESSAGE];
        FixMessage message = new FixMessage();
        int readFrom = 0;
        try {
            while (!closing) {
                if (in.capacity() - in.position() < MAX_MESSAGE) { // move the unread tail to the front
                    in.limit(in.position()).position(readFrom);
                    in.compact();
                    readFrom = 0;
                }
                int read = channel.read(in);
                if (read < 0) {
                    break;
                }
                if (read == 0) {
                    readSelector.select();
                    readSelector.selectedKeys().clear();
                    continue;
                }
                long nowNanos = System.nanoTime();
                int kind;
                while ((kind = framer.scan(view, readFrom, in.position())) != FixFramer.NEED_MORE) {
                    int length = framer.length();
                    if (kind != FixFramer.FRAME) {
                        listener.onProblem("unreadable bytes from the acceptor (framer result " + kind + ")");
                        readFrom += Math.max(1, length);
                        continue;
                    }
                    view.getBytes(readFrom, frame, 0, length);
                    readFrom += length;
                    if (FixParser.parse(frame, 0, length, message) != FixParser.OK) {
                        listener.onProblem("unparsable message from the acceptor");
                        continue;
                    }
                    onMessage(message, nowNanos);
                }
            }
        } catch (IOException e) {
            if (!closing && loggedOn.getCount() == 0) { // before the Logon, logonBy() says why it failed
                listener.onProblem("connection lost: " + e.getMessage());
            }
        } catch (RuntimeException | Error e) {
            // A reader that dies silently would look like a server that stopped answering.
            if (!closing) {
                listener.onProblem("reader thread failed: " + e);
                e.printStackTrace();
            }
        } finally {
            loggedOut.countDown();
        }
    }

    private void onMessage(FixMessage message, long nowNanos) {
        long seqNum = message.longValue(FixTags.MSG_SEQ_NUM);
        if (message.msgType() == MsgTypes.LOGON) {
            nextIncoming = seqNum + 1;
            loggedOn.countDown();
            return;
        }
        if (seqNum != nextIncoming) {
            sequenceGaps++;
            listener.onProblem("MsgSeqNum " + seqNum + " from the acceptor, expected " + nextIncoming);
        }
        nextIncoming = seqNum + 1;
        switch (message.msgType()) {
            case MsgTypes.HEARTBEAT -> { }
            case MsgTypes.TEST_REQUEST -> {
                int field = message.indexOf(FixTags.TEST_REQ_ID);
                if (field >= 0) {
                    send(MsgTypes.HEARTBEAT, w -> w.copyField(message, field));
                }
            }
            case MsgTypes.LOGOUT -> {
                logoutText = message.stringValue(FixTags.TEXT);
                if (!loggingOut && loggedOn.getCount() == 0) { // before the Logon, logonBy() reports it
                    listener.onProblem("the acceptor logged us out: " + logoutText);
                }
                loggedOut.countDown();
            }
            case MsgTypes.RESEND_REQUEST -> listener.onProblem("the acceptor asked for a resend");
            default -> listener.onMessage(message, nowNanos);
        }
    }
}
