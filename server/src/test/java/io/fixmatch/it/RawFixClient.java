package io.fixmatch.it;

import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.server.WaitBounds;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.fixmatch.fix.codec.testing.FixBuilder.SOH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A FIX "client" over a plain {@link Socket}: writes whatever bytes the test gives it and collects what the server
 * sends, framed by BodyLength and checked (BodyLength, CheckSum, BeginString). Nothing is answered automatically.
 */
public final class RawFixClient implements AutoCloseable {
    static final Duration TIMEOUT = WaitBounds.ANSWER;
    static final String SERVER = "FIXMATCH";

    private final Socket socket;
    private final OutputStream out;
    private final BlockingQueue<RawFix.Msg> received = new LinkedBlockingQueue<>();
    private final List<String> framingErrors = new CopyOnWriteArrayList<>();
    private final CountDownLatch closedByPeer = new CountDownLatch(1);
    private final Thread reader;
    final String compId;
    private long nextSeqNum = 1;

    public RawFixClient(int port, String compId) throws IOException {
        this(port, compId, null);
    }

    /** Connecting from {@code localAddress} (another loopback address such as 127.0.0.2), or any if null. */
    public RawFixClient(int port, String compId, String localAddress) throws IOException {
        this(connect(port, localAddress), compId);
    }

    /** Over a socket already connected, e.g. a TLS socket whose handshake is done. */
    RawFixClient(Socket socket, String compId) throws IOException {
        this.compId = compId;
        this.socket = socket;
        out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        reader = new Thread(() -> read(in), "raw-fix-" + compId);
        reader.setDaemon(true);
        reader.start();
    }

