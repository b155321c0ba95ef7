package io.fixmatch.fix.session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The session store on real files: sequence numbers and sent messages survive a reopen; resends find them. */
class SessionStoreTest {
    @TempDir
    Path dir;

    @Test
    void sentMessagesAreFoundBySequenceNumberAcrossGapsAndReopens() {
        try (SessionStore store = new SessionStore(dir)) {
            for (long seq = 1; seq <= 5; seq++) {
                store(store, seq);
            }
            // 6 was an admin message: not stored
            for (long seq = 7; seq <= 9; seq++) {
                store(store, seq);
            }
            store.nextSenderSeqNum(10);
            store.nextTargetSeqNum(42);
            assertFinds(store);
        }
        try (SessionStore reopened = new SessionStore(dir)) {
            assertEquals(10, reopened.nextSenderSeqNum());
            assertEquals(42, reopened.nextTargetSeqNum());
            assertFinds(reopened);
            reopened.reset();
            assertEquals(1, reopened.nextSenderSeqNum());
            assertEquals(-1, reopened.nextStoredAtOrAfter(1));
            store(reopened, 1);
        }
        try (SessionStore afterReset = new SessionStore(dir)) {
            assertEquals(1, afterReset.nextStoredAtOrAfter(1));
            assertEquals(-1, afterReset.nextStoredAtOrAfter(2));
            assertEquals("message 1", read(afterReset, 1));
        }
    }

    /**
     * A write that fails half way (as on a full disk; here the message's bounds are wrong, after the MsgSeqNum is
     * written) leaves nothing: Chronicle would otherwise commit the half-written record on close, and a resend would
     * send it. Fails without the rollback in {@code storeSent}.
     */
    @Test
    void aFailedWriteLeavesNothingBehind() {
        byte[] message = "message 1".getBytes(StandardCharsets.US_ASCII);
        try (SessionStore store = new SessionStore(dir)) {
            assertThrows(RuntimeException.class, () -> store.storeSent(1, message, 0, message.length + 100, 7, 0));
            store(store, 2);
        }
        try (SessionStore reopened = new SessionStore(dir)) {
            assertEquals(2, reopened.nextStoredAtOrAfter(1), "the failed message is not there");
            assertEquals("message 2", read(reopened, 2));
            assertEquals(false, reopened.holdsEvent(7, 0), "nor its origin");
        }
    }

    /**
     * A store holds through the position before its last report's (that command's later events may be missing),
     * until a mark says it holds all of a position: a clean stop marks the position its last report came from too,
     * or the next start could not use the stop's snapshot.
     */
    @Test
    void aMarkSaysTheStoreHoldsEveryEventThroughAPosition() {
        byte[] message = "report".getBytes(StandardCharsets.US_ASCII);
        try (SessionStore store = new SessionStore(dir)) {
            assertEquals(0, store.storedThroughPosition(), "a new store knows nothing");
            store.storeSent(1, message, 0, message.length, 500, 3);
            assertEquals(499, store.storedThroughPosition());
            store.markStoredThrough(500);
            assertEquals(500, store.storedThroughPosition());
            store.markStoredThrough(400);
            assertEquals(500, store.storedThroughPosition(), "never backwards");
        }
        try (SessionStore reopened = new SessionStore(dir)) {
            assertEquals(500, reopened.storedThroughPosition());
            assertEquals(true, reopened.holdsEvent(500, 7));
        }
    }

    private static void assertFinds(SessionStore store) {
        assertEquals(1, store.nextStoredAtOrAfter(1));
        assertEquals(3, store.nextStoredAtOrAfter(3));
        assertEquals(7, store.nextStoredAtOrAfter(6));
        assertEquals(9, store.nextStoredAtOrAfter(9));
        assertEquals(-1, store.nextStoredAtOrAfter(10));
        assertEquals("message 4", read(store, 4));
        assertEquals("message 8", read(store, 8));
        assertThrows(IllegalStateException.class, () -> read(store, 6));
    }

    private static void store(SessionStore store, long seq) {
        byte[] message = ("message " + seq).getBytes(StandardCharsets.US_ASCII);
        store.storeSent(seq, message, 0, message.length);
    }

    private static String read(SessionStore store, long seq) {
        byte[] target = new byte[64];
        int length = store.readStored(seq, target);
        return new String(target, 0, length, StandardCharsets.US_ASCII);
    }
}
