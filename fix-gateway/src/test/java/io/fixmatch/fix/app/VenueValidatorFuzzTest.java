package io.fixmatch.fix.app;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.dictionary.DictionaryValidator;
import io.fixmatch.fix.dictionary.SessionRejectReasons;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of parse + validate against the venue dictionary on arbitrary bytes. Properties: nothing
 * throws; the result is VALID, UNSUPPORTED_MSG_TYPE, GARBLED or a reason the validator can give; a reason about a
 * tag that is there names a tag of the message, and a missing required tag is indeed absent; the validator keeps no
 * state between messages (the same message gives the same answer after another one). Regression mode runs
 * {@code VenueValidatorFuzzTestInputs}; docs/FUZZING.md says how to fuzz.
 */
class VenueValidatorFuzzTest {
    private static final Set<Integer> RESULTS = Set.of(DictionaryValidator.VALID,
        DictionaryValidator.UNSUPPORTED_MSG_TYPE, DictionaryValidator.GARBLED,
        SessionRejectReasons.INVALID_TAG_NUMBER, SessionRejectReasons.REQUIRED_TAG_MISSING,
        SessionRejectReasons.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE, SessionRejectReasons.TAG_WITHOUT_VALUE,
        SessionRejectReasons.VALUE_INCORRECT, SessionRejectReasons.INCORRECT_DATA_FORMAT,
        SessionRejectReasons.INVALID_MSG_TYPE, SessionRejectReasons.TAG_APPEARS_MORE_THAN_ONCE,
        SessionRejectReasons.TAG_OUT_OF_ORDER, SessionRejectReasons.GROUP_FIELDS_OUT_OF_ORDER,
        SessionRejectReasons.INCORRECT_NUM_IN_GROUP, SessionRejectReasons.OTHER);
    private static final Set<Integer> ABOUT_A_PRESENT_TAG = Set.of(SessionRejectReasons.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE,
        SessionRejectReasons.VALUE_INCORRECT, SessionRejectReasons.INCORRECT_DATA_FORMAT,
        SessionRejectReasons.TAG_APPEARS_MORE_THAN_ONCE, SessionRejectReasons.TAG_OUT_OF_ORDER,
        SessionRejectReasons.GROUP_FIELDS_OUT_OF_ORDER, SessionRejectReasons.INCORRECT_NUM_IN_GROUP);
    private static final byte[] OTHER_MESSAGE = ("8=FIX.4.4\u00019=40\u000135=0\u000149=TW\u000156=ISLD\u000134=2\u0001"
        + "52=20261123-14:00:00\u000110=000\u0001").getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final DictionaryValidator validator = new DictionaryValidator(VenueDictionary.get());
    private final FixMessage message = new FixMessage();
    private final FixMessage other = new FixMessage();

    @FuzzTest(maxDuration = "30m")
    void validatesAnyBytes(byte[] input) {
        int result = validator.parseAndValidate(input, 0, input.length, message);
        int refTagId = validator.refTagId();
        assertTrue(RESULTS.contains(result), "result " + result);
        if (ABOUT_A_PRESENT_TAG.contains(result)) {
            assertTrue(message.has(refTagId), "reason " + result + " names tag " + refTagId + ", not in the message");
        }
        if (result == SessionRejectReasons.REQUIRED_TAG_MISSING) {
            assertTrue(!message.has(refTagId), "required tag " + refTagId + " said missing, but it is there");
        }
        if (result == SessionRejectReasons.INVALID_MSG_TYPE) {
            assertEquals(35, refTagId);
        }
        validator.parseAndValidate(OTHER_MESSAGE, 0, OTHER_MESSAGE.length, other);
        assertEquals(result, validator.parseAndValidate(input, 0, input.length, message), "same message, new answer");
        assertEquals(refTagId, validator.refTagId(), "same message, another RefTagID");
    }
}