    private static Socket connect(int port, String localAddress) throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        if (localAddress != null) {
            socket.bind(new InetSocketAddress(localAddress, 0));
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), (int) TIMEOUT.toMillis());
        return socket;
    }

    /** Connects and logs on with ResetSeqNumFlag=Y and MsgSeqNum 1; returns the server's Logon. */
    static RawFixClient loggedOn(int port, String compId, int heartBtInt) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            RawFixClient client = new RawFixClient(port, compId);
            try {
                client.send(client.header("A").field(98, 0).field(108, heartBtInt).field(141, "Y"));
                RawFix.Msg reply = client.next();
                if (reply.type().equals("A")) {
                    assertEquals("Y", reply.get(141), "ResetSeqNumFlag echoed: " + reply);
                    assertEquals(1, reply.seqNum(), "server's Logon after a reset: " + reply);
                    return client;
                }
                // The server may not have seen the previous connection of this CompID close yet: retry.
                String text = reply.get(58);
                if (!reply.type().equals("5") || text == null || !text.contains("already logged on")
                    || System.nanoTime() > deadline) {
                    fail("logon refused: " + reply);
                }
                client.close();
            } catch (Throwable e) {
                client.close();
                throw e;
            }
        }
    }

    /** The next MsgSeqNum this client sends, then counts it as used. */
    long takeSeqNum() {
        return nextSeqNum++;
    }

    long peekSeqNum() {
        return nextSeqNum;
    }

    void seqNum(long next) {
        nextSeqNum = next;
    }

    /** A message of this type with the standard header and the next MsgSeqNum (counted as used). */
    FixBuilder header(String msgType) {
        return FixBuilder.header(msgType, compId, SERVER, takeSeqNum());
    }

    /** A NewOrderSingle: limit buy of {@code qty} at {@code price}, day. */
    FixBuilder newOrder(String clOrdId, String symbol, String side, int qty, String price) {
        return header("D").field(11, clOrdId).field(55, symbol).field(54, side).field(60, FixBuilder.now())
            .field(38, qty).field(40, 2).field(44, price);
    }

    void send(FixBuilder message) throws IOException {
        send(message.bytes());
    }

    public synchronized void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            all.writeBytes(part);
        }
        return all.toByteArray();
    }

    /** The next message from the server, waiting up to {@link #TIMEOUT}; fails if none comes. */
    RawFix.Msg next() throws InterruptedException {
        RawFix.Msg message = received.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (message == null) {
            fail(compId + ": no message from the server within " + TIMEOUT
                + (closedByPeer.getCount() == 0 ? " (connection closed by the server)" : ""));
        }
        assertFramedCorrectly();
        return message;
    }

    /** The next message from the server, or null if none comes within {@code timeout}. */
    public RawFix.Msg poll(Duration timeout) throws InterruptedException {
        RawFix.Msg message = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (message != null) {
            assertFramedCorrectly();
        }
        return message;
    }

    /** Whether the server closes the connection within {@code timeout}. */
    public boolean awaitClosed(Duration timeout) throws InterruptedException {
        return closedByPeer.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next message, which must be of this type. */
    RawFix.Msg expect(String msgType) throws InterruptedException {
        RawFix.Msg message = next();
        assertEquals(msgType, message.type(), "MsgType of " + message);
        return message;
    }

    /** Skips messages until one matches (bounded by the timeout of each wait). */
    RawFix.Msg nextMatching(Predicate<RawFix.Msg> condition, int maxSkipped) throws InterruptedException {
        for (int i = 0; i <= maxSkipped; i++) {
            RawFix.Msg message = next();
            if (condition.test(message)) {
                return message;
            }
        }
        return fail(compId + ": no matching message among the next " + (maxSkipped + 1));
    }

    /** Waits until the server closes the connection; fails after the timeout. */
    void awaitClosedByServer(Duration timeout) throws InterruptedException {
        if (!closedByPeer.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            fail(compId + ": the server did not close the connection within " + timeout);
        }
    }

    /** After the server closed: nothing else was received. */
    void assertNothingMoreReceived() {
        RawFix.Msg extra = received.poll();
        if (extra != null) {
            fail(compId + ": unexpected message " + extra);
        }
    }

    public boolean isClosedByServer() {
        return closedByPeer.getCount() == 0;
    }

    void assertFramedCorrectly() {
        if (!framingErrors.isEmpty()) {
            fail(compId + ": the server sent badly framed messages: " + framingErrors);
        }
    }

    /** Logs out cleanly: Logout, the server's Logout, then the server closes. */
    void logout() throws InterruptedException, IOException {
        send(header("5"));
        RawFix.Msg reply = next();
        assertEquals("5", reply.type(), "Logout reply: " + reply);
        awaitClosedByServer(TIMEOUT);
    }

    /** Closes with a reset (SO_LINGER 0): the connection is gone at once, as when a client's host vanishes. */
    void resetAndClose() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private void read(InputStream in) {
        byte[] buffer = new byte[1 << 16];
        ByteArrayOutputStream pending = new ByteArrayOutputStream();
        try {
            int count;
            while ((count = in.read(buffer)) >= 0) {
                pending.write(buffer, 0, count);
                pending = frame(pending);
            }
        } catch (IOException e) {
            // socket closed (by us, or reset by the server): the same as an end of stream here
        } finally {
            closedByPeer.countDown();
        }
    }

    /** Takes every whole message off the front of {@code pending}; returns what is left. */
    private ByteArrayOutputStream frame(ByteArrayOutputStream pending) {
        String text = pending.toString(StandardCharsets.ISO_8859_1);
        int start = 0;
        while (true) {
            int bodyLengthTag = text.indexOf(SOH + "9=", start);
            if (bodyLengthTag < 0) {
                break;
            }
            int bodyStart = text.indexOf(SOH, bodyLengthTag + 1);
            if (bodyStart < 0) {
                break;
            }
            int bodyLength = Integer.parseInt(text.substring(bodyLengthTag + 3, bodyStart));
            int end = bodyStart + 1 + bodyLength + 7;
            if (end > text.length()) {
                break;
            }
            String raw = text.substring(start, end);
            check(raw, bodyLength, bodyStart + 1 - start);
            received.add(RawFix.Msg.parse(raw));
            start = end;
        }
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        rest.writeBytes(text.substring(start).getBytes(StandardCharsets.ISO_8859_1));
        return rest;
    }

    private void check(String raw, int bodyLength, int headerLength) {
        String trailer = raw.substring(headerLength + bodyLength);
        String expected = FixBuilder.trailer(raw.substring(0, headerLength + bodyLength));
        if (!raw.startsWith("8=FIX.4.4" + SOH + "9=")) {
            framingErrors.add("bad BeginString: " + raw.replace(SOH, '|'));
        }
        if (!trailer.equals(expected)) {
            framingErrors.add("bad BodyLength or CheckSum (expected " + expected.trim() + "): "
                + raw.replace(SOH, '|'));
        }
        if (!raw.startsWith("35=", headerLength)) {
            framingErrors.add("MsgType is not the third field: " + raw.replace(SOH, '|'));
        }
    }

    static void assertField(RawFix.Msg message, int tag, Object expected) {
        assertNotNull(message.get(tag), "tag " + tag + " missing from " + message);
        assertEquals(String.valueOf(expected), message.get(tag), "tag " + tag + " of " + message);
    }
}
