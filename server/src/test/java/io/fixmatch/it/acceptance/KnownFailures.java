package io.fixmatch.it.acceptance;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The definitions that do not pass. One entry each: the file, the line of the first step that does not go as written
 * (the suite checks that it still fails exactly there, and fails as soon as it passes), what the definition expects
 * against what fixmatch does, and what would have to change. {@link Kind#VENUE_RULE} entries are deliberate venue
 * rules (docs/FIX.md), not defects; {@link Kind#TO_FIX} entries are defects still open.
 */
final class KnownFailures {
    /**
     * TO_FIX: a defect, fails at the listed line; VENUE_RULE: deliberate (docs/FIX.md); RACY: a defect whose outcome
     * depends on timing (it passes when the wrong answer happens to arrive after the expected one): it may pass or
     * fail at the listed line, nowhere else.
     */
    enum Kind { TO_FIX, VENUE_RULE, RACY }

    record KnownFailure(String definition, int line, Kind kind, String expectedVsActual, String change) {
    }

    static final Map<String, KnownFailure> ALL = index(
        // --- Deliberate venue rules (docs/FIX.md) ----------------------------------------------------------------
        rule("21_RepeatingGroupSpecifierWithValueOfZero.def", 17,
            "SecurityDefinition (35=d) with NoUnderlyings 454=0: expected it echoed; actual BusinessMessageReject "
                + "380=3: fixmatch does not accept SecurityDefinition",
            "none: venue rule (only D, F, G, H and session messages are accepted)"),
        rule("QFJ934_MissingDelimiterNestedRepeatingGroup.def", 14,
            "Email (35=C) with a group lacking its delimiter: expected Reject 373=15 371=864; actual "
                + "BusinessMessageReject 380=3: fixmatch does not accept Email",
            "none: venue rule (only D, F, G, H and session messages are accepted)"));

    private KnownFailures() {
    }

    private static KnownFailure rule(String definition, int line, String expectedVsActual, String change) {
        return new KnownFailure(definition, line, Kind.VENUE_RULE, expectedVsActual, change);
    }

    private static Map<String, KnownFailure> index(KnownFailure... failures) {
        Map<String, KnownFailure> byDefinition = new LinkedHashMap<>();
        for (KnownFailure failure : failures) {
            if (byDefinition.put(failure.definition(), failure) != null) {
                throw new IllegalStateException("listed twice: " + failure.definition());
            }
        }
        return byDefinition;
    }
}
