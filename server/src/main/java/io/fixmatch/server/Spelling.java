package io.fixmatch.server;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/** "Did you mean ...?" for mistyped configuration keys and flags. */
final class Spelling {
    private static final int MAX_EDITS = 3;

    private Spelling() {
    }

    /** The candidate closest to {@code word}, if it is a few edits away at most. */
    static Optional<String> closest(String word, Collection<String> candidates) {
        return candidates.stream()
            .min(Comparator.comparingInt(candidate -> editDistance(word, candidate)))
            .filter(candidate -> editDistance(word, candidate) <= MAX_EDITS);
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
