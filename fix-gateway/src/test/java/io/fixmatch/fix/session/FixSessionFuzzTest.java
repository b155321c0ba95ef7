package io.fixmatch.fix.session;

import ch.qos.logback.classic.Level;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.fixmatch.fix.codec.FixFramer;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Coverage-guided fuzzing of a real {@link FixSession} (the acceptor side), with a real {@link SessionStore} in a
 * temporary folder, a recording {@link SessionTransport} and a recording {@link ApplicationHandler} (real
 * implementations of our interfaces). Each input is a Logon then up to 64 steps: raw bytes through the framer and
 * parser (as the connection handler feeds the session), structured messages with sequence numbers near the
 * expected one, clock advances with the periodic timer, application messages sent to the client, a server Logout.
 * Properties:
 * <ul>
 *   <li>nothing throws;</li>
 *   <li>everything sent is a well-framed FIX 4.4 message from ISLD to TW; new messages are numbered 1, 2, 3 ...
 *       without gaps (resends and gap fills reuse lower numbers); nothing is sent after the session asked for the
 *       connection to be closed;</li>
 *   <li>the next expected incoming number never goes down, and the application never gets a message twice or out
 *       of order;</li>
 *   <li>a malformed message with the expected number is answered with a Reject (or a Logout).</li>
 * </ul>
 * Regression mode runs {@code FixSessionFuzzTestInputs}; docs/FUZZING.md says how to fuzz.
 */
class FixSessionFuzzTest {
    private static final long START_MS = 1_795_000_000_000L;
    private static final int MAX_MESSAGE = 8192;
    private static final int INPUTS_PER_STORE = 5_000;
    private static final int[] TYPES = {'0', '1', '2', '3', '4', '5', 'A', 'D', 'F', 'G', 'H', 'R', '8', '*'};
    private static final int[] TAGS = {7, 16, 36, 123, 112, 45, 58, 11, 55, 54, 38, 40, 44, 60, 141, 98, 108, 43, 122,
        97, 34, 49, 56, 52, 35, 10};
    private static final String[] VALUES = {"0", "1", "2", "Y", "N", "-1", "999999999999999999999", "", "X",
        "20261123-14:00:00.000", "20261123-13:59:00", "99991231-23:59:59", "ISLD", "TW", "1.5"};

    private static Path directory;
    private static SessionStore store;
    private static int inputsOnStore;

    static {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.fixmatch")).setLevel(Level.OFF);
        Runtime.getRuntime().addShutdownHook(new Thread(FixSessionFuzzTest::dropStore));
    }

