package io.fixmatch.it.crash;

import io.fixmatch.it.crash.Disagreement.Category;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker proven: a consistent pair of FIX logs passes, and each failure the crash-consistency run must catch,
 * planted on purpose in a client's log or in the server's status answers, is caught in its category and only
 * there.
 */
class CrashCheckerTest {

    /** A client's wire log written by hand, message by message, in the form QuickFIX/J logs them. */
    private static final class Session {
        final TraderLog log;
        private final String compId;
        private int sentSeq;
        private int receivedSeq;

        Session(String compId) {
            this.compId = compId;
            this.log = new TraderLog(compId);
            logon();
        }

        /** Both Logons, numbers continuing. */
        Session logon() {
            log.sent(out("A", ++sentSeq, "98=0", "108=30"));
            log.received(in("A", ++receivedSeq, "98=0", "108=30"));
            return this;
        }

        /** A request numbered and written to the wire. */
        Session send(String msgType, String... body) {
            String raw = out(msgType, ++sentSeq, body);
            log.numbered(raw);
            log.sent(raw);
            return this;
        }

        Session order(String clOrdId, char side, long qty) {
            return send("D", "11=" + clOrdId, "54=" + side, "55=AAPL", "38=" + qty, "40=2", "44=100.00");
        }

        Session cancel(String clOrdId, String orig, char side) {
            return send("F", "11=" + clOrdId, "41=" + orig, "54=" + side, "55=AAPL");
        }

        Session replace(String clOrdId, String orig, char side, long qty) {
            return send("G", "11=" + clOrdId, "41=" + orig, "54=" + side, "55=AAPL", "38=" + qty, "40=2",
                "44=100.01");
        }

        /** An ExecutionReport: ExecID, ExecType, OrdStatus, ClOrdID, side, CumQty, LeavesQty, then extra fields. */
        Session report(String execId, char execType, char ordStatus, String clOrdId, char side, long cum, long leaves,
                       String... extra) {
            String[] fields = {"37=7", "17=" + execId, "150=" + execType, "39=" + ordStatus, "11=" + clOrdId,
                "55=AAPL", "54=" + side, "14=" + cum, "151=" + leaves};
            return receive("8", concat(fields, extra));
        }

        Session fill(String execId, String clOrdId, char side, long last, long cum, long leaves) {
            return report(execId, 'F', leaves == 0 ? '2' : '1', clOrdId, side, cum, leaves, "32=" + last,
                "31=100.00");
        }

        /** The server's answer to an OrderStatusRequest for a live order. */
        Session status(String clOrdId, char side, char ordStatus, long cum, long leaves) {
            return report("0", 'I', ordStatus, clOrdId, side, cum, leaves);
        }

        /** The server's answer to an OrderStatusRequest for an order it does not know. */
        Session unknown(String clOrdId, char side) {
            return receive("8", "37=NONE", "17=0", "150=I", "39=8", "11=" + clOrdId, "55=AAPL", "54=" + side,
                "14=0", "151=0", "58=no live order with that client order id");
        }

        Session receive(String msgType, String... body) {
            log.received(in(msgType, ++receivedSeq, body));
            return this;
        }

        /** The client expects the next number after the last received. */
        TraderLog finish() {
            log.finish(receivedSeq + 1);
            return log;
        }

        private String out(String msgType, int seq, String... body) {
            return message(msgType, compId, "FIXMATCH", seq, body);
        }

        private String in(String msgType, int seq, String... body) {
            return message(msgType, "FIXMATCH", compId, seq, body);
        }
    }

    private static final char BUY = '1';
    private static final char SELL = '2';

    static String message(String msgType, String sender, String target, int seq, String... body) {
        StringBuilder raw = new StringBuilder("8=FIX.4.4\u00019=100\u000135=").append(msgType).append("\u000149=")
            .append(sender).append("\u000156=").append(target).append("\u000134=").append(seq)
            .append("\u000152=20261123-10:00:00.000\u0001");
        for (String field : body) {
            raw.append(field).append('\u0001');
        }
        return raw.append("10=000\u0001").toString();
    }

