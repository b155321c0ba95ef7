package io.fixmatch.fix.session;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeenClientOrderIdsTest {
    private static long hash(String id) {
        byte[] bytes = id.getBytes(StandardCharsets.US_ASCII);
        return SeenClientOrderIds.hash(bytes, 0, bytes.length);
    }

    @Test
    void remembersTheClOrdIdsOfTheLastReportsAndForgetsOlderOnes() {
        SeenClientOrderIds seen = new SeenClientOrderIds(3);
        seen.reported(hash("A"));
        seen.reported(hash("B"));
        seen.reported(hash("A"));
        seen.reported(hash("C")); // the first A slides out, the second stays
        assertTrue(seen.contains(hash("A")));
        assertTrue(seen.contains(hash("B")));
        seen.reported(hash("D")); // B slides out
        assertFalse(seen.contains(hash("B")));
        assertTrue(seen.contains(hash("C")) && seen.contains(hash("D")));
        seen.clear();
        assertFalse(seen.contains(hash("C")));
    }

    @Test
    void requestsInFlightCountUntilAnswered() {
        SeenClientOrderIds seen = new SeenClientOrderIds(0);
        seen.submitted(5, hash("X"));
        seen.submitted(6, hash("Y"));
        assertTrue(seen.contains(hash("X")) && seen.contains(hash("Y")));
        assertTrue(seen.contains(hash("X")), "a lookup keeps the queue as it was");
        seen.answered(5);
        assertFalse(seen.contains(hash("X")));
        assertTrue(seen.contains(hash("Y")));
    }

    /** Against a plain model, with a window small enough that removals (backward shifts) happen all the time. */
    @Test
    void agreesWithAModelOverARandomStream() {
        int capacity = 64;
        SeenClientOrderIds seen = new SeenClientOrderIds(capacity);
        ArrayDeque<Long> window = new ArrayDeque<>();
        Map<Long, Integer> counts = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            long h = hash("id" + random.nextInt(200));
            seen.reported(h);
            window.addLast(h);
            counts.merge(h, 1, Integer::sum);
            if (window.size() > capacity) {
                counts.merge(window.removeFirst(), -1, Integer::sum);
            }
            long probe = hash("id" + random.nextInt(200));
            assertEquals(counts.getOrDefault(probe, 0) > 0, seen.contains(probe), "step " + i);
        }
        assertEquals(capacity, seen.size());
    }
}
