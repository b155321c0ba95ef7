package io.fixmatch.engine.api;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

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
            ClientOrderId read = id(longest);
            read.readFrom(new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII)), 0, length);
            assertTrue(fresh.contentEquals(read), text);
            assertEquals(fresh.contentHash(), read.contentHash(), "length " + length);
            ClientOrderId copied = id(longest);
            assertTrue(copied.copyFrom(("x" + text).getBytes(StandardCharsets.US_ASCII), 1, length));
            assertTrue(fresh.contentEquals(copied), text);
        }
    }

    /** Every way in and out gives back the same bytes, at every length, and writes nothing past the id. */
    @Test
    void theBytesComeBackOutAsTheyWentInAndNothingPastThem() {
        for (int length = 0; length <= ClientOrderId.MAX_LENGTH; length++) {
            String text = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd".substring(0, length);
            ClientOrderId id = new ClientOrderId();
            id.readFrom(new UnsafeBuffer(("--" + text + "--").getBytes(StandardCharsets.US_ASCII)), 2, length);
            assertEquals(text, id.toString());
            assertEquals(length, id.length());
            for (int i = 0; i < length; i++) {
                assertEquals(text.charAt(i), (char) id.byteAt(i));
            }
            UnsafeBuffer target = new UnsafeBuffer(new byte[ClientOrderId.MAX_LENGTH + 8]);
            target.setMemory(0, target.capacity(), (byte) '#');
            assertEquals(length, id.writeTo(target, 3));
            assertEquals("###" + text + "#".repeat(target.capacity() - 3 - length),
                target.getStringWithoutLengthAscii(0, target.capacity()));
            byte[] copy = new byte[length + 2];
            Arrays.fill(copy, (byte) '#');
            assertEquals(length, id.copyTo(copy, 1));
            assertEquals("#" + text + "#", new String(copy, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void anIdLongerThanTheMostIsRefusedAndLeavesTheIdAsItWas() {
        ClientOrderId id = id("KEEP");
        String tooLong = "x".repeat(ClientOrderId.MAX_LENGTH + 1);
        assertFalse(id.copyFrom(tooLong));
        assertFalse(id.copyFrom(tooLong.getBytes(StandardCharsets.US_ASCII), 0, tooLong.length()));
        assertEquals("KEEP", id.toString());
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