    private static String[] concat(String[] first, String[] second) {
        String[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    /**
     * Two traders, one trade between them, a cancel, a replace, a rejected cancel, a NewOrderSingle refused at the
     * session level, a restart (Logons continuing, a resend of a report), and status answers that agree.
     */
    private static Session[] consistentRun() {
        Session one = new Session("CLIENT1");
        Session two = new Session("CLIENT2");
        one.order("A", SELL, 10).report("1", '0', '0', "A", SELL, 0, 10);
        two.order("B", BUY, 4).report("2", '0', '0', "B", BUY, 0, 4)
            .fill("3", "B", BUY, 4, 4, 0);
        one.fill("4", "A", SELL, 4, 4, 6);
        one.order("C", BUY, 5).report("5", '0', '0', "C", BUY, 0, 5)
            .cancel("C-X", "C", BUY).report("6", '4', '4', "C-X", BUY, 0, 0, "41=C");
        one.replace("A-2", "A", SELL, 12).report("7", '5', '1', "A-2", SELL, 4, 8, "41=A");
        int replacedSeq = one.receivedSeq;
        one.cancel("GONE-X", "GONE", SELL).receive("9", "37=NONE", "11=GONE-X", "41=GONE", "39=8", "434=1",
            "102=1");
        one.order("BAD", BUY, 1);
        one.receive("3", "45=" + one.log.request("BAD").seqNum(), "373=5", "58=Price(44) is not a decimal number");
        // A restart: both sides log on again with their numbers continuing; a report comes again as a resend.
        one.logon();
        one.log.received(message("8", "FIXMATCH", "CLIENT1", replacedSeq, "43=Y", "122=20261123-09:00:00.000",
            "37=7", "17=7", "150=5", "39=1", "11=A-2", "41=A", "55=AAPL", "54=2", "14=4", "151=8"));
        two.logon();
        // The quiet phase: the server's answers for every ClOrdID.
        one.unknown("A", SELL).status("A-2", SELL, '1', 4, 8).unknown("C", BUY).unknown("C-X", BUY)
            .unknown("GONE-X", SELL).unknown("BAD", BUY);
        two.unknown("B", BUY);
        return new Session[] {one, two};
    }

    private static List<Disagreement> check(Session... sessions) {
        return CrashChecker.check(Arrays.stream(sessions).map(Session::finish).toList());
    }

    private static void assertFound(List<Disagreement> found, Category category, String clOrdId) {
        assertTrue(found.stream().anyMatch(d -> d.category() == category && Objects.equals(clOrdId,
            d.clOrdId())), category + " for " + clOrdId + " in " + found);
    }

    private static void assertAllOf(List<Disagreement> found, Category category) {
        assertTrue(!found.isEmpty() && found.stream().allMatch(d -> d.category() == category),
            "only " + category + ": " + found);
    }

    private static void assertOnly(List<Disagreement> found, Category... categories) {
        assertEquals(List.of(categories), found.stream().map(Disagreement::category).toList(), found.toString());
    }

    @Test
    void aConsistentRunPasses() {
        assertEquals(List.of(), check(consistentRun()));
    }

    @Test
    void anAckTheServerHasButTheClientNeverGotIsAReportLostAfterACrash() {
        Session[] run = consistentRun();
        run[0].order("D", BUY, 3).status("D", BUY, '0', 0, 3); // the ack never reached the client
        List<Disagreement> found = check(run);
        assertFound(found, Category.REPORT_LOST_AFTER_CRASH, "D");
        assertOnly(found, Category.REPORT_LOST_AFTER_CRASH);
    }

    @Test
    void aFillTheClientNeverGotIsAReportLostAndUnbalancesTheFills() {
        Session one = new Session("CLIENT1");
        Session two = new Session("CLIENT2");
        one.order("S", SELL, 10).report("1", '0', '0', "S", SELL, 0, 10);
        two.order("T", BUY, 3).report("2", '0', '0', "T", BUY, 0, 3).fill("3", "T", BUY, 3, 3, 0);
        // The resting order's fill (ExecID 4) never reaches CLIENT1.
        one.status("S", SELL, '1', 3, 7);
        two.unknown("T", BUY);
        List<Disagreement> found = check(one, two);
        assertFound(found, Category.REPORT_LOST_AFTER_CRASH, "S");
        assertFound(found, Category.FILLS_UNBALANCED, null);
        assertOnly(found, Category.REPORT_LOST_AFTER_CRASH, Category.FILLS_UNBALANCED);
    }

    /**
     * A cluster gateway refuses a status request while no leader answers: that is no answer (it looks like "unknown
     * order", which would blame the venue for a report it never lost), and the log keeps it apart so it is asked again.
     */
    @Test
    void aStatusRequestRefusedAsClusterUnavailableIsNoAnswer() {
        Session one = new Session("CLIENT1");
        one.order("C", BUY, 4).report("1", '0', '0', "C", BUY, 0, 4);
        one.receive("8", "37=NONE", "17=0", "150=I", "39=8", "11=C", "55=AAPL", "54=" + BUY, "14=0", "151=0",
            "58=cluster unavailable: no leader answers; nothing was done, retry later");
        assertEquals(0, one.log.statusAnswers());
        assertEquals(List.of("C"), one.log.takeRefusedStatusRequests());
        List<Disagreement> found = check(one);
        assertFound(found, Category.NO_STATUS_ANSWER, "C");
        assertOnly(found, Category.NO_STATUS_ANSWER);
        one.status("C", BUY, '0', 0, 4); // asked again once a leader answers
        assertEquals(List.of(), check(one));
    }

    @Test
    void anOrderTheClientSentThatNobodyKnowsIsLostOnTheWayIn() {
        Session one = new Session("CLIENT1");
        one.order("L", BUY, 1).unknown("L", BUY);
        List<Disagreement> found = check(one);
        assertFound(found, Category.ORDER_LOST_ON_THE_WAY_IN, "L");
        assertOnly(found, Category.ORDER_LOST_ON_THE_WAY_IN);
    }

    @Test
    void anOrderNeverSentOrRefusedAtTheSessionLevelMayBeUnknown() {
        Session one = new Session("CLIENT1");
        // Numbered by the client's engine, never written to the wire.
        one.log.numbered(message("D", "CLIENT1", "FIXMATCH", 99, "11=NEVER", "54=1", "55=AAPL", "38=1", "40=2",
            "44=100.00"));
        one.order("REFUSED", BUY, 1).receive("3", "45=" + one.log.request("REFUSED").seqNum(), "58=bad");
        one.unknown("NEVER", BUY).unknown("REFUSED", BUY);
        assertEquals(List.of(), check(one));
    }

    @Test
    void aCancelTheServerNeverGotIsLostOnTheWayInAndOneWhoseReportWasLostIsCountedOnce() {
        Session one = new Session("CLIENT1");
        one.order("K", BUY, 2).report("1", '0', '0', "K", BUY, 0, 2).cancel("K-X", "K", BUY);
        one.order("M", BUY, 2).report("2", '0', '0', "M", BUY, 0, 2).cancel("M-X", "M", BUY);
        one.status("K", BUY, '0', 0, 2).unknown("K-X", BUY).unknown("M", BUY).unknown("M-X", BUY);
        List<Disagreement> found = check(one);
        assertFound(found, Category.ORDER_LOST_ON_THE_WAY_IN, "K-X");
        assertFound(found, Category.REPORT_LOST_AFTER_CRASH, "M");
        assertOnly(found, Category.ORDER_LOST_ON_THE_WAY_IN, Category.REPORT_LOST_AFTER_CRASH);
    }

    @Test
    void anExecIdSeenAgainWithOtherContentIsCaughtButAResendIsNot() {
        Session one = new Session("CLIENT1");
        one.order("E", BUY, 5).report("1", '0', '0', "E", BUY, 0, 5).order("F", BUY, 5)
            .report("1", '0', '0', "F", BUY, 0, 5);
        one.status("E", BUY, '0', 0, 5).status("F", BUY, '0', 0, 5);
        List<Disagreement> found = check(one);
        assertFound(found, Category.EXEC_ID_REUSED, "F");
        assertOnly(found, Category.EXEC_ID_REUSED);

        Session two = new Session("CLIENT2");
        two.order("G", BUY, 5).report("9", '0', '0', "G", BUY, 0, 5);
        two.log.received(message("8", "FIXMATCH", "CLIENT2", 2, "43=Y", "122=20261123-09:00:00.000", "37=7", "17=9",
            "150=0", "39=0", "11=G", "55=AAPL", "54=1", "14=0", "151=5")); // the same report, resent
        two.status("G", BUY, '0', 0, 5);
        assertEquals(List.of(), check(two));
    }

    @Test
    void aServerStatusThatDisagreesWithTheLastReportIsCaught() {
        Session one = new Session("CLIENT1");
        one.order("P", BUY, 5).report("1", '0', '0', "P", BUY, 0, 5).fill("2", "P", BUY, 5, 5, 0);
        one.order("Q", SELL, 5).report("3", '0', '0', "Q", SELL, 0, 5).fill("4", "Q", SELL, 5, 5, 0);
        one.order("R", BUY, 5).report("5", '0', '0', "R", BUY, 0, 5);
        one.status("P", BUY, '0', 0, 5)            // the client was told filled; the server has it live
            .unknown("Q", SELL)
            .status("R", BUY, '0', 0, 4);          // the quantities differ
        List<Disagreement> found = check(one);
        assertFound(found, Category.STATUS_MISMATCH, "P");
        assertFound(found, Category.STATUS_MISMATCH, "R");
        assertOnly(found, Category.STATUS_MISMATCH, Category.STATUS_MISMATCH);
    }

    /**
     * The status answer is the order as it stood: a call's uncross or an expiry by the cluster's timer, reported
     * after it, is later news (a CI run's client was told of an uncross after its answers and the checker called it
     * a mismatch), compared with nothing; a fill before the answer that the answer lacks is still caught.
     */
    @Test
    void whatTimersDidAfterTheStatusAnswerIsLaterNewsNotADisagreement() {
        Session one = new Session("CLIENT1");
        Session two = new Session("CLIENT2");
        one.order("U", BUY, 10).report("1", '0', '0', "U", BUY, 0, 10);
        two.order("S", SELL, 14).report("2", '0', '0', "S", SELL, 0, 14).fill("3", "S", SELL, 2, 2, 12);
        one.fill("4", "U", BUY, 2, 2, 8);
        one.order("V", BUY, 4).report("5", '0', '0', "V", BUY, 0, 4);
        one.order("E", SELL, 3).report("6", '0', '0', "E", SELL, 0, 3);
        one.status("U", BUY, '1', 2, 8).status("V", BUY, '0', 0, 4).status("E", SELL, '0', 0, 3);
        two.status("S", SELL, '1', 2, 12);
        one.fill("7", "U", BUY, 8, 10, 0).fill("9", "V", BUY, 4, 4, 0)  // the call's uncross, after the answers
            .report("11", 'C', 'C', "E", SELL, 0, 0);                 // a GTD expiry, after its answer
        two.fill("8", "S", SELL, 8, 10, 4).fill("10", "S", SELL, 4, 14, 0);
        assertEquals(List.of(), CrashChecker.check(List.of(one.finish(), two.finish())));
    }

    @Test
    void anyOtherReportAfterTheStatusAnswerIsCaught() {
        Session one = new Session("CLIENT1");
        one.order("K", BUY, 5).report("1", '0', '0', "K", BUY, 0, 5).status("K", BUY, '0', 0, 5)
            .report("2", '4', '4', "K", BUY, 0, 0);  // canceled after the last request: no timer does that
        List<Disagreement> found = check(one);
        assertFound(found, Category.STATUS_MISMATCH, "K");
        assertOnly(found, Category.STATUS_MISMATCH);
    }

    @Test
    void anOrderAcknowledgedTwiceIsCaught() {
        Session one = new Session("CLIENT1");
        one.order("W", BUY, 1).report("1", '0', '0', "W", BUY, 0, 1).report("2", '0', '0', "W", BUY, 0, 1)
            .status("W", BUY, '0', 0, 1);
        List<Disagreement> found = check(one);
        assertFound(found, Category.ORDER_ENTERED_TWICE, "W");
        assertOnly(found, Category.ORDER_ENTERED_TWICE);
    }

    @Test
    void sequenceNumbersThatResetGoBackOrLeaveAGapAreCaught() {
        Session reset = new Session("CLIENT1");
        reset.receive("A", "98=0", "108=30", "141=Y");
        assertAllOf(check(reset), Category.SEQUENCE_BROKEN);

        TraderLog back = new Session("CLIENT2").log; // received 1
        back.received(message("0", "FIXMATCH", "CLIENT2", 2));
        back.received(message("A", "FIXMATCH", "CLIENT2", 2, "98=0", "108=30")); // the server's numbers went back
        assertAllOf(CrashChecker.check(List.of(back)), Category.SEQUENCE_BROKEN);

        TraderLog gap = new Session("CLIENT3").log;
        gap.received(message("0", "FIXMATCH", "CLIENT3", 2));
        gap.received(message("0", "FIXMATCH", "CLIENT3", 5)); // 3 and 4 never come
        gap.finish(6);
        assertAllOf(CrashChecker.check(List.of(gap)), Category.SEQUENCE_BROKEN);

        TraderLog reused = new Session("CLIENT4").log;
        reused.received(message("0", "FIXMATCH", "CLIENT4", 2));
        reused.received(message("0", "FIXMATCH", "CLIENT4", 2, "43=Y", "112=other")); // another message as 2
        assertAllOf(CrashChecker.check(List.of(reused)), Category.SEQUENCE_BROKEN);

        TraderLog filled = new Session("CLIENT5").log;
        filled.received(message("4", "FIXMATCH", "CLIENT5", 2, "43=Y", "123=Y", "36=4")); // 2..3 gap-filled
        filled.received(message("0", "FIXMATCH", "CLIENT5", 4));
        filled.received(message("0", "FIXMATCH", "CLIENT5", 5));
        filled.finish(6);
        assertEquals(List.of(), CrashChecker.check(List.of(filled)));
    }

    @Test
    void aMessageTheClientRejectedAndAMissingStatusAnswerAreCaught() {
        Session one = new Session("CLIENT1");
        one.order("U", BUY, 1).report("1", '0', '0', "U", BUY, 0, 1);
        one.log.sent(message("3", "CLIENT1", "FIXMATCH", 50, "45=3", "58=Required tag missing"));
        List<Disagreement> found = check(one);
        assertFound(found, Category.NO_STATUS_ANSWER, "U");
        assertFound(found, Category.PROTOCOL_ERROR, null);
        assertOnly(found, Category.NO_STATUS_ANSWER, Category.PROTOCOL_ERROR);
    }
}
