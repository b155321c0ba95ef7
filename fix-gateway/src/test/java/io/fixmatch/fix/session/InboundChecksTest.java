package io.fixmatch.fix.session;

import io.fixmatch.fix.app.VenueDictionary;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTimestamps;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.dictionary.SessionRejectReasons;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checks a message passes in its turn, over the real venue dictionary: each check's Reject, and the order of the
 * checks when a message fails several (the dictionary first, then SendingTime, then CompIDs, then PossDup's rules).
 */
class InboundChecksTest {
    private static final long NOW_MS = 1_795_000_000_000L;
    private final InboundChecks checks = new InboundChecks(VenueDictionary.get(), ascii("TW"), ascii("ISLD"), 120_000);
    private final FixWriter writer = new FixWriter(2048);
    private final FixMessage message = new FixMessage();

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String stamp(long epochMs) {
        byte[] text = new byte[FixTimestamps.LENGTH];
        new FixTimestamps().write(epochMs * 1_000_000L, text, 0);
        return new String(text, StandardCharsets.US_ASCII);
    }

    /** A message from {@code sender} sent at {@code sentMs}, then {@code more} fields, parsed. */
    private FixMessage parsed(int msgType, long seqNum, String sender, long sentMs, Consumer<FixWriter> more) {
        writer.begin(msgType).field(49, sender).field(56, "ISLD").field(34, seqNum).field(52, stamp(sentMs));
        more.accept(writer);
        writer.finish();
        byte[] bytes = Arrays.copyOfRange(writer.buffer(), writer.start(), writer.start() + writer.length());
        assertEquals(FixParser.OK, FixParser.parse(bytes, 0, bytes.length, message));
        return message;
    }

    private FixMessage heartbeat(String sender, long sentMs, Consumer<FixWriter> more) {
        return parsed(MsgTypes.HEARTBEAT, 2, sender, sentMs, more);
    }

    @Test
    void aGoodMessagePasses() {
        assertEquals(InboundChecks.PASS, checks.check(heartbeat("TW", NOW_MS, w -> { }), NOW_MS));
        assertEquals(InboundChecks.PASS, checks.check(heartbeat("TW", NOW_MS - 119_000, w -> { }), NOW_MS));
    }

    @Test
    void theDictionaryComesFirst() {
        // wrong CompID and SendingTime off too: the unknown tag is what the Reject names
        int reason = checks.check(heartbeat("WT", NOW_MS - 600_000, w -> w.field(999, "HI")), NOW_MS);
        assertEquals(SessionRejectReasons.INVALID_TAG_NUMBER, reason);
        assertEquals(999, checks.refTagId());
        assertNull(checks.logoutText(), "a dictionary Reject does not end the session");
    }

    @Test
    void thenSendingTimeThenTheCompIds() {
        int reason = checks.check(heartbeat("WT", NOW_MS - 121_000, w -> { }), NOW_MS);
        assertEquals(SessionRejectReasons.SENDING_TIME_ACCURACY, reason);
        assertEquals(52, checks.refTagId());
        assertEquals("SendingTime accuracy problem, field=52", checks.logoutText());

        reason = checks.check(heartbeat("WT", NOW_MS, w -> { }), NOW_MS);
        assertEquals(SessionRejectReasons.COMPID_PROBLEM, reason);
        assertEquals(RejectBody.NO_TAG, checks.refTagId());
        assertEquals("CompID problem", checks.logoutText());
    }

    @Test
    void aPossibleDuplicateNeedsAnOrigSendingTimeNotAfterItsSendingTime() {
        assertEquals(SessionRejectReasons.REQUIRED_TAG_MISSING,
            checks.check(heartbeat("TW", NOW_MS, w -> w.field(43, 'Y')), NOW_MS));
        assertEquals(122, checks.refTagId());
        assertNull(checks.logoutText());

        assertEquals(SessionRejectReasons.SENDING_TIME_ACCURACY, checks.checkPossDup(
            heartbeat("TW", NOW_MS, w -> w.field(43, 'Y').field(122, stamp(NOW_MS + 11_000)))));
        assertEquals(122, checks.refTagId());
        assertEquals("SendingTime accuracy problem, field=122", checks.logoutText());

        assertEquals(InboundChecks.PASS, checks.check(
            heartbeat("TW", NOW_MS, w -> w.field(43, 'Y').field(122, stamp(NOW_MS - 11_000))), NOW_MS));
        // A resend may carry its original SendingTime: a PossDup's is not held to the clock.
        assertEquals(InboundChecks.PASS, checks.check(
            heartbeat("TW", NOW_MS - 600_000, w -> w.field(43, 'Y').field(122, stamp(NOW_MS - 600_000))), NOW_MS));
    }

    private FixMessage logon(long sentMs, Consumer<FixWriter> more) {
        return parsed(MsgTypes.LOGON, 1, "TW", sentMs, more);
    }

    @Test
    void aLogonIsJudgedWithQuickFixJsTexts() {
        assertNull(checks.logonProblem(logon(NOW_MS, w -> w.field(98, 0L).field(108, 30L).field(141, 'Y')), NOW_MS));
        assertEquals("HeartBtInt must not be negative",
            checks.logonProblem(logon(NOW_MS, w -> w.field(98, 0L).field(108, -10L)), NOW_MS));
        assertEquals("Invalid Logon message: SendingTime accuracy problem, field=52",
            checks.logonProblem(logon(NOW_MS - 121_000, w -> w.field(98, 0L).field(108, 30L)), NOW_MS));
        assertEquals("Invalid Logon message: Required tag missing, field=98",
            checks.logonProblem(logon(NOW_MS, w -> w.field(108, 30L)), NOW_MS));
        assertEquals("Invalid Logon message: Tag not defined for this message type, field=55",
            checks.logonProblem(logon(NOW_MS, w -> w.field(98, 0L).field(108, 30L).field(55, "MSFT")), NOW_MS));
        assertEquals("HeartBtInt(108) must be 0..3600",
            checks.logonProblem(logon(NOW_MS, w -> w.field(98, 0L).field(108, 3601L)), NOW_MS));
    }

    @Test
    void checkingAValidOrderAllocatesNothing() {
        writer.begin(MsgTypes.NEW_ORDER_SINGLE).field(49, "TW").field(56, "ISLD").field(34, 2L).field(52, stamp(NOW_MS))
            .field(11, "ORD-1").field(55, "MSFT").field(54, '1').field(38, 300L).field(40, '2').field(44, "412.35")
            .field(59, '0').field(60, stamp(NOW_MS)).finish();
        byte[] order = Arrays.copyOfRange(writer.buffer(), writer.start(), writer.start() + writer.length());
        assertEquals(FixParser.OK, FixParser.parse(order, 0, order.length, message));
        assertEquals(InboundChecks.PASS, checks.check(message, NOW_MS));
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int passed = 0;
        for (int i = 0; i < 20_000; i++) { // warm up, so the JIT's own allocations are done
            passed += checks.check(message, NOW_MS) == InboundChecks.PASS ? 1 : 0;
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            passed += checks.check(message, NOW_MS) == InboundChecks.PASS ? 1 : 0;
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(120_000, passed);
        // One object per check would be at least 1.6 MB; what is left is the JIT's and the MXBean's own.
        assertTrue(allocated < 10_000, allocated + " bytes allocated by 100,000 checks");
    }
}
