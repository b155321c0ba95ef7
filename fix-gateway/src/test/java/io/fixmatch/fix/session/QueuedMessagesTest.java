package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The queue of messages received too high: what it keeps, in which turn it gives them back, and its bounds. */
class QueuedMessagesTest {
    private final FixWriter writer = new FixWriter(2048);
    private final FixMessage parsed = new FixMessage();

    /** A TestRequest numbered {@code seqNum} whose TestReqID says which it is, parsed (over its own copy). */
    private FixMessage testRequest(long seqNum, String id) {
        writer.begin(MsgTypes.TEST_REQUEST).field(49, "TW").field(56, "ISLD").field(34, seqNum)
            .field(52, "20261123-14:00:00.000").field(112, id).finish();
        byte[] bytes = Arrays.copyOfRange(writer.buffer(), writer.start(), writer.start() + writer.length());
        assertEquals(FixParser.OK, FixParser.parse(bytes, 0, bytes.length, parsed));
        return parsed;
    }

    @Test
    void givesEachMessageBackInItsTurnWhateverTheOrderItCameIn() {
        QueuedMessages queue = new QueuedMessages(64 * 1024);
        assertTrue(queue.add(7, testRequest(7, "seven")));
        assertTrue(queue.add(5, testRequest(5, "five")));
        assertTrue(queue.add(6, testRequest(6, "six")));

        assertNull(queue.take(4), "nothing numbered 4");
        assertEquals("five", queue.take(5).stringValue(112));
        assertEquals("six", queue.take(6).stringValue(112));
        FixMessage seven = queue.take(7);
        assertEquals("seven", seven.stringValue(112));
        assertEquals(7, seven.longValue(34));
        assertEquals(0, queue.size());
    }

    @Test
    void takingDropsWhatASkipLeftBehind() {
        QueuedMessages queue = new QueuedMessages(64 * 1024);
        queue.add(3, testRequest(3, "three"));
        queue.add(4, testRequest(4, "four"));
        queue.add(9, testRequest(9, "nine"));

        assertNull(queue.take(8), "a gap fill to 8 skipped 3 and 4");
        assertEquals(1, queue.size());
        assertEquals("nine", queue.take(9).stringValue(112));
    }

    @Test
    void keepsTheFirstOfTwoMessagesWithTheSameNumber() {
        QueuedMessages queue = new QueuedMessages(64 * 1024);
        assertTrue(queue.add(5, testRequest(5, "first")));
        assertFalse(queue.add(5, testRequest(5, "second")));
        assertEquals("first", queue.take(5).stringValue(112));
    }

    @Test
    void isBoundedInMessagesAndInBytesAndReusesItsSpaceOnceEmpty() {
        QueuedMessages byCount = new QueuedMessages(16 * 1024 * 1024);
        for (int i = 0; i < QueuedMessages.MAX_MESSAGES; i++) {
            assertTrue(byCount.add(10 + i, testRequest(10 + i, "m" + i)));
        }
        assertEquals(0, byCount.notKept());
        assertFalse(byCount.add(1_000_000, testRequest(1_000_000, "one too many")));
        assertEquals(1, byCount.notKept(), "counted, for the session to log the first of a run");

        int size = testRequest(1, "x").length();
        QueuedMessages byBytes = new QueuedMessages(size * 2);
        assertTrue(byBytes.add(2, testRequest(2, "x")));
        assertTrue(byBytes.add(3, testRequest(3, "x")));
        assertFalse(byBytes.add(4, testRequest(4, "x")), "no room for a third");
        assertEquals(2, byBytes.take(2).longValue(34));
        assertFalse(byBytes.add(4, testRequest(4, "x")), "the space of a taken message is reused only once empty");
        assertEquals(3, byBytes.take(3).longValue(34));
        assertTrue(byBytes.add(4, testRequest(4, "x")), "empty: all the space again");
        assertEquals(4, byBytes.take(4).longValue(34));
    }

    @Test
    void clearForgetsEverything() {
        QueuedMessages queue = new QueuedMessages(64 * 1024);
        queue.add(5, testRequest(5, "five"));
        queue.clear();
        assertEquals(0, queue.size());
        assertNull(queue.take(5));
    }
}
