package io.fixmatch.journal;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node's copy of a session's numbered messages on real Chronicle Queue files, as a node's life uses it: appended in
 * number order, read back by number for a ResendRequest, reopened after a restart (the index rebuilt from the files),
 * a replay of the log after the snapshot passing over what is held, a sequence reset starting a new epoch, and the
 * files rolling by the log's clock (a new day) without breaking the lookup.
 */
class SessionMessageLogTest {
    private static final long DAY_NS = TimeUnit.DAYS.toNanos(1);
    private static final long LOG_TIME_NS = 1_764_000_000_000_000_000L;

    @TempDir
    Path directory;

    private long logTimeNs = LOG_TIME_NS;
    private final UnsafeBuffer target = new UnsafeBuffer(new byte[256]);
    private final SessionMessageLog.Header header = new SessionMessageLog.Header();

    @Test
    void messagesAreReadBackByNumberAfterARestart() {
        try (SessionMessageLog log = open()) {
            for (int seqNum = 1; seqNum <= 5; seqNum++) {
                append(log, 0, seqNum, "message " + seqNum);
            }
        }
        try (SessionMessageLog log = open()) {
            assertEquals(0, log.lastEpoch());
            assertEquals(5, log.lastSeqNum());
            assertEquals(1, log.firstHeld(0));
            for (int seqNum = 1; seqNum <= 5; seqNum++) {
                assertEquals("message " + seqNum, read(log, seqNum));
                assertEquals(seqNum % 3, header.kind);
            }
            assertEquals(-1, log.read(6, header, target, 0));
        }
    }

    @Test
    void aReplayPassesOverWhatIsHeldAndAppendsTheRest() {
        try (SessionMessageLog log = open()) {
            append(log, 0, 1, "one");
            append(log, 0, 2, "two");
        }
        try (SessionMessageLog log = open()) {
            assertFalse(log.append(0, 1, 1, logTimeNs, bytes("ONE"), 0, 3), "held: passed over");
            assertFalse(log.append(0, 2, 1, logTimeNs, bytes("TWO"), 0, 3));
            assertTrue(log.append(0, 3, 1, logTimeNs, bytes("three"), 0, 5));
            assertEquals("one", read(log, 1));
            assertEquals("three", read(log, 3));
        }
    }

    @Test
    void aSequenceResetStartsANewEpochWhoseNumbersAloneAreRead() {
        try (SessionMessageLog log = open()) {
            append(log, 0, 1, "day one 1");
            append(log, 0, 2, "day one 2");
            append(log, 1, 1, "day two 1");
            assertTrue(log.holds(0, 999), "an earlier epoch is held whatever the number");
            assertEquals("day two 1", read(log, 1));
            assertEquals(-1, log.read(2, header, target, 0));
        }
        try (SessionMessageLog log = open()) {
            assertEquals(1, log.lastEpoch());
            assertEquals("day two 1", read(log, 1));
        }
    }

    @Test
    void filesRollingByTheLogsClockKeepTheNumbersFindable() {
        try (SessionMessageLog log = open()) {
            append(log, 0, 1, "before midnight");
            logTimeNs += DAY_NS;
            append(log, 0, 2, "after midnight");
            append(log, 0, 3, "later");
        }
        try (SessionMessageLog log = open()) {
            assertEquals("before midnight", read(log, 1));
            assertEquals("after midnight", read(log, 2));
            assertEquals("later", read(log, 3));
            assertEquals(header.logTimeNanos, logTimeNs);
        }
    }

    @Test
    void aNodeSeededMidEpochKnowsWhereItsHistoryStarts() {
        try (SessionMessageLog log = open()) {
            append(log, 2, 40, "forty");
            append(log, 2, 41, "forty-one");
            assertEquals(40, log.firstHeld(2));
            assertEquals(-1, log.read(39, header, target, 0));
            assertEquals("forty-one", read(log, 41));
        }
    }

    private SessionMessageLog open() {
        return SessionMessageLog.open(directory, () -> TimeUnit.NANOSECONDS.toMillis(logTimeNs));
    }

    private void append(SessionMessageLog log, int epoch, long seqNum, String message) {
        UnsafeBuffer bytes = bytes(message);
        assertTrue(log.append(epoch, seqNum, (int) (seqNum % 3), logTimeNs, bytes, 0, bytes.capacity()));
    }

    private String read(SessionMessageLog log, long seqNum) {
        int length = log.read(seqNum, header, target, 0);
        assertTrue(length >= 0, "message " + seqNum + " held");
        return target.getStringWithoutLengthAscii(0, length);
    }

    private static UnsafeBuffer bytes(String text) {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII));
    }
}
