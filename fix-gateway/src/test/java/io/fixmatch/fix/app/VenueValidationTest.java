package io.fixmatch.fix.app;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.dictionary.DictionaryValidator;
import io.fixmatch.fix.dictionary.SessionRejectReasons;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The validator over the venue dictionary, one reason code at a time: a message that triggers it and a near miss
 * that does not. Messages are framed by the codec's writer (right BodyLength and CheckSum) and parsed by the parser,
 * as on a connection.
 */
class VenueValidationTest {
    private static final String NOW = "20261123-14:00:00.000";
    private final DictionaryValidator validator = new DictionaryValidator(VenueDictionary.get());
    private final FixMessage message = new FixMessage();
    private final FixWriter writer = new FixWriter(2048);

    /** The standard header, then the body fields. */
    private byte[] message(int msgType, Consumer<FixWriter> body) {
        writer.begin(msgType).field(49, "TW").field(56, "ISLD").field(34, 2L).field(52, NOW);
        body.accept(writer);
        writer.finish();
        return Arrays.copyOfRange(writer.buffer(), writer.start(), writer.start() + writer.length());
    }

    /** A valid NewOrderSingle, with {@code more} after its fields. */
    private byte[] order(Consumer<FixWriter> more) {
        return message(MsgTypes.NEW_ORDER_SINGLE, w -> {
            w.field(11, "ID").field(21, '1').field(55, "INTC").field(54, '1').field(60, NOW).field(38, 100L)
                .field(40, '2').field(44, "25.5").field(59, '0');
            more.accept(w);
        });
    }

    private int validate(byte[] bytes) {
        return validator.parseAndValidate(bytes, 0, bytes.length, message);
    }

