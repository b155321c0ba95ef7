package io.fixmatch.fix.session;

import io.fixmatch.fix.app.VenueDictionary;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTimestamps;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real {@link FixSession} (real store in a temporary folder) fed parsed messages as its connection would: what it
 * does with sequence numbers out of order (messages kept while a gap is open, one ResendRequest at a time), and
 * with a Logon that resets the numbers while logged on. Its answers are read from a recording transport.
 */
class SessionSequenceTest {
    private static final long NOW_MS = 1_795_000_000_000L;

    @TempDir
    Path dir;

    private final List<String> sent = new ArrayList<>();
    private final List<String> application = new ArrayList<>();
    private final FixWriter writer = new FixWriter(2048);
    private final FixMessage message = new FixMessage();
    private FixSession session;

    private final SessionTransport transport = new SessionTransport() {
        @Override
        public void send(byte[] bytes, int offset, int length) {
            sent.add(new String(bytes, offset, length, StandardCharsets.US_ASCII).replace('\u0001', '|'));
        }

        @Override
        public int flush() {
            return 0;
        }

        @Override
        public void disconnect() {
            sent.add("DISCONNECT");
        }

        @Override
        public String remoteAddress() {
            return "test";
        }
    };

    @BeforeEach
    void logOn() {
        session = new FixSession(new SessionConfig("TW", null, null, false), 1, "ISLD", new SessionStore(dir),
            SessionTimings.defaults(), new ApplicationHandler() {
                @Override
                public void onApplicationMessage(FixSession s, FixMessage m, long nowMs) {
                    application.add(m.stringValue(11) + "@" + m.longValue(34));
                }

                @Override
                public void onDisconnected(FixSession s) {
                }
            }, 8192, VenueDictionary.get());
        session.claimOwnership();
        assertEquals(FixSession.LogonResult.LOGGED_ON,
            session.onLogon(parsed(MsgTypes.LOGON, 1, w -> w.field(98, 0L).field(108, 30L)), transport, NOW_MS));
        String logon = takeSent().get(0);
        assertTrue(logon.contains("|35=A|") && logon.contains("|34=1|"), logon);
    }

    @AfterEach
    void close() {
        session.close();
    }

    private static String stamp(long epochMs) {
        byte[] text = new byte[FixTimestamps.LENGTH];
        new FixTimestamps().write(epochMs * 1_000_000L, text, 0);
        return new String(text, StandardCharsets.US_ASCII);
    }

    private FixMessage parsed(int msgType, long seqNum, Consumer<FixWriter> body) {
        writer.begin(msgType).field(49, "TW").field(56, "ISLD").field(34, seqNum).field(52, stamp(NOW_MS));
        body.accept(writer);
        writer.finish();
        byte[] bytes = Arrays.copyOfRange(writer.buffer(), writer.start(), writer.start() + writer.length());
        assertEquals(FixParser.OK, FixParser.parse(bytes, 0, bytes.length, message));
        return message;
    }

    private void receive(int msgType, long seqNum, Consumer<FixWriter> body) {
        session.onMessage(parsed(msgType, seqNum, body), NOW_MS);
    }

    private void receiveOrder(long seqNum, String clOrdId) {
        receive(MsgTypes.NEW_ORDER_SINGLE, seqNum, w -> w.field(11, clOrdId).field(55, "INTC").field(54, '1')
            .field(60, stamp(NOW_MS)).field(38, 100L).field(40, '1'));
    }

    private List<String> takeSent() {
        List<String> taken = new ArrayList<>(sent);
        sent.clear();
        return taken;
    }

