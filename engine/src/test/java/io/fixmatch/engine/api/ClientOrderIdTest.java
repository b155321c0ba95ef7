package io.fixmatch.engine.api;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientOrderIdTest {
    /**
     * A pooled id keeps the bytes of longer ids it held before past its length: equal ids must hash and compare
     * equal whatever those bytes are, at every length (one word, several, a partial last word, the longest).
     */
    @Test
    void equalIdsHashAndCompareEqualWhateverAnEarlierLongerIdLeftBehind() {
        String longest = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd";
        assertEquals(ClientOrderId.MAX_LENGTH, longest.length());
        for (int length = 0; length <= ClientOrderId.MAX_LENGTH; length++) {
            String text = "0123456789012345678901234567890123456789".substring(0, length);
            ClientOrderId fresh = id(text);
            ClientOrderId reused = id(longest);
            reused.copyFrom(text);
            assertTrue(fresh.contentEquals(reused), text);
            assertEquals(fresh.contentHash(), reused.contentHash(), "length " + length);
        }
    }

    @Test
    void idsThatDifferInAnyByteOrInLengthAreNotEqual() {
        assertFalse(id("ORD-1").contentEquals(id("ORD-2")));
        assertFalse(id("ORD-1").contentEquals(id("ORD-10")));
        assertFalse(id("").contentEquals(id("A")));
        assertTrue(id("").contentEquals(id("")));
    }

    /** The order index relies on it: ids a client numbers in sequence spread over distinct hashes. */
    @Test
    void sequentialIdsOfEveryShapeHashApart() {
        for (String prefix : new String[] {"", "O", "ORD-", "2026-11-26-CLIENT1-"}) {
            Set<Integer> hashes = new HashSet<>();
            for (int i = 0; i < 100_000; i++) {
                hashes.add(id(prefix + i).contentHash());
            }
            assertTrue(hashes.size() >= 99_990, prefix + ": " + hashes.size() + " distinct hashes of 100,000");
        }
    }

    private static ClientOrderId id(String text) {
        ClientOrderId id = new ClientOrderId();
        assertTrue(id.copyFrom(text));
        return id;
    }
}
