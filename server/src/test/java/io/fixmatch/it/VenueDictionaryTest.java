package io.fixmatch.it;

import io.fixmatch.fix.app.VenueDictionary;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.fix.dictionary.DictionaryValidator;
import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.DataDictionary;
import quickfix.Message;
import quickfix.fix44.NewOrderSingle;
import quickfix.field.OrdType;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.SELL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The venue data dictionary (fixmatch-FIX44.xml, fix-gateway) against what a real server really sends: it loads in
 * QuickFIX/J's DataDictionary; a QuickFIX/J initiator that validates with it, not with FIX44.xml, trades through a
 * whole order flow without rejecting anything; and every message the server sends in a raw session that provokes
 * each kind of message (Reject, ResendRequest, SequenceReset, TestRequest, BusinessMessageReject, resends) passes
 * QuickFIX/J's strictest validation against it. Every MsgType the dictionary lists as sent by the venue is seen.
 * Everything the QuickFIX/J client sends passes the venue's own {@link DictionaryValidator}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VenueDictionaryTest {
    static final String DICTIONARY = "fixmatch-FIX44.xml";
    private static final Set<String> SENT_BY_THE_VENUE = Set.of("0", "1", "2", "3", "4", "5", "8", "9", "A", "j",
        "W", "X", "Y");

    @TempDir
    Path data;
    private FixmatchServer server;
    private QfjClient qfj;
    private RawFixClient raw;

    @AfterEach
    void stop() {
        if (qfj != null) {
            qfj.stopForcibly();
        }
        TestServers.closeQuietly(raw, server);
    }

    static DataDictionary venueDictionary() throws Exception {
        try (InputStream in = VenueDictionaryTest.class.getClassLoader().getResourceAsStream(DICTIONARY)) {
            if (in == null) {
                throw new IllegalStateException(DICTIONARY + " missing from the classpath");
            }
            return new DataDictionary(in);
        }
    }

    @Test
    void quickFixJValidatingWithTheVenueDictionaryAcceptsAWholeOrderFlow() throws Exception {
        server = TestServers.start(data);
        qfj = QfjClient.logOn("CLIENT1", server.port(), new QfjClient.Options().dataDictionary(DICTIONARY));
        qfj.send(Orders.limit("B1", "AAPL", BUY, 10, "100.5"));
        qfj.nextApp();
        qfj.send(Orders.limit("S1", "AAPL", SELL, 4, "100.5"));
        for (int i = 0; i < 3; i++) { // the sell's ack, then the two fills
            qfj.nextApp();
        }
        qfj.send(Orders.replace("B2", "B1", "AAPL", BUY, 8, "100.4"));
        qfj.nextApp();
        qfj.send(Orders.status("B2", "AAPL", BUY));
        qfj.nextApp();
        qfj.send(Orders.cancel("B3", "B2", "AAPL", BUY));
        qfj.nextApp();
        qfj.send(Orders.cancel("B4", "NO-SUCH-ORDER", "AAPL", BUY));
        assertEquals("9", QfjClient.msgType(qfj.nextApp()));
        NewOrderSingle market = Orders.limit("M1", "AAPL", SELL, 1, "1");
        market.set(new OrdType(OrdType.MARKET));
        market.removeField(44);
        qfj.send(market);
        qfj.nextApp();
        qfj.send(Orders.limit("U1", "NOPE", BUY, 1, "1"));
        qfj.nextApp();
        qfj.assertNoProtocolErrors();
        DataDictionary dictionary = venueDictionary();
        List<String> incoming = qfj.incomingRaw();
        incoming.forEach(message -> assertValid(dictionary, message));
        assertTrue(types(incoming).containsAll(Set.of("A", "8", "9")), "types seen: " + types(incoming));
        // ... and what a QuickFIX/J client sends passes the venue's own validator.
        DictionaryValidator validator = new DictionaryValidator(VenueDictionary.get());
        FixMessage parsed = new FixMessage();
        for (String sent : qfj.outgoingRaw()) {
            byte[] bytes = sent.getBytes(StandardCharsets.ISO_8859_1);
            assertEquals(DictionaryValidator.VALID, validator.parseAndValidate(bytes, 0, bytes.length, parsed),
                () -> "RefTagID " + validator.refTagId() + " of " + sent.replace('\u0001', '|'));
        }
    }

    @Test
    void everyKindOfMessageTheServerSendsIsValidAgainstTheVenueDictionary() throws Exception {
        server = TestServers.start(data);
        raw = new RawFixClient(server.port(), "CLIENT2");
        List<RawFix.Msg> received = new ArrayList<>();
        raw.send(raw.header("A").field(98, 0).field(108, 1).field(141, "Y"));
        expect(received, "A");
        raw.send(raw.newOrder("O1", "MSFT", "1", 5, "20"));
        expect(received, "8");
        raw.send(raw.header("R").field(131, "Q1").field(146, 1).field(55, "MSFT"));
        expect(received, "j");
        raw.send(raw.header("D").field(11, "E1").raw("55=").field(54, 1));
        expect(received, "3");
        raw.send(raw.header("1").field(112, "T1"));
        assertEquals("T1", expect(received, "0").get(112), "the Heartbeat answering the TestRequest");
        String nextFromServer = Long.toString(Long.parseLong(received.get(received.size() - 1).get(34)) + 1);
        raw.send(raw.header("2").field(7, 1).field(16, 0)); // everything again: A, 8, j, 3, 0 (and any Heartbeat)
        receiveUntil(received, m -> m.type().equals("4") && nextFromServer.equals(m.get(36))); // gap fills, resends
        long gapStart = raw.peekSeqNum();
        raw.seqNum(gapStart + 3);
        raw.send(raw.header("0"));
        expect(received, "2");
        raw.send(FixBuilder.header("4", raw.compId, RawFixClient.SERVER, gapStart).field(43, "Y")
            .field(122, FixBuilder.now()).field(123, "Y").field(36, gapStart + 4));
        // Silence: with HeartBtInt 1 the server sends a Heartbeat, then a TestRequest.
        receiveUntil(received, m -> m.type().equals("1"));
        raw.send(raw.header("5"));
        receiveUntil(received, m -> m.type().equals("5"));
        DataDictionary dictionary = venueDictionary();
        received.forEach(message -> assertValid(dictionary, message.raw()));
        Set<String> types = types(received.stream().map(RawFix.Msg::raw).toList());
        // All the venue sends but the OrderCancelReject, which the QuickFIX/J flow above gets.
        assertTrue(types.containsAll(Set.of("0", "1", "2", "3", "4", "5", "8", "A", "j")), "types seen: " + types);
        assertTrue(received.stream().anyMatch(m -> m.type().equals("8") && "Y".equals(m.get(43))), "a resent report");
    }

    @Test
    void theDictionaryDescribesExactlyTheMessagesOfTheVenue() throws Exception {
        DataDictionary dictionary = venueDictionary();
        assertEquals("FIX.4.4", dictionary.getVersion());
        Set<String> listed = new TreeSet<>();
        for (String type : new String[] {"0", "1", "2", "3", "4", "5", "8", "9", "A", "D", "F", "G", "H", "j", "R",
            "d", "C", "AE", "V", "W", "X", "Y"}) {
            if (dictionary.isMsgType(type)) {
                listed.add(type);
            }
        }
        Set<String> expected = new TreeSet<>(SENT_BY_THE_VENUE);
        expected.addAll(Set.of("D", "F", "G", "H", "V"));
        assertEquals(expected, listed);
        for (Map.Entry<Integer, String> trace : Map.of(7101, "TraceSocketRead", 7107, "TraceWrite").entrySet()) {
            assertTrue(dictionary.isMsgField("8", trace.getKey()), "trace tag " + trace.getKey() + " on 35=8");
            assertEquals(trace.getValue(), dictionary.getFieldName(trace.getKey()));
        }
        assertTrue(dictionary.isRequiredField("D", 38), "OrderQty required on NewOrderSingle");
        assertTrue(dictionary.isGroup("D", 78) && dictionary.isGroup("D", 386), "the accepted groups of D");
        assertTrue(dictionary.isGroup("V", 267) && dictionary.isGroup("V", 146), "the groups of V");
        assertTrue(dictionary.isGroup("W", 268) && dictionary.isGroup("X", 268), "the entries of W and X");
    }

    /** Takes every message up to and including the first that matches (each within the client's timeout). */
    /**
     * The next message of the server's answers, which must be of this type. HeartBtInt is 1 s here, so a slow second
     * in the test lets the server's timer in between two answers: its Heartbeats are skipped, its TestRequests
     * answered (both kept for validation too).
     */
    private RawFix.Msg expect(List<RawFix.Msg> received, String msgType) throws Exception {
        while (true) {
            RawFix.Msg message = raw.next();
            received.add(message);
            if (message.type().equals("1")) {
                raw.send(raw.header("0").field(112, message.get(112)));
            } else if (!message.type().equals("0") || message.get(112) != null) {
                assertEquals(msgType, message.type(), "MsgType of " + message);
                return message;
            }
        }
    }

    private void receiveUntil(List<RawFix.Msg> received, Predicate<RawFix.Msg> last) throws InterruptedException {
        for (int i = 0; i < 20; i++) {
            RawFix.Msg message = raw.next();
            received.add(message);
            if (last.test(message)) {
                return;
            }
        }
        fail("no such message among the next 20: " + received);
    }

    private static Set<String> types(List<String> messages) {
        Set<String> types = new TreeSet<>();
        for (String message : messages) {
            types.add(RawFix.Msg.parse(message).type());
        }
        return types;
    }

    private static void assertValid(DataDictionary dictionary, String raw) {
        try {
            Message message = new Message();
            message.fromString(raw, dictionary, dictionary, true);
            dictionary.validate(message);
        } catch (Exception e) {
            fail("not valid against the venue dictionary (" + e + "): " + raw.replace('\u0001', '|'));
        }
    }
}
