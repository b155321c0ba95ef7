package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.codec.MsgTypes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX session's state machine, message by message, in the style of a session conformance suite: gaps (of one
 * message too), PossDup duplicates, resend ranges, SequenceReset in both modes and its edge cases. A real session on a
 * real store; what it sends is parsed back. Each test was checked to fail when the check it covers is removed from
 * {@link FixSession} (docs/TESTING.md lists the mutations).
 */
class FixSessionStateMachineTest {
    private static final MessageBody REPORT = w -> w.field(37, "1").field(17, "1").field(150, '0').field(39, '0');

    @TempDir
    Path directory;

    private SessionHarness harness;

    @BeforeEach
    void logOn() {
        harness = new SessionHarness(directory);
        assertEquals(FixSession.LogonResult.LOGGED_ON, harness.logon(1, false));
        assertEquals("A", harness.sentTypes());
        harness.sent.clear();
    }

    @AfterEach
    void close() {
        harness.close();
    }

    @Test
    void aGapOfOneMessageIsAskedForAndNothingAfterItIsDeliveredUntilItIsFilled() {
        harness.receive(MsgTypes.NEW_ORDER_SINGLE, 2, SessionHarness.order("A"));
        harness.receive(MsgTypes.NEW_ORDER_SINGLE, 4, SessionHarness.order("C")); // 3 is missing

        FixMessage resendRequest = harness.lastSent();
        assertEquals(MsgTypes.RESEND_REQUEST, resendRequest.msgType());
        assertEquals(3, resendRequest.longValue(7), "BeginSeqNo: the missing message");
        assertEquals(0, resendRequest.longValue(16), "EndSeqNo: everything after");
        assertEquals(List.of("A"), clOrdIds(), "the message after the gap is not delivered");
        assertEquals(3, harness.session.nextTargetSeqNum());

        harness.receiveResent(MsgTypes.NEW_ORDER_SINGLE, 3, SessionHarness.order("B"));
        harness.receiveResent(MsgTypes.NEW_ORDER_SINGLE, 4, SessionHarness.order("C"));
        assertEquals(List.of("A", "B", "C"), clOrdIds(), "in sequence, each once");
        assertEquals(5, harness.session.nextTargetSeqNum());
    }

    @Test
    void aPossDupDuplicateBelowTheExpectedNumberIsIgnoredWithoutALogout() {
        harness.receive(MsgTypes.NEW_ORDER_SINGLE, 2, SessionHarness.order("A"));
        harness.receiveResent(MsgTypes.NEW_ORDER_SINGLE, 2, SessionHarness.order("A"));
        assertEquals(List.of("A"), clOrdIds(), "not delivered twice");
        assertEquals("", harness.sentTypes(), "nothing to say about it");
        assertFalse(harness.transport.disconnected);
        assertEquals(3, harness.session.nextTargetSeqNum());
    }

    @Test
    void aMessageBelowTheExpectedNumberWithoutPossDupEndsTheSession() {
        harness.receive(MsgTypes.NEW_ORDER_SINGLE, 2, SessionHarness.order("A"));
        harness.receive(MsgTypes.NEW_ORDER_SINGLE, 2, SessionHarness.order("B"));
        assertEquals(List.of("A"), clOrdIds());
        assertEquals(MsgTypes.LOGOUT, harness.lastSent().msgType());
        assertTrue(harness.lastSent().stringValue(58).contains("MsgSeqNum too low"), harness.lastSent().toString());
        assertTrue(harness.transport.disconnected);
    }

    @Test
    void aPossDupMessageWithoutOrigSendingTimeIsRejectedAndCounted() {
        harness.receive(MsgTypes.NEW_ORDER_SINGLE, 2, w -> {
            w.field(43, 'Y');
            SessionHarness.order("A").writeBody(w);
        });
        FixMessage reject = harness.lastSent();
        assertEquals(MsgTypes.REJECT, reject.msgType());
        assertEquals(2, reject.longValue(45));
        assertEquals(122, reject.longValue(371));
        assertEquals(List.of(), clOrdIds());
        assertEquals(3, harness.session.nextTargetSeqNum(), "a rejected message is still counted");
    }

    @Test
    void aResendRequestIsAnsweredWithTheStoredMessagesAndGapFillsForAdminOnes() {
        sendReports(3); // 2, 3, 4
        harness.receive(MsgTypes.TEST_REQUEST, 2, w -> w.field(112, "t")); // our Heartbeat: 5
        sendReports(1); // 6
        harness.sent.clear();

        harness.receive(MsgTypes.RESEND_REQUEST, 3, w -> w.field(7, 1L).field(16, 0L));
        assertEquals("488848", harness.sentTypes());
        assertGapFill(harness.sent.get(0), 1, 2);
        for (int i = 1; i <= 3; i++) {
            assertResent(harness.sent.get(i), i + 1);
        }
        assertGapFill(harness.sent.get(4), 5, 6);
        assertResent(harness.sent.get(5), 6);
    }