    private void assertReject(int reason, int refTagId, byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1).replace('\u0001', '|');
        assertEquals(reason, validate(bytes), "reason of " + text);
        assertEquals(refTagId, validator.refTagId(), "RefTagID of " + text);
    }

    private void assertValid(byte[] bytes) {
        assertEquals(DictionaryValidator.VALID, validate(bytes),
            () -> "refTag " + validator.refTagId() + " in " + new String(bytes, StandardCharsets.ISO_8859_1));
    }

    @Test
    void validMessagesOfEveryAcceptedType() {
        assertValid(order(w -> { }));
        assertValid(message('0', w -> { }));
        assertValid(message('0', w -> w.field(112, "HELLO")));
        assertValid(message('1', w -> w.field(112, "HELLO")));
        assertValid(message('2', w -> w.field(7, 1L).field(16, 0L)));
        assertValid(message('3', w -> w.field(45, 1L).field(58, "why")));
        assertValid(message('4', w -> w.field(123, 'Y').field(36, 5L)));
        assertValid(message('5', w -> w.field(58, "bye")));
        assertValid(message('A', w -> w.field(98, 0L).field(108, 30L).field(141, 'Y')));
        assertValid(message('F', w -> w.field(41, "ID").field(11, "C1").field(55, "INTC").field(54, '1')
            .field(60, NOW)));
        assertValid(message('G', w -> w.field(11, "R1").field(41, "ID").field(55, "INTC").field(54, '1')
            .field(60, NOW).field(38, 200L).field(40, '2').field(44, "25.6")));
        assertValid(message('H', w -> w.field(11, "ID").field(55, "INTC").field(54, '2')));
        assertValid(message('V', w -> w.field(262, "MD1").field(263, '1').field(264, 0L).field(265, 1L)
            .field(266, 'Y').field(267, 3L).field(269, '0').field(269, '1').field(269, '2').field(146, 2L)
            .field(55, "INTC").field(55, "MSFT")));
    }

    @Test
    void marketDataRequestStructure() {
        assertReject(1, 263, message('V', w -> w.field(262, "MD1").field(264, 0L).field(267, 1L).field(269, '0')
            .field(146, 1L).field(55, "INTC")));
        assertReject(16, 267, message('V', w -> w.field(262, "MD1").field(263, '1').field(264, 0L).field(267, 2L)
            .field(269, '0').field(146, 1L).field(55, "INTC")));
        assertReject(5, 263, message('V', w -> w.field(262, "MD1").field(263, '7').field(264, 0L).field(267, 1L)
            .field(269, '0').field(146, 1L).field(55, "INTC")));
    }

    @Test
    void reason0InvalidTagNumber() {
        assertReject(SessionRejectReasons.INVALID_TAG_NUMBER, 999, message('0', w -> w.field(999, "HI")));
        assertReject(SessionRejectReasons.INVALID_TAG_NUMBER, 5000, message('0', w -> w.field(5000, "HI")));
        assertReject(SessionRejectReasons.INVALID_TAG_NUMBER, 0, message('0', w -> w.field(0, "HI")));
        assertReject(SessionRejectReasons.INVALID_TAG_NUMBER, -1, message('0', w -> w.field(-1, "HI")));
        assertValid(message('0', w -> w.field(112, "HI")));
    }

    @Test
    void reason1RequiredTagMissing() {
        assertReject(SessionRejectReasons.REQUIRED_TAG_MISSING, 56,
            bytes(w -> w.begin('0').field(49, "TW").field(34, 2L).field(52, NOW)));
        assertReject(SessionRejectReasons.REQUIRED_TAG_MISSING, 55, message('D', w -> w.field(11, "id")
            .field(54, '1').field(60, NOW).field(38, 1L).field(40, '1')));
        assertReject(SessionRejectReasons.REQUIRED_TAG_MISSING, 112, message('1', w -> { }));
        assertValid(message('D', w -> w.field(11, "id").field(55, "X").field(54, '1').field(60, NOW)
            .field(38, 1L).field(40, '1')));
    }

    @Test
    void reason2TagNotDefinedForThisMessageType() {
        assertReject(SessionRejectReasons.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE, 55,
            message('0', w -> w.field(55, "MSFT")));
        // ExDestination is a FIX 4.4 order field the venue recognises but does not take; MinQty it takes on D only.
        assertReject(SessionRejectReasons.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE, 100, order(w -> w.field(100, "XNYS")));
        assertReject(SessionRejectReasons.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE, 110, message('F', w -> w.field(11, "c")
            .field(41, "o").field(55, "X").field(54, '1').field(60, NOW).field(110, 9L)));
        assertValid(order(w -> w.field(110, 9L).field(111, 5L).field(99, "10.5").field(18, "6")
            .field(126, NOW).field(432, "20300101")));
        // A group member outside its group.
        assertReject(SessionRejectReasons.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE, 336, order(w -> w.field(336, "X")));
        assertValid(order(w -> w.field(1, "ACCT")));
    }

    @Test
    void reason4TagSpecifiedWithoutAValue() {
        assertReject(SessionRejectReasons.TAG_WITHOUT_VALUE, 56,
            bytes(w -> w.begin('0').field(49, "TW").field(34, 2L).field(52, NOW).field(56, "")));
        assertReject(SessionRejectReasons.TAG_WITHOUT_VALUE, 115, order(w -> w.field(115, "")));
        assertValid(order(w -> w.field(58, " ")));
    }

    @Test
    void reason5ValueIsIncorrect() {
        assertReject(SessionRejectReasons.VALUE_INCORRECT, 21, message('D', w -> w.field(11, "ID").field(21, '4')
            .field(40, '1').field(54, '1').field(38, "002000.00").field(55, "INTC").field(60, NOW)));
        assertReject(SessionRejectReasons.VALUE_INCORRECT, 167, order(w -> w.field(167, "BOO")));
        assertReject(SessionRejectReasons.VALUE_INCORRECT, 40, message('D', w -> w.field(11, "ID").field(38, 1L)
            .field(40, 'w').field(54, '1').field(55, "INTC").field(60, NOW)));
        assertReject(SessionRejectReasons.VALUE_INCORRECT, 98, message('A', w -> w.field(98, 1L).field(108, 30L)));
        assertValid(order(w -> w.field(167, "CS")));
        // ExecInst takes 6 (post-only) alone: any other instruction, alone or beside it, is refused.
        assertReject(SessionRejectReasons.VALUE_INCORRECT, 18, order(w -> w.field(18, "E")));
        assertReject(SessionRejectReasons.VALUE_INCORRECT, 18, order(w -> w.field(18, "6 E")));
        assertValid(message('D', w -> w.field(11, "ID").field(21, '3').field(40, '1').field(54, '1')
            .field(38, "002000.00").field(55, "INTC").field(60, NOW)));
    }

    @Test
    void reason6IncorrectDataFormat() {
        assertReject(SessionRejectReasons.INCORRECT_DATA_FORMAT, 38, message('D', w -> w.field(11, "ID")
            .field(21, '1').field(40, '1').field(54, '1').field(38, "+200.00").field(55, "INTC").field(60, NOW)));
        assertReject(SessionRejectReasons.INCORRECT_DATA_FORMAT, 60, order(w -> { }, "20040415"));
        // Checked before 'not defined for this message type', as in QuickFIX/J.
        assertReject(SessionRejectReasons.INCORRECT_DATA_FORMAT, 126, order(w -> w.field(126, "20040415")));
        assertReject(SessionRejectReasons.INCORRECT_DATA_FORMAT, 108, message('A', w -> w.field(98, 0L)
            .field(108, "3O")));
        assertReject(SessionRejectReasons.INCORRECT_DATA_FORMAT, 43, message('0', w -> w.field(43, "YES")));
        assertValid(message('0', w -> w.field(43, 'N')));
        assertValid(order(w -> { }, "20261123-14:00:00"));
    }

    @Test
    void reason9CompIdProblemIsTheSessions() {
        assertValid(bytes(w -> w.begin('0').field(49, "WT").field(56, "DLSI").field(34, 2L).field(52, NOW)));
    }

    @Test
    void reason11InvalidMsgType() {
        assertReject(SessionRejectReasons.INVALID_MSG_TYPE, 35, message('*', w -> { }));
        assertReject(SessionRejectReasons.INVALID_MSG_TYPE, 35, message(('Z' << 8) | 'Z', w -> { }));
        // Valid FIX 4.4 types the venue does not take are the application's (BusinessMessageReject).
        assertEquals(DictionaryValidator.UNSUPPORTED_MSG_TYPE, validate(message('R', w -> w.field(131, "Q"))));
        assertEquals(DictionaryValidator.UNSUPPORTED_MSG_TYPE, validate(message('C', w -> w.field(164, "T"))));
        assertValid(message('8', w -> w.field(37, "id").field(17, "id").field(150, '0').field(39, '0')
            .field(55, "WLRI").field(54, '1').field(151, 100L).field(14, 0L).field(6, "0.0")));
    }

    @Test
    void unsupportedTypesStillGetTheirHeaderChecked() {
        assertReject(SessionRejectReasons.REQUIRED_TAG_MISSING, 52,
            bytes(w -> w.begin('R').field(49, "TW").field(56, "ISLD").field(34, 2L).field(131, "Q")));
    }

    @Test
    void reason13TagAppearsMoreThanOnce() {
        assertReject(SessionRejectReasons.TAG_APPEARS_MORE_THAN_ONCE, 1, order(w -> w.field(1, "A").field(1, "B")));
        assertReject(SessionRejectReasons.TAG_APPEARS_MORE_THAN_ONCE, 40, message('D', w -> w.field(11, "ID")
            .field(21, '1').field(40, '1').field(54, '1').field(40, '2').field(38, "200.00").field(55, "INTC")
            .field(60, NOW)));
        assertReject(SessionRejectReasons.TAG_APPEARS_MORE_THAN_ONCE, 386, order(w -> w.field(386, 1L)
            .field(336, "A").field(386, 1L).field(336, "B")));
        assertValid(order(w -> w.field(386, 2L).field(336, "A").field(336, "B")));
        // Symbol may repeat in V's NoRelatedSym, so the parser lets it through: the dictionary refuses it on D.
        assertReject(SessionRejectReasons.TAG_APPEARS_MORE_THAN_ONCE, 55, order(w -> w.field(55, "MSFT")));
    }

    @Test
    void reason14TagSpecifiedOutOfRequiredOrder() {
        assertReject(SessionRejectReasons.TAG_OUT_OF_ORDER, 34, bytes(w -> w.begin('D').field(11, "id")
            .field(21, '3').field(40, '1').field(54, '1').field(55, "MSFT").field(60, NOW).field(38, 1L)
            .field(34, 2L).field(49, "TW").field(52, NOW).field(56, "ISLD")));
        assertReject(SessionRejectReasons.TAG_OUT_OF_ORDER, 34, bytes(w -> w.begin('D').field(55, "MSFT")
            .field(34, 3L).field(49, "TW").field(52, NOW).field(56, "ISLD").field(11, "id").field(40, '1')
            .field(54, '1').field(60, NOW).field(38, 1L)));
        assertReject(SessionRejectReasons.TAG_OUT_OF_ORDER, 10, order(w -> w.field(10, "000")));
        // Header fields among themselves and body fields among themselves may come in any order.
        assertValid(bytes(w -> w.begin('D').field(49, "TW").field(34, 3L).field(56, "ISLD").field(52, NOW)
            .field(40, '1').field(55, "MSFT").field(60, NOW).field(54, '1').field(21, '3').field(11, "id")
            .field(38, 1L)));
    }

    @Test
    void reason15RepeatingGroupFieldsOutOfOrder() {
        assertReject(SessionRejectReasons.GROUP_FIELDS_OUT_OF_ORDER, 661, order(w -> w.field(78, 2L)
            .field(79, "acct1").field(80, 50L).field(661, 1L).field(79, "acct2").field(80, 150L).field(661, 1L)));
        // The first member must be the delimiter, AllocAccount(79).
        assertReject(SessionRejectReasons.GROUP_FIELDS_OUT_OF_ORDER, 80, order(w -> w.field(78, 1L)
            .field(80, 50L).field(79, "acct1")));
        assertValid(order(w -> w.field(78, 2L).field(79, "acct1").field(661, 1L).field(80, 50L)
            .field(79, "acct2").field(80, 150L)));
    }

    @Test
    void reason16IncorrectNumInGroupCount() {
        assertReject(SessionRejectReasons.INCORRECT_NUM_IN_GROUP, 386, order(w -> w.field(386, 3L)
            .field(336, "PRE-OPEN").field(336, "AFTER-HOURS")));
        assertReject(SessionRejectReasons.INCORRECT_NUM_IN_GROUP, 386, order(w -> w.field(386, 1L)
            .field(336, "PRE-OPEN").field(336, "AFTER-HOURS")));
        assertReject(SessionRejectReasons.INCORRECT_DATA_FORMAT, 386, order(w -> w.field(386, "x")));
        assertValid(order(w -> w.field(386, 2L).field(336, "PRE-OPEN").field(336, "AFTER-HOURS")));
        assertValid(order(w -> w.field(386, 0L)));
    }

    @Test
    void msgTypeNotThirdIsGarbled() {
        byte[] bytes = "8=FIX.4.4\u00019=5\u000134=3\u000135=0\u000110=000\u0001".getBytes(StandardCharsets.US_ASCII);
        assertEquals(DictionaryValidator.GARBLED, validate(bytes));
        // Found by fuzzing: a garbled message after a Reject kept the Reject's RefTagID.
        assertReject(SessionRejectReasons.INVALID_TAG_NUMBER, 999, message('0', w -> w.field(999, "HI")));
        assertEquals(DictionaryValidator.GARBLED, validate(bytes));
        assertEquals(0, validator.refTagId());
    }

    @Test
    void standardRejectTexts() {
        assertEquals("Invalid tag number", SessionRejectReasons.text(0));
        assertEquals("Out of order repeating group members", SessionRejectReasons.text(15));
        assertEquals("Incorrect NumInGroup count for repeating group", SessionRejectReasons.text(16));
        assertEquals("Incorrect data format for value, field=", SessionRejectReasons.textBeforeTag(6));
        assertEquals("Other", SessionRejectReasons.text(99));
        byte[] written = bytes(w -> w.begin('3').field(58, SessionRejectReasons.textBeforeTag(1), 55));
        assertTrue(new String(written, StandardCharsets.US_ASCII).contains("58=Required tag missing, field=55\u0001"));
    }

    @Test
    void validationAllocatesNothing() {
        byte[] valid = order(w -> w.field(386, 2L).field(336, "A").field(336, "B").field(78, 1L).field(79, "a"));
        byte[] invalid = order(w -> w.field(167, "BOO"));
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 20_000; i++) { // warm up, so the JIT's own allocations are done
            validate(valid);
            validate(invalid);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            validate(valid);
            validate(invalid);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 10_000, allocated + " bytes allocated by 200,000 validations");
    }

    /** A whole message written by {@code writing} from {@code begin} on. */
    private byte[] bytes(Consumer<FixWriter> writing) {
        writing.accept(writer);
        writer.finish();
        return Arrays.copyOfRange(writer.buffer(), writer.start(), writer.start() + writer.length());
    }

    /** A NewOrderSingle with this TransactTime. */
    private byte[] order(Consumer<FixWriter> more, String transactTime) {
        return message(MsgTypes.NEW_ORDER_SINGLE, w -> {
            w.field(11, "ID").field(55, "INTC").field(54, '1').field(60, transactTime).field(38, 100L)
                .field(40, '1');
            more.accept(w);
        });
    }
}