    @Test
    void messagesAboveAGapWaitForItAndOnlyOneResendRequestIsSent() {
        receiveOrder(4, "FOUR"); // expected 2
        List<String> answers = takeSent();
        assertEquals(1, answers.size(), answers.toString());
        assertTrue(answers.get(0).contains("|35=2|") && answers.get(0).contains("|7=2|16=0|"), answers.get(0));

        receive(MsgTypes.TEST_REQUEST, 5, w -> w.field(112, "FIVE"));
        assertEquals(List.of(), takeSent(), "no second ResendRequest while the first is outstanding");
        assertEquals(List.of(), application);

        receiveOrder(2, "TWO");
        assertEquals(List.of("TWO@2"), application, "4 still waits for 3");
        receive(MsgTypes.HEARTBEAT, 3, w -> { });
        assertEquals(List.of("TWO@2", "FOUR@4"), application);
        answers = takeSent();
        assertEquals(1, answers.size(), answers.toString());
        assertTrue(answers.get(0).contains("|35=0|") && answers.get(0).contains("|112=FIVE|"), answers.get(0));
        assertEquals(6, session.nextTargetSeqNum());

        receive(MsgTypes.HEARTBEAT, 8, w -> { });
        answers = takeSent();
        assertTrue(answers.get(0).contains("|35=2|") && answers.get(0).contains("|7=6|16=0|"),
            "the first gap is filled: a new one gets its own request " + answers);
    }

    @Test
    void aGapFillSkipsWhatWasKeptBelowItsNewSeqNo() {
        receiveOrder(3, "THREE");
        receiveOrder(5, "FIVE");
        takeSent();
        receive(MsgTypes.SEQUENCE_RESET, 2, w -> w.field(123, 'Y').field(36, 4L));
        assertEquals(List.of(), application, "3 was skipped by the gap fill; 5 waits for 4");
        receiveOrder(4, "FOUR");
        assertEquals(List.of("FOUR@4", "FIVE@5"), application);
    }

    @Test
    void aResendRequestAboveTheGapIsServedAtOnceAndCountedInItsTurn() {
        receive(MsgTypes.RESEND_REQUEST, 3, w -> w.field(7, 1L).field(16, 0L));
        List<String> answers = takeSent();
        assertTrue(answers.get(0).contains("|35=4|") && answers.get(0).contains("|123=Y|"),
            "our Logon gap-filled at once: " + answers);
        assertTrue(answers.get(1).contains("|35=2|"), "then our request for 2: " + answers);
        receive(MsgTypes.HEARTBEAT, 2, w -> { });
        assertEquals(4, session.nextTargetSeqNum(), "the queued ResendRequest counted, not served again");
        assertEquals(List.of(), takeSent());
    }

    @Test
    void aLogonWithResetSeqNumFlagResetsBothNumbersOnALoggedOnSession() {
        receive(MsgTypes.HEARTBEAT, 2, w -> { });
        receive(MsgTypes.TEST_REQUEST, 3, w -> w.field(112, "A"));
        assertEquals(3, session.nextSenderSeqNum());
        takeSent();

        receive(MsgTypes.LOGON, 1, w -> w.field(98, 0L).field(108, 30L).field(141, 'Y'));
        List<String> answers = takeSent();
        assertEquals(1, answers.size(), answers.toString());
        assertTrue(answers.get(0).contains("|35=A|") && answers.get(0).contains("|34=1|")
            && answers.get(0).contains("|141=Y|"), answers.get(0));
        assertEquals(2, session.nextTargetSeqNum());
        assertEquals(2, session.nextSenderSeqNum());
        assertTrue(session.isLoggedOn());
    }

    @Test
    void aLogoutIsAnsweredWhateverItsNumber() {
        receive(MsgTypes.HEARTBEAT, 2, w -> { });
        receive(MsgTypes.LOGOUT, 2, w -> { }); // too low, no PossDupFlag
        List<String> answers = takeSent();
        assertTrue(answers.get(0).contains("|35=5|"), answers.toString());
        assertFalse(answers.get(0).contains("|58="), "a plain Logout: " + answers.get(0));
        assertEquals("DISCONNECT", answers.get(1));
    }

    @Test
    void nothingThatArrivesAfterTheSessionAskedToCloseIsActedOn() {
        receive(MsgTypes.HEARTBEAT, 2, w -> { });
        session.onMessage(parsed(MsgTypes.HEARTBEAT, 3, w -> { }), NOW_MS + 600_000); // SendingTime 10 min off
        assertEquals("DISCONNECT", takeSent().get(2));
        receiveOrder(4, "AFTER");
        assertEquals(List.of(), application);
        assertEquals(List.of(), takeSent());
    }
}