    @Test
    void aResendRangeIsHonouredAndClippedToWhatWasSent() {
        sendReports(4); // 2..5
        harness.sent.clear();
        harness.receive(MsgTypes.RESEND_REQUEST, 2, w -> w.field(7, 3L).field(16, 4L));
        assertEquals("88", harness.sentTypes());
        assertResent(harness.sent.get(0), 3);
        assertResent(harness.sent.get(1), 4);

        harness.sent.clear();
        harness.receive(MsgTypes.RESEND_REQUEST, 3, w -> w.field(7, 5L).field(16, 99L));
        assertEquals("8", harness.sentTypes(), "nothing beyond the last message sent");
        assertResent(harness.sent.get(0), 5);

        harness.sent.clear();
        harness.receive(MsgTypes.RESEND_REQUEST, 4, w -> w.field(7, 5L).field(16, 4L));
        assertEquals(MsgTypes.REJECT, harness.lastSent().msgType(), "EndSeqNo below BeginSeqNo");
        assertEquals(16, harness.lastSent().longValue(371));
    }

    @Test
    void aSequenceResetInResetModeMovesTheExpectedNumberWhateverItsOwnNumber() {
        harness.receive(MsgTypes.SEQUENCE_RESET, 99, w -> w.field(36, 20L));
        assertEquals(20, harness.session.nextTargetSeqNum());
        assertEquals("", harness.sentTypes(), "no ResendRequest for its number");
    }

    @Test
    void aSequenceResetThatWouldLowerTheExpectedNumberIsRejectedAndChangesNothing() {
        harness.receive(MsgTypes.HEARTBEAT, 2, MessageBody.EMPTY);
        harness.receive(MsgTypes.SEQUENCE_RESET, 3, w -> w.field(36, 2L));
        assertEquals(MsgTypes.REJECT, harness.lastSent().msgType());
        assertEquals(36, harness.lastSent().longValue(371));
        assertEquals(3, harness.session.nextTargetSeqNum());
        assertFalse(harness.transport.disconnected);
    }

    @Test
    void aGapFillAtTheExpectedNumberSkipsToItsNewSeqNo() {
        harness.receiveResent(MsgTypes.SEQUENCE_RESET, 2, w -> w.field(123, 'Y').field(36, 7L));
        assertEquals(7, harness.session.nextTargetSeqNum());
        harness.receive(MsgTypes.NEW_ORDER_SINGLE, 7, SessionHarness.order("A"));
        assertEquals(List.of("A"), clOrdIds());
    }

    @Test
    void aGapFillWhoseNewSeqNoIsNotAboveItsOwnNumberIsRejected() {
        harness.receiveResent(MsgTypes.SEQUENCE_RESET, 2, w -> w.field(123, 'Y').field(36, 2L));
        assertEquals(MsgTypes.REJECT, harness.lastSent().msgType());
        assertEquals(36, harness.lastSent().longValue(371));
        assertEquals(3, harness.session.nextTargetSeqNum(), "counted, not applied");
    }

    @Test
    void aGapFillBeyondTheExpectedNumberIsAGapToo() {
        harness.receiveResent(MsgTypes.SEQUENCE_RESET, 5, w -> w.field(123, 'Y').field(36, 9L));
        assertEquals(MsgTypes.RESEND_REQUEST, harness.lastSent().msgType());
        assertEquals(2, harness.lastSent().longValue(7));
        assertEquals(2, harness.session.nextTargetSeqNum(), "not applied before the gap is filled");
    }

    @Test
    void aLogonBelowTheExpectedNumberIsRefused() throws Exception {
        harness.receive(MsgTypes.HEARTBEAT, 2, MessageBody.EMPTY);
        harness.receive(MsgTypes.LOGOUT, 3, MessageBody.EMPTY);
        harness.sent.clear();
        assertEquals(FixSession.LogonResult.REFUSED, harness.logon(3, false));
        assertTrue(harness.lastSent().stringValue(58).contains("MsgSeqNum too low, expecting 4"),
            harness.lastSent().toString());
    }

    private void sendReports(int count) {
        for (int i = 0; i < count; i++) {
            harness.session.sendApplication(MsgTypes.EXECUTION_REPORT, REPORT, harness.nowMs);
        }
    }

    private List<String> clOrdIds() {
        return harness.delivered.stream().map(m -> m.stringValue(11)).toList();
    }

    private static void assertGapFill(FixMessage message, long seqNum, long newSeqNo) {
        assertEquals(MsgTypes.SEQUENCE_RESET, message.msgType());
        assertEquals(seqNum, message.longValue(34));
        assertEquals(newSeqNo, message.longValue(36));
        assertTrue(message.isSingleByte(123, 'Y') && message.isSingleByte(43, 'Y'), message.toString());
    }

    private static void assertResent(FixMessage message, long seqNum) {
        assertEquals(MsgTypes.EXECUTION_REPORT, message.msgType());
        assertEquals(seqNum, message.longValue(34));
        assertTrue(message.isSingleByte(43, 'Y') && message.has(122), "PossDupFlag and OrigSendingTime: " + message);
        assertEquals("1", message.stringValue(37), "the body as first sent");
    }
}
