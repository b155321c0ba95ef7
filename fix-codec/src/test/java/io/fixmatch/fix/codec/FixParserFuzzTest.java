package io.fixmatch.fix.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the parser on arbitrary bytes. Properties: nothing throws; the result is one of the
 * parser's codes; a message that parses OK has MsgType third, no empty value, no SOH inside a value, and writing
 * its fields back gives the input bytes exactly (nothing lost, nothing invented); the accessors answer for every
 * tag without throwing. Regression mode runs {@code FixParserFuzzTestInputs}; docs/FUZZING.md says how to fuzz.
 */
class FixParserFuzzTest {
    private static final Set<Integer> RESULTS = Set.of(FixParser.OK, FixParser.INVALID_TAG, FixParser.EMPTY_VALUE,
        FixParser.MSG_TYPE_NOT_THIRD, FixParser.TOO_MANY_FIELDS, FixParser.DUPLICATE_TAG);
    private final FixMessage message = new FixMessage();

    @FuzzTest(maxDuration = "30m")
    void parsesAnyBytes(byte[] input) {
        int result = FixParser.parse(input, 0, input.length, message);
        assertTrue(RESULTS.contains(result), "result " + result);
        for (int field = 0; field < message.fieldCount(); field++) {
            int tag = message.tagAt(field);
            message.longValue(tag);
            message.byteValue(tag);
            message.stringValue(tag);
            message.valueEquals(tag, new byte[] {'Y'});
        }
        if (result != FixParser.OK) {
            return;
        }
        assertEquals(FixTags.MSG_TYPE, message.tagAt(2));
        ByteArrayOutputStream rewritten = new ByteArrayOutputStream();
        for (int field = 0; field < message.fieldCount(); field++) {
            int start = message.valueStartAt(field);
            int length = message.valueLengthAt(field);
            assertTrue(message.tagAt(field) > 0 && length > 0, "field " + field);
            for (int i = start; i < start + length; i++) {
                assertTrue(input[i] != FixFramer.SOH, "SOH inside the value of field " + field);
            }
            rewritten.writeBytes((message.tagAt(field) + "=").getBytes(StandardCharsets.US_ASCII));
            rewritten.write(input, start, length);
            rewritten.write(FixFramer.SOH);
        }
        byte[] expected = input.length > 0 && input[input.length - 1] == FixFramer.SOH ? input
            : Arrays.copyOf(input, input.length + 1);
        expected[expected.length - 1] = FixFramer.SOH;
        assertArrayEquals(expected, rewritten.toByteArray(), "fields written back differ from the input");
    }
}
