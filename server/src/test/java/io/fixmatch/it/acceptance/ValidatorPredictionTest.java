package io.fixmatch.it.acceptance;

import io.fixmatch.fix.app.VenueDictionary;
import io.fixmatch.fix.codec.FixFramer;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.dictionary.DictionaryValidator;
import io.fixmatch.fix.dictionary.SessionRejectReasons;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the venue validator alone does to the acceptance definitions (the session runs it on every message; this
 * pins the dictionary's part, without a server): for every message a definition sends whose answer it expects right after, the validator must give exactly the
 * SessionRejectReason and RefTagID of an expected dictionary Reject (reasons 0, 1, 2, 5, 6, 11, 13, 14, 15, 16),
 * and accept what the definition expects to be processed (an echoed order, a Heartbeat answering a TestRequest, a
 * BusinessMessageReject for a valid but unsupported type). Runs on the definitions' bytes, without a server.
 */
class ValidatorPredictionTest {
    private static final Set<String> DICTIONARY_REASONS = Set.of("0", "1", "2", "5", "6", "11", "13", "14", "15",
        "16");
    /** The venue rules: message types fixmatch does not take, whose contents the definitions test. */
    private static final Set<String> NOT_TAKEN = Set.of("C", "d");
    /**
     * Rejects that depend on the session's state, not on the dictionary: NewSeqNo below the expected number (36),
     * OrigSendingTime required with PossDupFlag=Y (122).
     */
    private static final Set<String> SESSION_REF_TAGS = Set.of("36", "122");
    /** Deliberate venue rules where the validator differs from QuickFIX/J's echo server (docs/FIX.md). */
    private static final Map<String, String> VENUE_RULES = Map.of();

    @Test
    void theValidatorGivesTheExpectedRejectsAndAcceptsTheRest() throws Exception {
        DictionaryValidator validator = new DictionaryValidator(VenueDictionary.get());
        FixFramer framer = new FixFramer(8192);
        FixMessage message = new FixMessage();
        List<String> wrong = new ArrayList<>();
        int rejectsPredicted = 0;
        int acceptancesPredicted = 0;
        for (AcceptanceDefinition definition : AcceptanceSuiteTest.loadAll()) {
            List<AcceptanceDefinition.Step> steps = definition.steps();
            for (int i = 1; i < steps.size(); i++) {
                AcceptanceDefinition.Step sent = steps.get(i - 1);
                AcceptanceDefinition.Step answer = steps.get(i);
                if (sent.kind() != AcceptanceDefinition.Kind.SEND || answer.kind() != AcceptanceDefinition.Kind.EXPECT
                    || sent.client() != answer.client()) {
                    continue;
                }
                byte[] bytes = OutgoingLine.bytes(sent.text());
                if (framer.scan(new UnsafeBuffer(bytes), 0, bytes.length) != FixFramer.FRAME) {
                    continue; // garbled on purpose: the framer's, not the validator's
                }
                Map<String, String> expected = ExpectedLine.fields(answer.text());
                Map<String, String> request = ExpectedLine.fields(new String(bytes, 0, framer.length(),
                    java.nio.charset.StandardCharsets.ISO_8859_1));
                if (NOT_TAKEN.contains(request.get("35"))) {
                    continue;
                }
                int result = validator.parseAndValidate(bytes, 0, framer.length(), message);
                String where = definition.name() + " line " + sent.line() + ": ";
                String type = expected.get("35");
                String rule = VENUE_RULES.get(definition.name() + " line " + sent.line());
                if (rule != null) {
                    if (!(result + " 371=" + validator.refTagId()).equals(rule)) {
                        wrong.add(where + "venue rule " + rule + ", validator gives " + result);
                    }
                } else if ("3".equals(type) && DICTIONARY_REASONS.contains(expected.get("373"))
                    && !SESSION_REF_TAGS.contains(expected.get("371"))) {
                    rejectsPredicted++;
                    String actual = result + " 371=" + validator.refTagId();
                    String wanted = expected.get("373") + " 371=" + expected.get("371");
                    if (!actual.equals(wanted)) {
                        wrong.add(where + "expected reason " + wanted + ", validator gives " + actual);
                    }
                } else if ("D".equals(type) || "0".equals(type) && expected.containsKey("112") || "j".equals(type)) {
                    acceptancesPredicted++;
                    // A BusinessMessageReject answers a valid type the application does not take: for the
                    // validator either unsupported or, for a type the venue only sends (8), valid.
                    boolean right = result == DictionaryValidator.VALID
                        || "j".equals(type) && result == DictionaryValidator.UNSUPPORTED_MSG_TYPE;
                    if (!right) {
                        wrong.add(where + "expected it accepted, validator gives " + result + " 371="
                            + validator.refTagId() + " (" + SessionRejectReasons.text(result) + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(rejectsPredicted >= 15, rejectsPredicted + " rejects predicted");
        assertTrue(acceptancesPredicted >= 30, acceptancesPredicted + " acceptances predicted");
        System.out.printf("validator predictions: %d rejects and %d acceptances as the definitions expect%n",
            rejectsPredicted, acceptancesPredicted);
    }
}
