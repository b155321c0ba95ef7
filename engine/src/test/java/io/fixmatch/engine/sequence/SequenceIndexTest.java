package io.fixmatch.engine.sequence;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SequenceIndexTest {

    @Test
    void consecutiveNumbersAtConsecutiveIndexesMakeOneRunAndEachBreakANewOne() {
        SequenceIndex index = new SequenceIndex();
        for (long seqNum = 1; seqNum <= 5; seqNum++) {
            index.add(seqNum, 100 + seqNum);
        }
        assertEquals(1, index.runs());
        index.add(7, 106); // number 6 not stored
        index.add(8, 200); // a new file of the queue
        assertEquals(3, index.runs());
        assertEquals(101, index.indexOf(1));
        assertEquals(105, index.indexOf(5));
        assertEquals(-1, index.indexOf(6));
        assertEquals(106, index.indexOf(7));
        assertEquals(200, index.indexOf(8));
        assertEquals(-1, index.indexOf(9));
        assertEquals(-1, index.indexOf(0));
        assertEquals(1, index.first());
    }

    @Test
    void theNeighboursOfANumberNotHeld() {
        SequenceIndex index = new SequenceIndex();
        index.add(3, 0);
        index.add(4, 1);
        index.add(8, 2);
        assertEquals(3, index.nextAtOrAfter(1));
        assertEquals(4, index.nextAtOrAfter(4));
        assertEquals(8, index.nextAtOrAfter(5));
        assertEquals(-1, index.nextAtOrAfter(9));
        assertEquals(-1, index.previousAtOrBefore(2));
        assertEquals(4, index.previousAtOrBefore(7));
        assertEquals(8, index.previousAtOrBefore(100));
        index.clear();
        assertEquals(-1, index.first());
        assertEquals(-1, index.indexOf(3));
        assertEquals(0, index.runs());
    }
}
