package io.fixmatch.it;

import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static io.fixmatch.it.RawFixClient.assertField;
import static io.fixmatch.it.RawFixClient.concat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Malformed and out-of-protocol input over a raw socket, one row per case: what is sent, how the server must react,
 * and, after every row, proof that another session (a QuickFIX/J CLIENT2 logged on throughout) is unaffected: it
 * still gets an ack for a new order.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MalformedInputRawTest {
    private static final Duration CLOSE_TIMEOUT = RawFixClient.TIMEOUT;
    private static final long LOGON_TIMEOUT_MS = 1500;
    private static final AtomicInteger OBSERVER_ORDERS = new AtomicInteger();
    /** The answer to every failed Logon (docs/FIX.md): it does not say which part was wrong. */
    static final String LOGON_REFUSED = "Logon refused: invalid SenderCompID, Username, Password or source address";

    @TempDir
    static Path data;
    private static ObservedServer running;
    private static FixmatchServer server;
    private static QfjClient observer;
    private final List<RawFixClient> raws = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        running = ObservedServer.start(data, Map.of("fix.logonTimeoutMs", String.valueOf(LOGON_TIMEOUT_MS)));
        server = running.server();
        observer = running.observer();
    }

    @AfterAll
    static void stop() {
        TestServers.closeQuietly(running);
    }

    @AfterEach
    void closeRawConnections() {
        raws.forEach(RawFixClient::close);
    }

    /** One row: what to send and what must happen, on connections it opens through the context. */
    @FunctionalInterface
    interface Scenario {
        void run(MalformedInputRawTest context) throws Exception;
    }

    RawFixClient connect(String compId) throws IOException {
        RawFixClient client = new RawFixClient(server.port(), compId);
        raws.add(client);
        return client;
    }

    /** A raw session logged on with sequence numbers reset to 1, HeartBtInt 30. */
    RawFixClient logOn(String compId) throws Exception {
        return logOn(compId, 30);
    }

    RawFixClient logOn(String compId, int heartBtInt) throws Exception {
        RawFixClient client = RawFixClient.loggedOn(server.port(), compId, heartBtInt);
        raws.add(client);
        return client;
    }

    static Stream<Arguments> rows() {
        return Stream.of(
            row("bad CheckSum: ignored, no answer; the same MsgSeqNum sent again correctly is processed", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                FixBuilder bad = c.newOrder("CS-BAD", "AAPL", "1", 1, "1.00");
                c.send(bad.checkSum((bad.rightCheckSum() + 1) % 256));
                c.seqNum(seq);
                c.send(c.newOrder("CS-GOOD", "AAPL", "1", 1, "1.00"));
                RawFix.Msg ack = c.next(); // the first answer is the good order's: nothing came for the bad one
                assertField(ack, 35, "8");
                assertField(ack, 11, "CS-GOOD");
                assertField(ack, 150, "0");
                expectHeartbeat(c, "still-up");
            }),
            row("BodyLength too long: it and the next message, whose start it took, are garbled; both resent in "
                + "order are processed in order, no ResendRequest", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(c.newOrder("BL-LONG", "AAPL", "1", 1, "1.00").bodyLengthDelta(25));
                c.send(c.newOrder("BL-TAKEN", "AAPL", "1", 1, "1.00"));
                c.seqNum(seq);
                c.send(c.newOrder("BL-OK", "AAPL", "1", 1, "1.00"));
                c.send(c.newOrder("BL-NEXT", "AAPL", "1", 1, "1.00"));
                assertField(c.expect("8"), 11, "BL-OK"); // an ExecutionReport first: no ResendRequest
                assertField(c.expect("8"), 11, "BL-NEXT");
                expectHeartbeat(c, "still-up");
            }),
            row("BodyLength too short: garbled, skipped; the next message (same MsgSeqNum) is processed", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(c.newOrder("BL-SHORT", "AAPL", "1", 1, "1.00").bodyLengthDelta(-7));
                c.seqNum(seq);
                c.send(c.newOrder("BL-OK2", "AAPL", "1", 1, "1.00"));
                assertField(c.expect("8"), 11, "BL-OK2");
                expectHeartbeat(c, "still-up");
            }),
            row("garbage between two valid messages in one write: both processed", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                byte[] first = c.header("1").field(112, "G1").bytes();
                byte[] second = c.header("1").field(112, "G2").bytes();
                byte[] garbage = "garbage\u0001123=abc\u00019=12\u0001=\u0001".getBytes(StandardCharsets.US_ASCII);
                c.send(concat(first, garbage, second));
                assertField(c.expect("0"), 112, "G1");
                assertField(c.expect("0"), 112, "G2");
            }),
            row("garbage that starts like a message (8=FIX.4.4, bad BodyLength) between two valid ones", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                byte[] first = c.header("1").field(112, "H1").bytes();
                byte[] second = c.header("1").field(112, "H2").bytes();
                byte[] garbage = "8=FIX.4.4\u00019=5\u000135=0\u000149=X\u0001".getBytes(StandardCharsets.US_ASCII);
                c.send(concat(first, garbage, second));
                assertField(c.expect("0"), 112, "H1");
                assertField(c.expect("0"), 112, "H2");
            }),
            row("NewOrderSingle without OrderQty(38): Reject reason 1 naming tag 38; the number is used", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(c.header("D").field(11, "NO-QTY").field(55, "AAPL").field(54, 1).field(60, FixBuilder.now())
                    .field(40, 2).field(44, "1.00"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 1);
                assertField(reject, 371, 38);
                assertField(reject, 45, seq);
                assertField(reject, 372, "D");
                c.send(c.newOrder("AFTER-NO-QTY", "AAPL", "1", 1, "1.00"));
                assertField(c.expect("8"), 11, "AFTER-NO-QTY");
            }),
            row("NewOrderSingle without Symbol(55): Reject reason 1 naming tag 55", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(c.header("D").field(11, "NO-SYM").field(54, 1).field(60, FixBuilder.now()).field(38, 1)
                    .field(40, 2).field(44, "1.00"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 1);
                assertField(reject, 371, 55);
                assertField(reject, 45, seq);
            }),
            row("a tag without a value: Reject reason 4 naming the tag; the number is used", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(c.header("D").field(11, "EMPTY").field(55, "AAPL").field(54, 1).raw("58=")
                    .field(60, FixBuilder.now()).field(38, 1).field(40, 2).field(44, "1.00"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 4);
                assertField(reject, 371, 58);
                assertField(reject, 45, seq);
                expectHeartbeat(c, "after-empty");
            }),
            row("MsgType not the third field: no message (FIX), ignored as garbled; its number is not used", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(new FixBuilder().field(49, "CLIENT1").field(35, "1").field(56, "FIXMATCH")
                    .field(34, seq).field(52, FixBuilder.now()).field(112, "X"));
                expectHeartbeat(c, "after-misplaced-msgtype"); // sent with the same number: the first answer
            }),
            row("a tag that is not a number: Reject reason 0", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(c.header("1").raw("abc=1").field(112, "x"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 0);
                assertField(reject, 45, seq);
                expectHeartbeat(c, "after-bad-tag");
            }),
            row("an order tag repeated: Reject reason 13 naming it", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(c.newOrder("TWICE", "AAPL", "1", 1, "1.00").field(38, 2));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 13);
                assertField(reject, 371, 38);
                assertField(reject, 45, seq);
                expectHeartbeat(c, "after-repeat");
            }),
            row("OrdType(40) out of its set (P = pegged): Reject reason 5 naming tag 40", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(c.header("D").field(11, "PEG").field(55, "AAPL").field(54, 1).field(60, FixBuilder.now())
                    .field(38, 1).field(40, "P").field(44, "1.00"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 5);
                assertField(reject, 371, 40);
                assertField(reject, 45, seq);
                assertField(reject, 372, "D");
            }),
            row("OrderQty(38) not a number: Reject reason 6 naming tag 38", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.header("D").field(11, "QTY-ABC").field(55, "AAPL").field(54, 1).field(60, FixBuilder.now())
                    .field(38, "ten").field(40, 2).field(44, "1.00"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 6);
                assertField(reject, 371, 38);
            }),
            row("Price(44) finer than the symbol's tick: a rejecting ExecutionReport, price not on tick", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.newOrder("FINE", "AAPL", "1", 1, "1.005"));
                RawFix.Msg report = c.expect("8");
                assertField(report, 150, "8");
                assertField(report, 39, "8");
                assertField(report, 11, "FINE");
                assertField(report, 38, 1);
                assertField(report, 103, 99);
                assertTrue(report.get(58).contains("tick"), report.toString());
            }),
            row("Price(44) not a decimal: Reject reason 6 naming tag 44", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.newOrder("BADPX", "AAPL", "1", 1, "1,5"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 6);
                assertField(reject, 371, 44);
            }),
            row("StopPx(99) finer than the symbol's tick: a rejecting ExecutionReport, invalid stop price", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.header("D").field(11, "FINESTOP").field(55, "AAPL").field(54, 1).field(60, FixBuilder.now())
                    .field(38, 1).field(40, 3).field(99, "1.005"));
                RawFix.Msg report = c.expect("8");
                assertField(report, 150, "8");
                assertField(report, 11, "FINESTOP");
                assertField(report, 103, 11);
                assertTrue(report.get(58).contains("stop price"), report.toString());
            }),
            row("StopPx(99) not a decimal: Reject reason 6 naming tag 99", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.header("D").field(11, "BADSTOP").field(55, "AAPL").field(54, 1).field(60, FixBuilder.now())
                    .field(38, 1).field(40, 3).field(99, "1,5"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 6);
                assertField(reject, 371, 99);
            }),
            row("MaxFloor(111) not a whole number: Reject reason 6 naming tag 111", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.newOrder("BADFLOOR", "AAPL", "1", 10, "1.00").field(111, "2.5"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 6);
                assertField(reject, 371, 111);
            }),
            row("TransactTime(60) missing on a NewOrderSingle: Reject reason 1 naming tag 60", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.header("D").field(11, "NOTIME").field(55, "AAPL").field(54, 1).field(38, 5).field(40, 2)
                    .field(44, "1.00"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 1);
                assertField(reject, 371, 60);
            }),
            row("PossDupFlag=Y without OrigSendingTime: Reject reason 1 naming tag 122", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(new FixBuilder().field(35, "1").field(49, "CLIENT1").field(56, "FIXMATCH")
                    .field(34, c.takeSeqNum()).field(43, "Y").field(52, FixBuilder.now()).field(112, "DUP"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 1);
                assertField(reject, 371, 122);
            }),
            row("SendingTime(52) missing: Reject reason 1 naming tag 52; the number is used", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.takeSeqNum();
                c.send(new FixBuilder().field(35, "1").field(49, "CLIENT1").field(56, "FIXMATCH")
                    .field(34, seq).field(112, "no-time"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 1);
                assertField(reject, 371, 52);
                assertField(reject, 45, seq);
                expectHeartbeat(c, "after-no-time");
            }),
            row("SendingTime(52) not a UTCTimestamp: Reject reason 6 naming tag 52", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.takeSeqNum();
                c.send(new FixBuilder().field(35, "1").field(49, "CLIENT1").field(56, "FIXMATCH")
                    .field(34, seq).field(52, "yesterday").field(112, "bad-time"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 6);
                assertField(reject, 371, 52);
                expectHeartbeat(c, "after-bad-time");
            }),
            row("SendingTime(52) 5 minutes off: Reject reason 10, then Logout and disconnect", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.takeSeqNum();
                String stale = FixBuilder.timestamp(java.time.Instant.now().minusSeconds(300));
                c.send(new FixBuilder().field(35, "1").field(49, "CLIENT1").field(56, "FIXMATCH")
                    .field(34, seq).field(52, stale).field(112, "stale"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 10);
                assertField(reject, 371, 52);
                c.expect("5");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("wrong SenderCompID after Logon: Reject reason 9, then Logout and disconnect", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(FixBuilder.header("1", "CLIENT2", "FIXMATCH", c.takeSeqNum()).field(112, "spoof"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 9);
                c.expect("5");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("Logon without EncryptMethod(98): refused with a Logout, then disconnect", t -> {
                RawFixClient c = t.connect("CLIENT1");
                c.send(c.header("A").field(108, 30).field(141, "Y"));
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 58, "Invalid Logon message: Required tag missing, field=98");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("Logon with EncryptMethod(98)=1: refused with a Logout, then disconnect", t -> {
                RawFixClient c = t.connect("CLIENT1");
                c.send(c.header("A").field(98, 1).field(108, 30).field(141, "Y"));
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 58, "Invalid Logon message: Value is incorrect (out of range) for this tag, field=98");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("Logon with HeartBtInt(108) out of range: refused with a Logout, then disconnect", t -> {
                RawFixClient c = t.connect("CLIENT1");
                c.send(c.header("A").field(98, 0).field(108, 4000).field(141, "Y"));
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 58, "HeartBtInt(108) must be 0..3600");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("Logon with ResetSeqNumFlag=Y but MsgSeqNum 5: refused with a Logout, then disconnect", t -> {
                RawFixClient c = t.connect("CLIENT1");
                c.seqNum(5);
                c.send(c.header("A").field(98, 0).field(108, 30).field(141, "Y"));
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 58, "ResetSeqNumFlag=Y requires MsgSeqNum=1");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("ClOrdID(11) longer than 40 characters: Reject reason 5 naming tag 11", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.newOrder("X".repeat(41), "AAPL", "1", 1, "1.00"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 5);
                assertField(reject, 371, 11);
                c.send(c.newOrder("X".repeat(40), "AAPL", "1", 1, "1.00"));
                assertField(c.expect("8"), 11, "X".repeat(40));
            }),
            row("MsgType(35) of three characters: Reject reason 11", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(c.header("ZZZ").field(112, "x"));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 11);
                assertField(reject, 371, 35);
                assertField(reject, 45, seq);
                expectHeartbeat(c, "after-zzz");
            }),
            row("Logon and a NewOrderSingle in one write: both processed", t -> {
                RawFixClient c = t.connect("CLIENT1");
                byte[] logon = c.header("A").field(98, 0).field(108, 30).field(141, "Y").bytes();
                c.send(concat(logon, c.newOrder("WITH-LOGON", "AAPL", "1", 1, "1.00").bytes()));
                c.expect("A");
                assertField(c.expect("8"), 11, "WITH-LOGON");
            }),
            row("a message written one byte at a time: processed", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                for (byte b : c.newOrder("BYTEWISE", "AAPL", "1", 1, "1.00").bytes()) {
                    c.send(new byte[] {b});
                }
                assertField(c.expect("8"), 11, "BYTEWISE");
            }),
            row("oversize message (> 8192 bytes): Logout, then disconnect", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.newOrder("HUGE", "AAPL", "1", 1, "1.00").field(58, "x".repeat(9000)));
                RawFix.Msg logout = c.expect("5");
                assertTrue(logout.get(58).contains("exceeds the maximum of 8192"), logout.toString());
                c.awaitClosedByServer(CLOSE_TIMEOUT);
                c.assertNothingMoreReceived();
            }),
            row("wrong BeginString FIX.4.2 on a logged-on session: Logout, then disconnect", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.header("1").field(112, "old").beginString("FIX.4.2"));
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 58, "Incorrect BeginString (FIX.4.4 required)");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("wrong BeginString FIX.4.2 at Logon: Logout, then disconnect", t -> {
                RawFixClient c = t.connect("CLIENT1");
                c.send(c.header("A").field(98, 0).field(108, 30).beginString("FIX.4.2"));
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 58, "Incorrect BeginString (FIX.4.4 required)");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("a message before Logon: Logout, then disconnect", t -> {
                RawFixClient c = t.connect("CLIENT1");
                c.send(c.newOrder("EARLY", "AAPL", "1", 1, "1.00"));
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 34, 1);
                assertField(logout, 56, "CLIENT1");
                assertField(logout, 58, "the first message must be a Logon");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
                c.assertNothingMoreReceived();
            }),
            row("a message numbered above 1 before Logon (a client mid-session that did not log on): closed without"
                + " a Logout, whose number could only clash with the session's", t -> {
                RawFixClient c = t.connect("CLIENT1");
                c.seqNum(5_000);
                c.send(c.newOrder("MIDSESSION", "AAPL", "1", 1, "1.00"));
                c.awaitClosedByServer(CLOSE_TIMEOUT);
                c.assertNothingMoreReceived();
            }),
            row("unknown SenderCompID at Logon: Logout that does not say what was wrong, then disconnect", t -> {
                RawFixClient c = t.connect("NOBODY");
                c.send(c.header("A").field(98, 0).field(108, 30));
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 56, "NOBODY");
                assertField(logout, 58, LOGON_REFUSED);
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("unknown TargetCompID at Logon: Logout with a text, then disconnect", t -> {
                RawFixClient c = t.connect("CLIENT1");
                c.send(FixBuilder.header("A", "CLIENT1", "ELSEWHERE", 1).field(98, 0).field(108, 30));
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 58, "unknown TargetCompID ELSEWHERE");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("second Logon of a logged-on session from another connection: refused, the first keeps working",
                t -> {
                    RawFixClient first = t.logOn("CLIENT1");
                    RawFixClient second = t.connect("CLIENT1");
                    second.send(second.header("A").field(98, 0).field(108, 30).field(141, "Y"));
                    RawFix.Msg logout = second.expect("5");
                    assertTrue(logout.get(58).contains("already logged on"), logout.toString());
                    second.awaitClosedByServer(CLOSE_TIMEOUT);
                    // The first connection's session was not reset or disturbed.
                    first.send(first.newOrder("FIRST-OK", "AAPL", "1", 1, "1.00"));
                    RawFix.Msg ack = first.expect("8");
                    assertField(ack, 11, "FIRST-OK");
                    assertField(ack, 34, 2);
                }),
            row("second Logon of the QuickFIX/J session CLIENT2 from a raw connection: refused", t -> {
                RawFixClient intruder = t.connect("CLIENT2");
                intruder.send(intruder.header("A").field(98, 0).field(108, 30).field(141, "Y"));
                RawFix.Msg logout = intruder.expect("5");
                assertTrue(logout.get(58).contains("already logged on"), logout.toString());
                intruder.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("MsgSeqNum too low without PossDupFlag: Logout, then disconnect", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                expectHeartbeat(c, "low-1");          // seq 2
                c.seqNum(2);
                c.send(c.header("1").field(112, "low-2")); // seq 2 again
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 58, "MsgSeqNum too low, expecting 3 but received 2");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("MsgSeqNum too high: ResendRequest from the expected number; a gap fill resumes the session", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.seqNum(5);
                c.send(c.header("1").field(112, "high")); // expected 2
                RawFix.Msg resendRequest = c.expect("2");
                assertField(resendRequest, 7, 2);
                assertField(resendRequest, 16, 0);
                // Gap fill 2..5 (the TestRequest is admin: not resent), then carry on at 6.
                c.send(FixBuilder.header("4", "CLIENT1", "FIXMATCH", 2).field(43, "Y").field(122, FixBuilder.now())
                    .field(123, "Y").field(36, 6));
                c.seqNum(6);
                expectHeartbeat(c, "after-gap-fill");
            }),
            row("Logon with MsgSeqNum too high: Logon, then ResendRequest from the expected number", t -> {
                RawFixClient before = t.logOn("CLIENT1");
                before.logout(); // server expects 3 next
                RawFixClient c = t.connect("CLIENT1");
                c.seqNum(6);
                c.send(c.header("A").field(98, 0).field(108, 30));
                c.expect("A");
                RawFix.Msg resendRequest = c.expect("2");
                assertField(resendRequest, 7, 3);
                assertField(resendRequest, 16, 0);
                c.send(FixBuilder.header("4", "CLIENT1", "FIXMATCH", 3).field(43, "Y").field(122, FixBuilder.now())
                    .field(123, "Y").field(36, 7));
                c.seqNum(7);
                expectHeartbeat(c, "after-logon-gap");
            }),
            row("Logon with MsgSeqNum too low (no reset): Logout, then disconnect", t -> {
                RawFixClient before = t.logOn("CLIENT1");
                before.logout(); // server expects 3 next
                RawFixClient c = t.connect("CLIENT1");
                c.seqNum(2);
                c.send(c.header("A").field(98, 0).field(108, 30));
                RawFix.Msg logout = c.expect("5");
                assertField(logout, 58, "MsgSeqNum too low, expecting 3 but received 2");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("PossDupFlag=Y duplicate of a processed message: ignored", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                String sendingTime = FixBuilder.now();
                c.send(c.newOrder("PD-1", "AAPL", "1", 1, "1.00"));
                assertField(c.expect("8"), 11, "PD-1");
                c.send(FixBuilder.header("D", "CLIENT1", "FIXMATCH", seq).field(43, "Y").field(122, sendingTime)
                    .field(11, "PD-1").field(55, "AAPL").field(54, 1).field(60, sendingTime).field(38, 1)
                    .field(40, 2).field(44, "1.00"));
                // Processing it again would have answered with a duplicate-ClOrdID reject; the Heartbeat is first.
                expectHeartbeat(c, "after-dup");
            }),
            row("TestRequest: Heartbeat with the same TestReqID", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                c.send(c.header("1").field(112, "ping-42"));
                RawFix.Msg heartbeat = c.expect("0");
                assertField(heartbeat, 112, "ping-42");
                assertField(heartbeat, 34, 2);
                assertField(heartbeat, 49, "FIXMATCH");
                assertField(heartbeat, 56, "CLIENT1");
            }),
            row("unsupported application message (35=R): BusinessMessageReject reason 3", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                long seq = c.peekSeqNum();
                c.send(c.header("R").field(131, "QR-1").field(146, 1).field(55, "AAPL"));
                RawFix.Msg reject = c.expect("j");
                assertField(reject, 380, 3);
                assertField(reject, 372, "R");
                assertField(reject, 45, seq);
                expectHeartbeat(c, "after-j");
            }),
            row("SequenceReset-Reset to a lower number: Reject reason 5 naming NewSeqNo(36)", t -> {
                RawFixClient c = t.logOn("CLIENT1");
                expectHeartbeat(c, "before-reset"); // seq 2, server expects 3
                long seq = c.takeSeqNum();
                c.send(FixBuilder.header("4", "CLIENT1", "FIXMATCH", seq).field(36, 2));
                RawFix.Msg reject = c.expect("3");
                assertField(reject, 373, 5);
                assertField(reject, 371, 36);
                c.seqNum(3);
                expectHeartbeat(c, "after-bad-reset");
            }),
            row("silent client (HeartBtInt=1): TestRequest, then Logout and disconnect", t -> {
                RawFixClient c = t.logOn("CLIENT1", 1);
                RawFix.Msg testRequest = c.nextMatching(m -> m.type().equals("1"), 5);
                assertNotNull(testRequest.get(112), "TestReqID");
                RawFix.Msg logout = c.nextMatching(m -> !m.type().equals("0"), 5);
                assertField(logout, 35, "5");
                assertField(logout, 58, "heartbeat timeout");
                c.awaitClosedByServer(CLOSE_TIMEOUT);
            }),
            row("ResendRequest: application messages resent with PossDupFlag and OrigSendingTime, admin gap-filled",
                t -> {
                    RawFixClient c = t.logOn("CLIENT1");                    // server 1: Logon
                    c.send(c.newOrder("RR-1", "AAPL", "1", 1, "1.00"));
                    RawFix.Msg er2 = c.expect("8");                         // server 2: ER
                    expectHeartbeat(c, "rr");                               // server 3: Heartbeat
                    c.send(c.newOrder("RR-2", "AAPL", "1", 2, "1.00"));
                    RawFix.Msg er4 = c.expect("8");                         // server 4: ER
                    c.send(c.header("2").field(7, 1).field(16, 0));
                    RawFix.Msg fill1 = c.expect("4");
                    assertGapFill(fill1, 1, 2);
                    assertResent(c.expect("8"), er2);
                    assertGapFill(c.expect("4"), 3, 4);
                    assertResent(c.expect("8"), er4);
                    // A bounded range: only message 2.
                    c.send(c.header("2").field(7, 2).field(16, 2));
                    assertResent(c.expect("8"), er2);
                    // Then the session numbers on: the next message is 5.
                    c.send(c.header("1").field(112, "after-resend"));
                    RawFix.Msg heartbeat = c.expect("0");
                    assertField(heartbeat, 34, 5);
                    assertField(heartbeat, 112, "after-resend");
                }),
            row("a connection that never sends a Logon is closed after fix.logonTimeoutMs", t -> {
                RawFixClient c = t.connect("CLIENT1");
                long start = System.nanoTime();
                c.awaitClosedByServer(CLOSE_TIMEOUT);
                long elapsedMs = (System.nanoTime() - start) / 1_000_000;
                assertTrue(elapsedMs >= LOGON_TIMEOUT_MS - 100, "closed after " + elapsedMs + " ms");
                c.assertNothingMoreReceived();
            }),
            row("a refused second Logon of LOADGEN does not cancel the orders of the logged-on LOADGEN", t -> {
                RawFixClient c = t.logOn("LOADGEN");
                c.send(c.newOrder("KEEP-1", "JPM", "2", 10, "5.00"));
                assertField(c.expect("8"), 150, "0");
                RawFixClient intruder = t.connect("LOADGEN");
                intruder.send(intruder.header("A").field(98, 0).field(108, 30));
                intruder.expect("5");
                intruder.awaitClosedByServer(CLOSE_TIMEOUT);
                c.send(c.header("H").field(11, "KEEP-1").field(55, "JPM").field(54, 2));
                RawFix.Msg status = c.expect("8");
                assertField(status, 150, "I");
                assertField(status, 39, "0");
                assertField(status, 151, 10);
                c.logout(); // cancels it now
            }),
            row("LOADGEN drops its connection: its orders are canceled (cancel-on-disconnect)", t -> {
                RawFixClient c = t.logOn("LOADGEN");
                c.send(c.newOrder("COD-1", "XOM", "2", 10, "5.00"));
                assertField(c.expect("8"), 150, "0");
                c.close(); // no Logout
                RawFixClient again = t.logOn("LOADGEN");
                again.send(again.header("H").field(11, "COD-1").field(55, "XOM").field(54, 2));
                // The cancel may be reported live, if it reaches the session after this Logon (which reset the
                // sequence numbers and with them anything stored before); the status answer comes after it.
                RawFix.Msg status = again.expect("8");
                if (!"I".equals(status.get(150))) {
                    assertField(status, 11, "COD-1");
                    assertField(status, 150, "4");
                    assertField(status, 151, 0);
                    status = again.expect("8");
                }
                assertField(status, 150, "I");
                assertField(status, 39, "8");
                // And nothing rests at 5.00: an IOC buy there is canceled unfilled.
                again.send(again.header("D").field(11, "COD-IOC").field(55, "XOM").field(54, 1)
                    .field(60, FixBuilder.now()).field(38, 10).field(40, 2).field(44, "5.00").field(59, 3));
                assertField(again.expect("8"), 150, "0");
                RawFix.Msg canceled = again.expect("8");
                assertField(canceled, 150, "4");
                assertField(canceled, 14, 0);
            }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void malformedInput(String name, Scenario scenario) throws Exception {
        scenario.run(this);
        for (RawFixClient raw : raws) {
            raw.assertFramedCorrectly();
        }
        // Another session is unaffected.
        String clOrdId = "OBS-" + OBSERVER_ORDERS.incrementAndGet();
        observer.send(Orders.limit(clOrdId, "V", Orders.BUY, 1, "1.00"));
        Orders.assertFields(observer.nextApp("8"), 11, clOrdId, 150, "0", 39, "0");
        observer.assertNoPendingApp();
        observer.assertNoProtocolErrors();
        assertTrue(observer.isLoggedOn());
    }

    @Test
    void wrongPasswordIsRefused() throws Exception {
        Path folder = data.resolve("password-server");
        try (FixmatchServer guarded = TestServers.start(folder, 0, Map.of("session.CLIENT1.username", "alice",
            "session.CLIENT1.password", "s3cret"))) {
            for (String[] credentials : new String[][] {{"alice", "wrong"}, {"bob", "s3cret"}, {"alice", null}}) {
                try (RawFixClient c = new RawFixClient(guarded.port(), "CLIENT1")) {
                    FixBuilder logon = c.header("A").field(98, 0).field(108, 30).field(553, credentials[0]);
                    if (credentials[1] != null) {
                        logon.field(554, credentials[1]);
                    }
                    c.send(logon);
                    RawFix.Msg logout = c.expect("5");
                    assertField(logout, 58, LOGON_REFUSED);
                    c.awaitClosedByServer(CLOSE_TIMEOUT);
                }
            }
            try (RawFixClient c = new RawFixClient(guarded.port(), "CLIENT1")) {
                c.send(c.header("A").field(98, 0).field(108, 30).field(553, "alice").field(554, "s3cret"));
                RawFix.Msg logon = c.expect("A");
                assertField(logon, 34, 1);
                c.send(c.newOrder("PW-1", "AAPL", "1", 1, "1.00"));
                assertField(c.expect("8"), 11, "PW-1");
                c.logout();
            }
        }
    }

    private static void expectHeartbeat(RawFixClient c, String testReqId) throws Exception {
        c.send(c.header("1").field(112, testReqId));
        RawFix.Msg heartbeat = c.expect("0");
        assertEquals(testReqId, heartbeat.get(112), heartbeat.toString());
    }

    private static void assertGapFill(RawFix.Msg message, long seqNum, long newSeqNo) {
        assertField(message, 35, "4");
        assertField(message, 34, seqNum);
        assertField(message, 123, "Y");
        assertField(message, 36, newSeqNo);
        assertField(message, 43, "Y");
        assertNotNull(message.get(122), "OrigSendingTime in " + message);
    }

    /** A resend: same number and body as the original, PossDupFlag=Y, OrigSendingTime = the original SendingTime. */
    private static void assertResent(RawFix.Msg resent, RawFix.Msg original) {
        assertField(resent, 34, original.seqNum());
        assertField(resent, 43, "Y");
        assertField(resent, 122, original.get(52));
        assertTrue(resent.get(52).compareTo(original.get(52)) >= 0, "SendingTime of " + resent);
        assertEquals(body(original), body(resent), "resent body");
    }

    /** The fields after the standard header (and before the CheckSum). */
    private static List<String> body(RawFix.Msg message) {
        List<String> header = List.of("8", "9", "35", "49", "56", "34", "52", "43", "97", "122", "10");
        return message.fields().stream().filter(f -> !header.contains(f[0])).map(f -> f[0] + "=" + f[1]).toList();
    }

    private static Arguments row(String name, Scenario scenario) {
        return Arguments.of(name, scenario);
    }
}
