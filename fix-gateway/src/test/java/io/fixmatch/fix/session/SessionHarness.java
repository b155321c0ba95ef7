package io.fixmatch.fix.session;

import io.fixmatch.fix.app.VenueDictionary;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.codec.MessageBody;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A real {@link FixSession} (acceptor ISLD, client TW) on a real {@link SessionStore} in a folder, driven message by
 * message as a connection would drive it: what it sends is parsed back into {@link #sent}, the application messages
 * it delivers are kept in {@link #delivered}. For the session's state-machine tests; reopen the same folder to
 * simulate a restart.
 */
final class SessionHarness implements AutoCloseable {
    static final long START_MS = 1_795_000_000_000L;
    private static final int MAX_MESSAGE = 4096;

    final Path directory;
    final SessionStore store;
    final FixSession session;
    final List<FixMessage> sent = new ArrayList<>();
    final List<FixMessage> delivered = new ArrayList<>();
    final Transport transport = new Transport();
    /** What the application does with each delivered message (default: keep it only). */
    Consumer<FixMessage> onApplicationMessage = message -> { };
    long nowMs = START_MS;
    private final FixWriter writer = new FixWriter(MAX_MESSAGE);

    SessionHarness(Path directory) {
        this(directory, null);
    }

    /** A session a cluster owns: its requests go to {@code clusterRequests} (see {@link FixSession}). */
    SessionHarness(Path directory, SessionRequests clusterRequests) {
        this.directory = directory;
        this.store = new SessionStore(directory);
        this.session = new FixSession(new SessionConfig("TW", null, null, false, false), 1, "ISLD", store,
            new SessionTimings(10_000, 5_000, 120_000), new ApplicationHandler() {
                @Override
                public void onApplicationMessage(FixSession fixSession, FixMessage message, long wallClockMs) {
                    FixMessage copy = copy(message.buffer(), message.offset(), message.length());
                    delivered.add(copy);
                    onApplicationMessage.accept(copy);
                }

                @Override
                public void onDisconnected(FixSession fixSession) {
                }
            }, MAX_MESSAGE, VenueDictionary.get(), clusterRequests);
        session.claimOwnership();
    }

    /** A Logon from the client with this MsgSeqNum (30 s heartbeats); returns the session's verdict. */
    FixSession.LogonResult logon(long seqNum, boolean reset) {
        writer.begin(MsgTypes.LOGON).field(49, "TW").field(56, "ISLD").field(34, seqNum).timestamp(52, nowMs * 1_000_000L)
            .field(98, 0L).field(108, 30L);
        if (reset) {
            writer.field(141, 'Y');
        }
        writer.finish();
        FixMessage logon = copy(writer.buffer(), writer.start(), writer.length());
        return session.onLogon(logon, transport, nowMs);
    }

    /** A message from the client: header with this MsgSeqNum, then {@code body}'s fields. */
    void receive(int msgType, long seqNum, MessageBody body) {
        writer.begin(msgType).field(49, "TW").field(56, "ISLD").field(34, seqNum).timestamp(52, nowMs * 1_000_000L);
        body.writeBody(writer);
        writer.finish();
        session.onMessage(copy(writer.buffer(), writer.start(), writer.length()), nowMs);
    }

    /** A resent message: PossDupFlag=Y and OrigSendingTime, as an engine resends. */
    void receiveResent(int msgType, long seqNum, MessageBody body) {
        receive(msgType, seqNum, w -> {
            w.field(43, 'Y').timestamp(122, (nowMs - 1_000) * 1_000_000L);
            body.writeBody(w);
        });
    }

    /** A NewOrderSingle's body, valid against the venue dictionary the session checks every message with. */
    static MessageBody order(String clOrdId) {
        return w -> w.field(11, clOrdId).field(55, "AAPL").field(54, '1').timestamp(60, START_MS * 1_000_000L)
            .field(38, 10L).field(40, '2').field(44, "1.00");
    }

    /** The MsgTypes of what the session sent, in order, as characters. */
    String sentTypes() {
        StringBuilder types = new StringBuilder();
        for (FixMessage message : sent) {
            types.append((char) message.msgType());
        }
        return types.toString();
    }

    FixMessage lastSent() {
        return sent.get(sent.size() - 1);
    }

    /** The sent messages of this type. */
    List<FixMessage> sent(int msgType) {
        return sent.stream().filter(m -> m.msgType() == msgType).toList();
    }

    static FixMessage copy(byte[] buffer, int offset, int length) {
        byte[] bytes = Arrays.copyOfRange(buffer, offset, offset + length);
        FixMessage message = new FixMessage();
        if (FixParser.parse(bytes, 0, bytes.length, message) != FixParser.OK) {
            throw new AssertionError("does not parse: " + new String(bytes).replace('\u0001', '|'));
        }
        return message;
    }

    @Override
    public void close() {
        session.close();
    }

    /** Parses every message handed to it into {@link #sent}. */
    final class Transport implements SessionTransport {
        boolean disconnected;
        boolean aborted;

        @Override
        public void send(byte[] message, int offset, int length) {
            sent.add(copy(message, offset, length));
        }

        @Override
        public int flush() {
            return 0;
        }

        @Override
        public void disconnect() {
            disconnected = true;
            session.onConnectionClosed();
        }

        @Override
        public void abort() {
            aborted = true;
            disconnected = true;
        }

        @Override
        public String remoteAddress() {
            return "test";
        }
    }
}
