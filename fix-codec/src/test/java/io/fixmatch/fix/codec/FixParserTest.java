package io.fixmatch.fix.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static io.fixmatch.fix.codec.testing.FixBuilder.bytes;
import static io.fixmatch.fix.codec.testing.FixBuilder.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FixParserTest {
    private final FixMessage message = new FixMessage();

    private int parse(String text) {
        byte[] b = bytes(text);
        return FixParser.parse(b, 0, b.length, message);
    }

    @Test
    void validMessageFieldsTagsAndMsgType() {
        String text = message("35=D|49=CLIENT|56=FIXMATCH|34=2|52=20261123-08:00:00.456|11=ORD-1|55=AAPL|54=1|"
            + "38=100|40=2|44=150.1|");
        byte[] b = bytes(text);
        assertEquals(FixParser.OK, FixParser.parse(b, 0, b.length, message));
        assertEquals(MsgTypes.NEW_ORDER_SINGLE, message.msgType());
        assertEquals(0, message.errorTag());
        assertSame(b, message.buffer());
        assertEquals(0, message.offset());
        assertEquals(b.length, message.length());
        assertEquals(FixTestSupport.fields(text), FixTestSupport.fields(message));
        assertEquals(14, message.fieldCount());
        int[] tags = {8, 9, 35, 49, 56, 34, 52, 11, 55, 54, 38, 40, 44, 10};
        for (int i = 0; i < tags.length; i++) {
            assertEquals(tags[i], message.tagAt(i));
        }
        // Value positions point into the buffer.
        int symbol = message.indexOf(55);
        assertEquals("AAPL", new String(b, message.valueStartAt(symbol), message.valueLengthAt(symbol)));
        assertEquals(text.indexOf("55=AAPL") + 3, message.valueStartAt(symbol));
        assertEquals(text, message.toString());
    }

    @ParameterizedTest
    @CsvSource({"0, 48", "A, 65", "D, 68", "8, 56", "j, 106"})
    void oneCharacterMsgTypes(String type, int expected) {
        assertEquals(FixParser.OK, parse(message("35=" + type + "|")));
        assertEquals(expected, message.msgType());
        assertEquals(type, MsgTypes.toString(message.msgType()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"AE", "BE", "AN", "xx", "BN"})
    void twoCharacterMsgTypes(String type) {
        assertEquals(FixParser.OK, parse(message("35=" + type + "|")));
        assertEquals((type.charAt(0) << 8) | type.charAt(1), message.msgType());
        assertTrue(message.msgType() > 0xFF);
        assertEquals(type, MsgTypes.toString(message.msgType()));
    }

    @Test
    void longerMsgTypeIsParsedAsUnknown() {
        assertEquals(FixParser.OK, parse(message("35=ABC|")));
        assertEquals(-1, message.msgType());
    }

    @Test
    void parsesAtAnOffsetInALargerBuffer() {
        String text = message("35=0|34=5|");
        byte[] inner = bytes(text);
        byte[] outer = new byte[inner.length + 20];
        java.util.Arrays.fill(outer, (byte) 'Z');
        System.arraycopy(inner, 0, outer, 7, inner.length);
        assertEquals(FixParser.OK, FixParser.parse(outer, 7, inner.length, message));
        assertEquals(7, message.offset());
        assertEquals(inner.length, message.length());
        assertEquals(MsgTypes.HEARTBEAT, message.msgType());
        assertEquals(5, message.longValue(34));
        assertEquals(7 + text.indexOf("34=5") + 3, message.valueStartAt(message.indexOf(34)));
        assertEquals(FixTestSupport.fields(text), FixTestSupport.fields(message));
    }

    @Test
    void valuesMayContainEqualsSignsAndHighBytes() {
        assertEquals(FixParser.OK, parse(message("35=0|58=a=b==c|59=\u00e9\u00ff|")));
        assertEquals("a=b==c", message.stringValue(58));
        assertEquals(2, message.valueLength(59));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "8=FIX.4.4|9=5|3a=D|10=000|; 3; -",
        "8=FIX.4.4|9=5|abc=D|10=000|; 0; -",
        "8=FIX.4.4|9=5|35=D|0=x|10=000|; 0; D",
        "8=FIX.4.4|9=5|35=D|00=x|10=000|; 0; D",
        "8=FIX.4.4|9=5|035=D|10=000|; 35; -",
        "8=FIX.4.4|9=5|35=D|011=x|10=000|; 11; D",
        "8=FIX.4.4|9=5|35D|10=000|; 35; -",
        "8=FIX.4.4|9=5|35=D|=x|10=000|; 0; D",
        "8=FIX.4.4|9=5|35=D|-1=x|10=000|; -1; D",
        "8=FIX.4.4|9=5|35=D|-25=x|10=000|; -25; D",
        "8=FIX.4.4|9=5|35=D|-=x|10=000|; 0; D",
        "8=FIX.4.4|9=5|35=D|-1x=x|10=000|; 0; D",
        "8=FIX.4.4|9=5|35=D| 11=x|10=000|; 0; D",
        "8=FIX.4.4|9=5|35=D|11 =x|10=000|; 11; D",
        "8=FIX.4.4|9=5|35=D|1234567890=x|10=000|; 123456789; D",
        "8=FIX.4.4|9=5|35=D||10=000|; 0; D",
        "8=FIX.4.4|9=5|35=D|10; 10; D",
    })
    void invalidTags(String text, int errorTag, String msgTypeReadBefore) {
        assertEquals(FixParser.INVALID_TAG, parse(text));
        assertEquals(errorTag, message.errorTag());
        // A Reject can name the MsgType when it was read before the error.
        assertEquals(msgTypeReadBefore.equals("-") ? -1 : MsgTypes.NEW_ORDER_SINGLE, message.msgType());
    }

    @Test
    void nineDigitTagIsValid() {
        assertEquals(FixParser.OK, parse(message("35=0|123456789=x|")));
        assertEquals("x", message.stringValue(123456789));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "8=FIX.4.4|9=5|35=D|58=|10=000|; 58",
        "8=FIX.4.4|9=5|35=|10=000|; 35",
        "8=|9=5|35=D|10=000|; 8",
        "8=FIX.4.4|9=5|35=D|10=; 10",
    })
    void emptyValues(String text, int errorTag) {
        assertEquals(FixParser.EMPTY_VALUE, parse(text));
        assertEquals(errorTag, message.errorTag());
        assertEquals(errorTag == 58 || errorTag == 10 ? MsgTypes.NEW_ORDER_SINGLE : -1, message.msgType());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "8=FIX.4.4|35=D|9=5|10=000|",
        "35=D|8=FIX.4.4|9=5|10=000|",
        "8=FIX.4.4|9=5|49=X|35=D|10=000|",
        "8=FIX.4.4|9=5|49=X|10=000|",
        "8=FIX.4.4|9=5|",
        "8=FIX.4.4|",
        "",
    })
    void msgTypeNotThird(String text) {
        assertEquals(FixParser.MSG_TYPE_NOT_THIRD, parse(text));
        assertEquals(FixTags.MSG_TYPE, message.errorTag());
        assertEquals(-1, message.msgType());
    }

    @ParameterizedTest
    @ValueSource(ints = {8, 9, 35, 49, 56, 34, 52, 43, 11, 41, 54, 38, 40, 44, 59, 108, 7, 16, 36, 123})
    void singularTagsMustNotRepeat(int tag) {
        String body = tag == 35 ? "35=D|35=D|" : "35=D|" + tag + "=1|49=X|" + tag + "=2|";
        String text = tag == 8 ? "8=FIX.4.4|9=5|35=D|8=FIX.4.4|10=000|"
            : tag == 9 ? "8=FIX.4.4|9=5|35=D|9=5|10=000|" : message(body);
        assertEquals(FixParser.DUPLICATE_TAG, parse(text));
        assertEquals(tag, message.errorTag());
    }

    @Test
    void clOrdIdTwiceIsADuplicate() {
        assertEquals(FixParser.DUPLICATE_TAG, parse(message("35=D|11=A|55=AAPL|11=B|")));
        assertEquals(FixTags.CL_ORD_ID, message.errorTag());
    }

    @Test
    void repeatingGroupTagsMayRepeat() {
        String text = message("35=D|11=A|453=2|448=PARTY1|447=D|452=3|448=PARTY2|447=D|452=11|55=AAPL|");
        assertEquals(FixParser.OK, parse(text));
        assertEquals(0, message.errorTag());
        assertEquals(FixTestSupport.fields(text), FixTestSupport.fields(message));
        assertEquals("PARTY1", message.stringValue(448), "accessors see the first occurrence");
        List<String> fields = FixTestSupport.fields(message);
        assertEquals(2, fields.stream().filter(f -> f.startsWith("448=")).count());
    }

    @Test
    void tooManyFields() {
        StringBuilder body = new StringBuilder("35=0|");
        for (int i = 0; i < FixMessage.MAX_FIELDS; i++) {
            body.append("1=x|");
        }
        assertEquals(FixParser.TOO_MANY_FIELDS, parse(message(body.toString())));

        // Exactly MAX_FIELDS fields is fine: 8, 9, 35, 10 and MAX_FIELDS - 4 others.
        StringBuilder fits = new StringBuilder("35=0|");
        for (int i = 0; i < FixMessage.MAX_FIELDS - 4; i++) {
            fits.append("1=x|");
        }
        assertEquals(FixParser.OK, parse(message(fits.toString())));
        assertEquals(FixMessage.MAX_FIELDS, message.fieldCount());
    }

    @Test
    void reuseResetsState() {
        assertEquals(FixParser.DUPLICATE_TAG, parse(message("35=D|11=A|11=B|")));
        assertEquals(11, message.errorTag());
        assertEquals(FixParser.OK, parse(message("35=0|")));
        assertEquals(0, message.errorTag());
        assertEquals(MsgTypes.HEARTBEAT, message.msgType());
        assertEquals(4, message.fieldCount());
        assertFalse(message.has(11));
        assertEquals(FixParser.EMPTY_VALUE, parse("8=FIX.4.4|9=5|35=D|58=|10=000|"));
        assertEquals(MsgTypes.NEW_ORDER_SINGLE, message.msgType());
        assertEquals(FixParser.EMPTY_VALUE, parse("8=|9=5|35=D|10=000|"));
        assertEquals(-1, message.msgType());
        assertEquals(FixParser.OK, parse(message("35=AE|")));
        assertEquals(('A' << 8) | 'E', message.msgType());
    }

    @Test
    void parsesWhatTheWriterWrites() {
        FixWriter writer = new FixWriter(1024);
        writer.begin(MsgTypes.LOGON).field(49, "A").field(56, "B").field(34, 1L).field(98, 0L).field(108, 30L)
            .field(141, 'Y').finish();
        assertEquals(FixParser.OK, FixParser.parse(writer.buffer(), writer.start(), writer.length(), message));
        assertEquals(MsgTypes.LOGON, message.msgType());
        assertEquals(30, message.longValue(FixTags.HEART_BT_INT));
        assertTrue(message.isSingleByte(FixTags.RESET_SEQ_NUM_FLAG, 'Y'));
    }
}
