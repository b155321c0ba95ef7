package io.fixmatch.it.acceptance;

import java.util.LinkedHashMap;
import java.util.Map;

/** Filled after the first run. */
final class KnownFailures {
    enum Kind { TO_FIX, VENUE_RULE }

    record KnownFailure(String definition, int line, Kind kind, String expectedVsActual, String change) {
    }

    static final Map<String, KnownFailure> ALL = index();

    private KnownFailures() {
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
