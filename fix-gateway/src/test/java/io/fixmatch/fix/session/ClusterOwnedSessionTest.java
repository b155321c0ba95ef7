package io.fixmatch.fix.session;

import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.codec.MsgTypes;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A session's half of the cluster's ownership (issue #30), on a real session and store: its Logon waits for the
 * cluster's grant and is answered with the number the grant gives; its own messages go to the cluster and are written
 * when they come back numbered; a ResendRequest is answered from what the cluster resends; a refused claim is answered
 * outside the session's numbering; a session taken away is dropped without a byte; a close waits for its Logout's
 * number. The cluster's side is played by the test, as the records the real one sends (the whole path, with real
 * nodes, is in the cluster and server modules' tests).
 */
class ClusterOwnedSessionTest {
    @TempDir
    Path directory;

    /** The requests the session made, as the cluster would get them: type and bytes. */
    private final List<Object[]> requests = new ArrayList<>();
    private SessionHarness harness;

    @BeforeEach
    void open() {
        harness = new SessionHarness(directory, (type, buffer, offset, length) -> {
            byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            requests.add(new Object[] {type, bytes});
        });
    }

    @AfterEach
    void close() {
        harness.close();
    }

    @Test
    void theLogonWaitsForTheClustersGrantAndIsAnsweredAtTheNumberItGives() {
        harness.logon(5, false);
        assertEquals("", harness.sentTypes(), "nothing before the cluster decides");
        DirectBuffer claim = request(SessionCodec.CLAIM);
        assertEquals(5, SessionCodec.claimLogonSeqNum(claim, 0));
        harness.session.onGranted(0, 42, 6, false, harness.nowMs);
        assertEquals("A", harness.sentTypes());
        assertEquals(42, harness.lastSent().longValue(FixTags.MSG_SEQ_NUM), "the grant's number");
        assertEquals(43, harness.session.nextSenderSeqNum());
        assertEquals(6, harness.session.nextTargetSeqNum(), "the cluster's");
    }

    @Test
    void aLogonAboveWhatTheClusterHasAsksForTheGap() {
        harness.logon(9, false);
        harness.session.onGranted(0, 3, 6, false, harness.nowMs);
        assertEquals(List.of(SessionCodec.CLAIM, SessionCodec.OUT), types(), "the ResendRequest goes to be numbered");
        DirectBuffer out = request(SessionCodec.OUT);
        assertEquals(MsgTypes.RESEND_REQUEST, SessionCodec.outMsgType(out, 0));
        assertTrue(body(out).contains("7=6\u0001"), "from the cluster's next: " + body(out));
    }

    @Test
    void theSessionsOwnMessagesAreWrittenWhenTheyComeBackNumbered() {
        loggedOn();
        harness.receive(MsgTypes.TEST_REQUEST, 2, w -> w.field(FixTags.TEST_REQ_ID, "ping"));
        assertEquals("A", harness.sentTypes(), "the Heartbeat waits for its number");
        DirectBuffer out = request(SessionCodec.OUT);
        assertEquals(MsgTypes.HEARTBEAT, SessionCodec.outMsgType(out, 0));
        assertEquals(0, SessionCodec.outFlags(out, 0) & SessionCodec.STORED, "admin: never resent");
        assertEquals(SessionCodec.inboundPosition(0, 2), SessionCodec.outAnsweredInbound(out, 0),
            "the cluster may count the TestRequest as received");
        echo(out, 11);
        assertEquals("A0", harness.sentTypes());
        assertEquals(11, harness.lastSent().longValue(FixTags.MSG_SEQ_NUM));
        assertEquals("ping", harness.lastSent().stringValue(FixTags.TEST_REQ_ID));
    }

    @Test
    void aResendRequestIsAnsweredFromWhatTheClusterResends() {
        loggedOn();
        harness.receive(MsgTypes.RESEND_REQUEST, 2, w -> w.field(FixTags.BEGIN_SEQ_NO, 3L)
            .field(FixTags.END_SEQ_NO, 0L));
        DirectBuffer resend = request(SessionCodec.RESEND);
        assertEquals(3, SessionCodec.resendBegin(resend, 0));
        MessageBody news = w -> w.field(FixTags.TEXT, "stored");
        harness.session.onResentGap(3, harness.nowMs);
        harness.session.onResentGap(4, harness.nowMs);
        harness.session.onResent(5, 'B', news, harness.nowMs * 1_000_000L - 5_000_000_000L, harness.nowMs);
        harness.session.onResentGap(6, harness.nowMs);
        harness.session.onResendDone(6, 0, harness.nowMs);
        assertEquals("A4B4", harness.sentTypes());
        FixMessage gapFill = harness.sent.get(1);
        assertEquals(3, gapFill.longValue(FixTags.MSG_SEQ_NUM));
        assertEquals(5, gapFill.longValue(FixTags.NEW_SEQ_NO));
        FixMessage resent = harness.sent.get(2);
        assertEquals(5, resent.longValue(FixTags.MSG_SEQ_NUM));
        assertTrue(resent.isSingleByte(FixTags.POSS_DUP_FLAG, 'Y'));
        assertTrue(resent.has(FixTags.ORIG_SENDING_TIME));
        assertEquals(7, harness.sent.get(3).longValue(FixTags.NEW_SEQ_NO), "the last gap filled through 6");
    }

    /**
     * The leader does not sequence its resend answers: a part it could not offer (back-pressure) is missing. The next
     * number's arrival must not gap-fill the missing ones (they were reports: lost for good); the rest is asked for
     * again from the first missing, and an answer that stands still is asked for again too.
     */
    @Test
    void aPartOfTheClustersResendLostOnTheWayIsAskedForAgainNotGapFilled() {
        loggedOn();
        harness.receive(MsgTypes.RESEND_REQUEST, 2, w -> w.field(FixTags.BEGIN_SEQ_NO, 3L)
            .field(FixTags.END_SEQ_NO, 0L));
        request(SessionCodec.RESEND);
        MessageBody news = w -> w.field(FixTags.TEXT, "stored");
        long then = harness.nowMs * 1_000_000L - 5_000_000_000L;
        harness.session.onResentGap(3, harness.nowMs);
        // 4 and 5 (reports) lost on the way; 6 arrives
        harness.session.onResent(6, 'B', news, then, harness.nowMs);
        DirectBuffer again = request(SessionCodec.RESEND);
        assertEquals(4, SessionCodec.resendBegin(again, 0), "asked again from the first one missing");
        assertEquals("A", harness.sentTypes(), "nothing written past the missing ones (no gap fill over them)");
        harness.session.onResendDone(6, 0, harness.nowMs); // the first answer's end: incomplete, not taken
        assertEquals("A", harness.sentTypes());
        harness.session.onResent(4, 'B', news, then, harness.nowMs);
        harness.session.onResent(5, 'B', news, then, harness.nowMs);
        harness.session.onResent(6, 'B', news, then, harness.nowMs);
        harness.session.onResendDone(6, 0, harness.nowMs);
        assertEquals("A4BBB", harness.sentTypes());
        assertEquals(3, harness.sent.get(1).longValue(FixTags.MSG_SEQ_NUM));
        assertEquals(4, harness.sent.get(1).longValue(FixTags.NEW_SEQ_NO));
        assertEquals(6, harness.sent.get(4).longValue(FixTags.MSG_SEQ_NUM));

        harness.receive(MsgTypes.RESEND_REQUEST, 3, w -> w.field(FixTags.BEGIN_SEQ_NO, 4L)
            .field(FixTags.END_SEQ_NO, 0L));
        request(SessionCodec.RESEND);
        harness.session.onTimer(harness.nowMs + ClusterNumbering.RESEND_STALL_MS + 1);
        assertEquals(4, SessionCodec.resendBegin(request(SessionCodec.RESEND), 0), "a stalled answer asked again");
    }

    @Test
    void aRefusedClaimIsAnsweredOutsideTheSessionsNumbering() {
        harness.logon(1, false);
        harness.session.onRefused(0, "the session is logged on at another gateway", harness.nowMs);
        assertEquals("5", harness.sentTypes());
        assertEquals(1, harness.lastSent().longValue(FixTags.MSG_SEQ_NUM));
        assertTrue(harness.transport.disconnected);
        assertFalse(harness.session.isLoggedOn());
        assertEquals(List.of(SessionCodec.CLAIM), types(), "not released: it never was this gateway's");
    }

    @Test
    void aSessionTakenAwayIsDroppedWithoutAByteAndNotReleased() {
        loggedOn();
        int before = harness.sent.size();
        harness.session.onRevoked();
        assertTrue(harness.transport.aborted, "closed without writing what was queued");
        assertEquals(before, harness.sent.size());
        assertFalse(harness.session.isLoggedOn());
        harness.session.onTimer(harness.nowMs + 60_000);
        assertEquals(List.of(SessionCodec.CLAIM), types(), "no heartbeat, no release: it is another gateway's");
    }

    @Test
    void aLogoutIsWrittenAtItsNumberBeforeTheConnectionCloses() {
        loggedOn();
        harness.receive(MsgTypes.LOGOUT, 2, MessageBody.EMPTY);
        assertFalse(harness.transport.disconnected, "waits for its Logout's number");
        echo(request(SessionCodec.OUT), 12);
        assertEquals("A5", harness.sentTypes());
        assertTrue(harness.transport.disconnected);
        assertEquals(SessionCodec.RELEASE, types().get(types().size() - 1), "the session is released, last");
    }

    @Test
    void aReportNumberedByTheClusterIsWrittenOnceAtItsNumber() {
        loggedOn();
        MessageBody report = w -> w.field(FixTags.TEXT, "fill");
        harness.session.sendNumberedReport(20, MsgTypes.EXECUTION_REPORT, report, 0, harness.nowMs);
        harness.session.sendNumberedReport(20, MsgTypes.EXECUTION_REPORT, report, 0, harness.nowMs);
        assertEquals("A8", harness.sentTypes(), "a number written once");
        assertEquals(20, harness.lastSent().longValue(FixTags.MSG_SEQ_NUM));
    }

    /** Logged on: Logon 1 granted, answered as number 10, the cluster expecting 2 next. */
    private void loggedOn() {
        harness.logon(1, false);
        harness.session.onGranted(0, 10, 2, false, harness.nowMs);
        assertEquals("A", harness.sentTypes());
    }

    /** The cluster's answer to an OUT: the same message, numbered {@code seqNum}. */
    private void echo(DirectBuffer out, long seqNum) {
        byte[] body = new byte[out.capacity() - SessionCodec.OUT_HEADER_LENGTH];
        out.getBytes(SessionCodec.OUT_HEADER_LENGTH, body);
        harness.session.onNumberedOut(seqNum, SessionCodec.outMsgType(out, 0), SessionCodec.outFlags(out, 0),
            w -> w.raw(body, 0, body.length), harness.nowMs);
    }

    private List<Integer> types() {
        return requests.stream().map(request -> (Integer) request[0]).toList();
    }

    /** The last request of this type. */
    private DirectBuffer request(int type) {
        for (int i = requests.size() - 1; i >= 0; i--) {
            if ((int) requests.get(i)[0] == type) {
                return new UnsafeBuffer((byte[]) requests.get(i)[1]);
            }
        }
        throw new AssertionError("no request of type " + type + ": " + types());
    }

    private static String body(DirectBuffer out) {
        return out.getStringWithoutLengthAscii(SessionCodec.OUT_HEADER_LENGTH,
            out.capacity() - SessionCodec.OUT_HEADER_LENGTH);
    }
}
