package io.fixmatch.fix.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FixDecimalsTest {
    private static long parse(String text, int scale) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        return FixDecimals.parse(b, 0, b.length, scale);
    }

    @ParameterizedTest
    @CsvSource({
        "150, 2, 15000",
        "150.1, 2, 15010",
        "150.10, 2, 15010",
        "150.100, 2, 15010",
        "150.01, 2, 15001",
        "150.0000000000, 2, 15000",
        "-1.5, 2, -150",
        "-0.25, 2, -25",
        "-0, 2, 0",
        "0, 2, 0",
        "0.0, 2, 0",
        "0.01, 2, 1",
        "000150.1, 2, 15010",
        "0000000000000000000000000150.1, 2, 15010",
        "150, 0, 150",
        "150.0, 0, 150",
        "150.000, 0, 150",
        "-150, 0, -150",
        "123.4567, 4, 1234567",
        "123.45670, 4, 1234567",
        "123, 4, 1230000",
        "0.0001, 4, 1",
        "999999999999999999, 0, 999999999999999999",
        "-999999999999999999, 0, -999999999999999999",
        "99999999999999999.9, 1, 999999999999999999",
        "9999999999999999.99, 2, 999999999999999999",
        "92233720368547758, 2, 9223372036854775800",
        "0.000000000000000001, 18, 1",
    })
    void valid(String text, int scale, long expected) {
        assertEquals(expected, parse(text, scale));
    }

    @ParameterizedTest
    @CsvSource(value = {
        "150.123, 2",
        "150.101, 2",
        "150.001, 2",
        "150.5, 0",
        "150.05, 1",
        ".., 2",
        "'.', 2",
        "'-', 2",
        "'', 2",
        "'-.', 2",
        "1e5, 2",
        "1E5, 2",
        "1.2.3, 2",
        "1..2, 2",
        "1234567890123456789, 0",
        "1234567890123456789, 2",
        "123456789012345678.9, 1",
        "--1, 2",
        "+1, 2",
        "1-, 2",
        "1-2, 2",
        "' 1', 2",
        "'1 ', 2",
        "1a, 2",
        "0x10, 2",
        "1\u00b2, 2",
        "999999999999999999, 2",
        "92233720368547759, 2",
    })
    void invalid(String text, int scale) {
        assertEquals(FixDecimals.INVALID, parse(text, scale), text);
    }

    @Test
    void parsesAtAnOffsetAndLength() {
        byte[] b = "xx150.25yy".getBytes(StandardCharsets.US_ASCII);
        assertEquals(15025, FixDecimals.parse(b, 2, 6, 2));
        assertEquals(1502, FixDecimals.parse(b, 2, 5, 1));
        assertEquals(FixDecimals.INVALID, FixDecimals.parse(b, 2, 7, 2));
        assertEquals(FixDecimals.INVALID, FixDecimals.parse(b, 2, 0, 2));
    }

    @Test
    void agreesWithBigDecimalOnRandomValues() {
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            int scale = random.nextInt(7);
            long units = random.nextLong() % 1_000_000_000_000L;
            String text = new BigDecimal(java.math.BigInteger.valueOf(units), scale).toPlainString();
            int extraZeros = random.nextInt(3);
            if (extraZeros > 0) {
                text = (text.contains(".") ? text : text + ".") + "0".repeat(extraZeros);
            }
            assertEquals(units, parse(text, scale), text + " at scale " + scale);
            // One more significant decimal than the scale allows is refused.
            String tooPrecise = (text.contains(".") ? text : text + ".") + "0".repeat(scale) + "7";
            assertEquals(FixDecimals.INVALID, parse(tooPrecise, scale), tooPrecise + " at scale " + scale);
        }
    }
}
