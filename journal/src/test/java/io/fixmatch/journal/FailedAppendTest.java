package io.fixmatch.journal;

import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failure atomicity of the command journal (issue #14): an append that fails half way through its record (here the
 * command's bytes cannot be read, after the record's version and kind are written, as a full disk fails a write
 * part way) is rolled back, so the journal stays readable and appending goes on after it. Without the rollback
 * Chronicle commits the half record on close and recovery refuses to start ("damaged"). On the real Chronicle journal.
 */
class FailedAppendTest {
    @TempDir
    Path directory;

    @Test
    void aFailedAppendLeavesNoHalfRecordAndTheJournalGoesOn() {
        UnsafeBuffer first = TestFlow.encodedOrder("A");
        UnsafeBuffer second = TestFlow.encodedOrder("B");
        long firstPosition;
        long secondPosition;
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(directory), TestFlow.SYMBOLS)) {
            journal.recoverInto(new MatchingEngine(TestFlow.ENGINE, event -> { }));
            firstPosition = journal.append(first, 0, first.capacity());
            assertThrows(RuntimeException.class, () -> journal.append(second, 0, second.capacity() + 64));
            secondPosition = journal.append(second, 0, second.capacity());
            assertTrue(secondPosition > firstPosition, "positions grow");
        }
        List<String> replayed = new ArrayList<>();
        List<Long> positions = new ArrayList<>();
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(directory), TestFlow.SYMBOLS)) {
            journal.replay(command -> {
                replayed.add(command.clientOrderId().toString());
                positions.add(command.journalPosition());
            });
        }
        assertEquals(List.of("A", "B"), replayed);
        assertEquals(List.of(firstPosition, secondPosition), positions, "replay gives the positions append gave");
    }

    /**
     * On a real full disk a memory-mapped write faults late (the JVM reports it at a later operation) and leaves a
     * damaged record (seen on a full tmpfs, docs/TESTING.md), so the journal refuses commands before the disk is
     * full: here the free space the real file system reports is below the required headroom (set above any disk's).
     */
    @Test
    void aDiskShortOfSpaceRefusesCommandsBeforeWritingAnything() {
        UnsafeBuffer command = TestFlow.encodedOrder("A");
        JournalConfig config = JournalConfig.at(directory).withMinFreeBytes(Long.MAX_VALUE);
        try (ChroniclePersistence journal = ChroniclePersistence.open(config, TestFlow.SYMBOLS)) {
            journal.recoverInto(new MatchingEngine(TestFlow.ENGINE, event -> { }));
            for (int i = 0; i < 3; i++) {
                JournalException refused = assertThrows(JournalException.class,
                    () -> journal.append(command, 0, command.capacity()));
                assertTrue(refused.getMessage().contains("is nearly full"), refused.getMessage());
            }
        }
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(directory), TestFlow.SYMBOLS)) {
            assertEquals(0, journal.replay(c -> { }), "nothing was written");
        }
    }
}