    /** One store for many inputs (reset for each), replaced now and then so that its files stay small. */
    private static synchronized SessionStore store() {
        if (store == null || ++inputsOnStore > INPUTS_PER_STORE) {
            dropStore();
            try {
                directory = Files.createTempDirectory("session-fuzz");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            store = new SessionStore(directory);
            inputsOnStore = 0;
        }
        store.reset();
        return store;
    }

    private static synchronized void dropStore() {
        if (store == null) {
            return;
        }
        store.close();
        store = null;
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "30m")
    void anyConversation(FuzzedDataProvider data) {
        new Conversation(data).run();
    }

    /** One input's run. */
    private static final class Conversation {
        private final FuzzedDataProvider data;
        private final RecordingTransport transport = new RecordingTransport();
        private final RecordingApplication application = new RecordingApplication();
        private final FixSession session = new FixSession(new SessionConfig("TW", null, null, false, false), 1, "ISLD",
            store(), new SessionTimings(10_000, 5_000, 120_000), application, MAX_MESSAGE);
        private final FixFramer framer = new FixFramer(MAX_MESSAGE);
        private final FixMessage message = new FixMessage();
        private final FixWriter writer = new FixWriter(MAX_MESSAGE);
        private long nowMs = START_MS;
        private long expectedFloor;
        private int applicationSends;

        Conversation(FuzzedDataProvider data) {
            this.data = data;
        }

        void run() {
            session.claimOwnership(); // this thread plays the gateway thread that owns the session
            logon();
            for (int step = 0; step < 64 && data.remainingBytes() > 0; step++) {
                switch (data.consumeInt(0, 4)) {
                    case 0 -> feed(data.consumeBytes(data.consumeInt(0, 400)));
                    case 1 -> feed(structured());
                    case 2 -> {
                        nowMs += data.consumeLong(0, 70_000);
                        session.onTimer(nowMs);
                    }
                    case 3 -> {
                        if (applicationSends++ < 2) {
                            session.sendApplication(MsgTypes.EXECUTION_REPORT, w -> w.field(37, "O1").field(17, "E1")
                                .field(150, '0').field(39, '0').field(55, "INTC").field(54, '1'), nowMs);
                        }
                    }
                    default -> session.logout("fuzz", nowMs);
                }
                afterCall();
            }
            transport.check();
        }

        private void logon() {
            writer.begin(MsgTypes.LOGON).field(49, "TW").field(56, "ISLD").field(34, data.consumeLong(0, 4))
                .field(52, stamp(nowMs + data.consumeInt(-200_000, 200_000)));
            if (data.consumeBoolean()) {
                writer.field(98, (long) data.consumeInt(0, 1));
            }
            writer.field(108, (long) data.consumeInt(-1, 40));
            if (data.consumeBoolean()) {
                writer.field(141, data.consumeBoolean() ? 'Y' : 'N');
            }
            writer.finish();
            byte[] logon = Arrays.copyOfRange(writer.buffer(), writer.start(), writer.start() + writer.length());
            if (FixParser.parse(logon, 0, logon.length, message) == FixParser.OK) {
                session.onLogon(message, transport, nowMs);
            }
            afterCall();
        }

        /** A message of a chosen type, numbered near the expected number, with a few chosen fields. */
        private byte[] structured() {
            long seqNum = session.nextTargetSeqNum() + data.consumeInt(-3, 3);
            writer.begin(TYPES[data.consumeInt(0, TYPES.length - 1)]).field(49, "TW").field(56, "ISLD")
                .field(34, seqNum).field(52, stamp(nowMs + data.consumeInt(-200_000, 200_000)));
            if (data.consumeBoolean()) {
                writer.field(43, 'Y');
                if (data.consumeBoolean()) {
                    writer.field(122, stamp(nowMs + data.consumeInt(-200_000, 200_000)));
                }
            }
            int fields = data.consumeInt(0, 6);
            for (int i = 0; i < fields; i++) {
                int tag = TAGS[data.consumeInt(0, TAGS.length - 1)];
                String value = data.consumeBoolean() ? VALUES[data.consumeInt(0, VALUES.length - 1)]
                    : String.valueOf(session.nextTargetSeqNum() + data.consumeInt(-5, 5));
                writer.field(tag, value);
            }
            writer.finish();
            return Arrays.copyOfRange(writer.buffer(), writer.start(), writer.start() + writer.length());
        }

        /** As the connection handler: frame, parse, hand each message to the session. */
        private void feed(byte[] bytes) {
            UnsafeBuffer in = new UnsafeBuffer(bytes);
            int position = 0;
            while (position < bytes.length) {
                int kind = framer.scan(in, position, bytes.length);
                if (kind == FixFramer.NEED_MORE || kind == FixFramer.TOO_LARGE) {
                    return;
                }
                if (kind == FixFramer.FRAME) {
                    int parsed = FixParser.parse(bytes, position, framer.length(), message);
                    if (parsed == FixParser.OK) {
                        session.onMessage(message, nowMs);
                    } else {
                        boolean inSequence = session.isLoggedOn()
                            && message.longValue(34) == session.nextTargetSeqNum();
                        int sentBefore = transport.sentCount();
                        session.onMalformed(message, parsed, nowMs);
                        if (inSequence) {
                            assertTrue(transport.lastSentIsRejectOrLogout(sentBefore),
                                "a malformed message in sequence got no Reject: " + message);
                        }
                    }
                    afterCall();
                }
                position += framer.length();
            }
        }

        /** The connection closes when the session asks; the expected number never goes down. */
        private void afterCall() {
            if (transport.disconnectRequested && !transport.closed) {
                transport.closed = true;
                session.onConnectionClosed();
            }
            long expected = session.nextTargetSeqNum();
            assertTrue(expected >= expectedFloor, "next expected went down from " + expectedFloor + " to " + expected);
            expectedFloor = expected;
        }

        private String stamp(long epochMs) {
            byte[] text = new byte[21];
            new io.fixmatch.fix.codec.FixTimestamps().write(epochMs * 1_000_000L, text, 0);
            return new String(text, StandardCharsets.US_ASCII);
        }
    }

    /** Our transport interface, recording: what was sent, and whether a close was asked for. */
    private static final class RecordingTransport implements SessionTransport {
        private final List<byte[]> sent = new ArrayList<>();
        private final List<String> sentAfterDisconnect = new ArrayList<>();
        boolean disconnectRequested;
        boolean closed;

        @Override
        public void send(byte[] message, int offset, int length) {
            byte[] copy = Arrays.copyOfRange(message, offset, offset + length);
            if (disconnectRequested) {
                sentAfterDisconnect.add(text(copy));
            }
            sent.add(copy);
        }

        @Override
        public int flush() {
            return 0; // the sent messages are recorded as they are queued
        }

        @Override
        public void disconnect() {
            disconnectRequested = true;
        }

        @Override
        public String remoteAddress() {
            return "fuzz";
        }

        int sentCount() {
            return sent.size();
        }

        /** Whether something was sent since {@code before} messages, ending in a Reject or a Logout. */
        boolean lastSentIsRejectOrLogout(int before) {
            if (sent.size() == before) {
                return false;
            }
            String last = text(sent.get(sent.size() - 1));
            return last.contains("|35=3|") || last.contains("|35=5|");
        }

        void check() {
            assertEquals(List.of(), sentAfterDisconnect, "sent after asking for the connection to be closed");
            FixFramer framer = new FixFramer(MAX_MESSAGE + 64);
            FixMessage message = new FixMessage();
            long lastNew = 0;
            for (byte[] bytes : sent) {
                assertEquals(FixFramer.FRAME, framer.scan(new UnsafeBuffer(bytes), 0, bytes.length), text(bytes));
                assertEquals(bytes.length, framer.length(), text(bytes));
                assertEquals(FixParser.OK, FixParser.parse(bytes, 0, bytes.length, message), text(bytes));
                assertTrue(message.valueEquals(49, "ISLD".getBytes(StandardCharsets.US_ASCII))
                    && message.valueEquals(56, "TW".getBytes(StandardCharsets.US_ASCII)), text(bytes));
                long seqNum = message.longValue(34);
                if (message.isSingleByte(43, 'Y')) {
                    assertTrue(seqNum <= lastNew, "a resend above the last new message: " + text(bytes));
                } else if (message.msgType() == MsgTypes.LOGON && message.isSingleByte(141, 'Y') && seqNum == 1) {
                    lastNew = 1;
                } else {
                    if (seqNum != lastNew + 1) {
                        fail("MsgSeqNum " + seqNum + " after " + lastNew + ": " + text(bytes));
                    }
                    lastNew = seqNum;
                }
            }
        }

        private static String text(byte[] bytes) {
            return new String(bytes, StandardCharsets.ISO_8859_1).replace('\u0001', '|');
        }
    }

    /** Our application interface, recording: each message must come once and in order. */
    private static final class RecordingApplication implements ApplicationHandler {
        private long lastSeqNum;

        @Override
        public void onApplicationMessage(FixSession session, FixMessage message, long nowMs) {
            long seqNum = message.longValue(34);
            assertTrue(seqNum > lastSeqNum, "application got " + seqNum + " after " + lastSeqNum);
            lastSeqNum = seqNum;
        }

        @Override
        public void onDisconnected(FixSession session) {
            // nothing to cancel
        }
    }
}
