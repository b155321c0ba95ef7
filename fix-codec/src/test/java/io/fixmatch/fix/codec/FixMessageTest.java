package io.fixmatch.fix.codec;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static io.fixmatch.fix.codec.testing.FixBuilder.bytes;
import static io.fixmatch.fix.codec.testing.FixBuilder.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FixMessageTest {
    private static final String ID_40 = "0123456789012345678901234567890123456789";
    private final FixMessage message = new FixMessage();

    @BeforeEach
    void parseSample() {
        byte[] b = bytes(message("35=D|34=123|1=-42|2=999999999999999999|3=1000000000000000000|4=12a|5=-|6=+5|"
            + "70=0|80=x|54=1|59=12|11=" + ID_40 + "|41=" + ID_40 + "X|58=hello world|20=-0|21=- 1|22=--1|"
            + "23=000123|24=-999999999999999999|25=1.5|26= 1|"));
        assertEquals(FixParser.OK, FixParser.parse(b, 0, b.length, message));
    }

    @ParameterizedTest
    @CsvSource({
        "34, 123",
        "1, -42",
        "2, 999999999999999999",
        "70, 0",
        "20, 0",
        "23, 123",
        "24, -999999999999999999",
    })
    void longValue(int tag, long expected) {
        assertEquals(expected, message.longValue(tag));
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 5, 6, 80, 58, 21, 22, 25, 26, 9999})
    void longValueNotANumber(int tag) {
        // 19 digits, letters, a lone sign, a plus sign, text, spaces, decimals, or absent.
        assertEquals(FixMessage.NOT_A_NUMBER, message.longValue(tag));
    }

    @Test
    void parseLongDirectly() {
        byte[] b = "xx-123yy".getBytes(StandardCharsets.US_ASCII);
        assertEquals(-123, FixMessage.parseLong(b, 2, 4));
        assertEquals(12, FixMessage.parseLong(b, 3, 2));
        assertEquals(FixMessage.NOT_A_NUMBER, FixMessage.parseLong(b, 2, 0));
        assertEquals(FixMessage.NOT_A_NUMBER, FixMessage.parseLong(b, 2, 5));
        byte[] max = "-999999999999999999".getBytes(StandardCharsets.US_ASCII);
        assertEquals(-999_999_999_999_999_999L, FixMessage.parseLong(max, 0, max.length));
        byte[] nineteen = "1234567890123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(FixMessage.NOT_A_NUMBER, FixMessage.parseLong(nineteen, 0, nineteen.length));
        assertEquals(123456789012345678L, FixMessage.parseLong(nineteen, 0, 18));
    }

    @Test
    void isSingleByte() {
        assertTrue(message.isSingleByte(54, '1'));
        assertFalse(message.isSingleByte(54, '2'));
        assertFalse(message.isSingleByte(59, '1'), "a longer value starting with the byte");
        assertFalse(message.isSingleByte(9999, '1'), "absent");
        assertTrue(message.isSingleByte(35, 'D'));
    }

    @Test
    void byteValueAndValueLength() {
        assertEquals('1', message.byteValue(59));
        assertEquals(0, message.byteValue(9999));
        assertEquals(2, message.valueLength(59));
        assertEquals(-1, message.valueLength(9999));
        assertEquals(11, message.valueLength(58));
    }

    @Test
    void valueEquals() {
        assertTrue(message.valueEquals(58, "hello world".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(message.valueEquals(58, "hello worle".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(message.valueEquals(58, "hello".getBytes(StandardCharsets.US_ASCII)), "prefix");
        assertFalse(message.valueEquals(58, "hello world!".getBytes(StandardCharsets.US_ASCII)), "longer");
        assertFalse(message.valueEquals(9999, new byte[0]), "absent");
        assertTrue(message.valueEquals(8, "FIX.4.4".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(message.valueEquals(8, FixFramer.BEGIN_STRING_FIX44));
    }

    @Test
    void valueLengthsOfLongIds() {
        assertEquals(ID_40, message.stringValue(11));
        assertEquals(40, message.valueLength(11));
        assertEquals(41, message.valueLength(41));
        assertEquals(-1, message.valueLength(9999), "absent");
    }

    @Test
    void stringValue() {
        assertEquals("hello world", message.stringValue(58));
        assertEquals("D", message.stringValue(35));
        assertEquals("FIX.4.4", message.stringValue(8));
        assertEquals("12a", message.stringValue(4));
        assertNull(message.stringValue(9999));
    }

    @Test
    void indexOfAndHas() {
        assertEquals(0, message.indexOf(8));
        assertEquals(1, message.indexOf(9));
        assertEquals(2, message.indexOf(35));
        assertEquals(-1, message.indexOf(9999));
        assertTrue(message.has(58));
        assertFalse(message.has(9999));
        assertEquals(message.fieldCount() - 1, message.indexOf(10));
    }

    @Test
    void toStringShowsSohAsPipe() {
        byte[] b = bytes(message("35=0|"));
        FixMessage m = new FixMessage();
        FixParser.parse(b, 0, b.length, m);
        assertEquals(message("35=0|"), m.toString());
    }
}
