package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.matching.EngineStateText;
import io.fixmatch.engine.matching.MatchingEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshots: recovery from the newest snapshot plus the journal after it equals recovery from the whole journal;
 * a damaged snapshot is passed over; retention deletes old journal files only behind a snapshot, and without a
 * snapshot refuses to rebuild rather than build wrong books.
 */
class SnapshotRecoveryTest {
    @TempDir
    Path journalDir;

    @Test
    void snapshotPlusTailEqualsTheWholeJournal() throws IOException {
        TestFlow flow = new TestFlow(21);
        run(JournalConfig.at(journalDir), flow, 6_000);          // clean stop: snapshot A
        String expected = run(JournalConfig.at(journalDir), flow, 4_000); // snapshot B
        List<Path> snapshots = snapshots();
        assertEquals(2, snapshots.size());
        Files.delete(snapshots.get(snapshots.size() - 1));         // B gone: recovery must use A + 4,000 commands

        try (MatchingRuntime fromSnapshot = runtime(JournalConfig.at(journalDir))) {
            assertEquals(4_000, fromSnapshot.recover());
            assertEquals(expected, EngineStateText.of(fromSnapshot.engine()));
        }
        assertEquals(expected, EngineStateText.of(fullReplay()));
    }

    @Test
    void afterRecoveryFromASnapshotTheEngineBehavesExactlyAsAfterAFullReplay() {
        TestFlow flow = new TestFlow(5);
        run(JournalConfig.at(journalDir), flow, 5_000);
        MatchingEngine replayed = fullReplay();

        List<String> fromSnapshotEvents = new ArrayList<>();
        try (MatchingRuntime fromSnapshot = runtime(JournalConfig.at(journalDir))) {
            assertEquals(0, fromSnapshot.recover());
            List<String> replayedEvents = new ArrayList<>();
            MatchingEngine reference = new MatchingEngine(TestFlow.ENGINE, e -> replayedEvents.add(e.toString()));
            try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir),
                TestFlow.SYMBOLS)) {
                journal.replay(reference::process);
            }
            replayedEvents.clear();
            MatchingEngine restored = new MatchingEngine(TestFlow.ENGINE, e -> fromSnapshotEvents.add(e.toString()));
            try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir),
                TestFlow.SYMBOLS)) {
                journal.recoverInto(restored);
            }
            // The same commands after recovery, cancel-on-disconnect of every owner included, give the same events.
            Command command = new Command();
            TestFlow more = new TestFlow(77);
            for (int i = 0; i < 3_000; i++) {
                more.next(command);
                reference.process(command);
                restored.process(command);
            }
            for (int owner = 1; owner <= 3; owner++) {
                command.cancelAllForOwner(owner);
                reference.process(command);
                restored.process(command);
            }
            assertEquals(replayedEvents, fromSnapshotEvents);
            assertTrue(fromSnapshotEvents.size() > 3_000);
        }
        assertTrue(EngineStateText.of(replayed).lines().count() > 10);
    }

    @Test
    void aDamagedSnapshotIsPassedOver() throws IOException {
        TestFlow flow = new TestFlow(8);
        run(JournalConfig.at(journalDir), flow, 3_000);
        String expected = run(JournalConfig.at(journalDir), flow, 3_000);
        List<Path> snapshots = snapshots();
        Path newest = snapshots.get(snapshots.size() - 1);
        byte[] bytes = Files.readAllBytes(newest);
        bytes[bytes.length / 2] ^= 0x5A;
        Files.write(newest, bytes);

        try (MatchingRuntime recovered = runtime(JournalConfig.at(journalDir))) {
            assertEquals(3_000, recovered.recover(), "falls back to the older snapshot and replays from there");
            assertEquals(expected, EngineStateText.of(recovered.engine()));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void retentionDeletesOnlyWhatASnapshotCoversAndNeverBuildsWrongBooks() throws Exception {
        JournalConfig secondly = new JournalConfig(journalDir, "TEST_SECONDLY", 0);
        TestFlow flow = new TestFlow(13);
        String expected = null;
        for (int second = 0; second < 3; second++) {
            expected = run(secondly, flow, 1_000);
            Thread.sleep(1_100); // the next run writes into a new roll cycle file
        }
        try (Stream<Path> files = Files.list(journalDir)) {
            assertEquals(1, files.filter(f -> f.toString().endsWith(".cq4")).count(),
                "retention 0 keeps only the snapshot's journal file");
        }
        try (MatchingRuntime recovered = runtime(secondly)) {
            recovered.recover();
            assertEquals(expected, EngineStateText.of(recovered.engine()));
        }
        assertThrows(JournalException.class, this::fullReplay, "history is gone: a full replay must refuse");
        for (Path snapshot : snapshots()) {
            Files.delete(snapshot);
        }
        assertThrows(JournalException.class, () -> {
            try (MatchingRuntime noSnapshot = runtime(secondly)) {
                noSnapshot.recover();
            }
        });
    }

    @Test
    void haltsSurviveARestartThroughTheSnapshotAndThroughTheJournal() throws IOException {
        TestFlow flow = new TestFlow(31);
        run(JournalConfig.at(journalDir), flow, 1_000);
        String expected;
        try (MatchingRuntime runtime = runtime(JournalConfig.at(journalDir))) {
            runtime.recover();
            runtime.start();
            Command command = new Command();
            for (Command operator : List.of(new Command().haltSymbol(0), new Command().haltSymbol(1),
                new Command().resumeSymbol(1))) {
                assertTrue(runtime.inbound().offer(operator));
            }
            for (int i = 0; i < 1_000; i++) {
                flow.next(command);
                while (!runtime.inbound().offer(command)) {
                    runtime.outbound().poll(event -> { }, 1_000);
                }
                runtime.outbound().poll(event -> { }, 1_000);
            }
            runtime.close(); // snapshot
            expected = EngineStateText.of(runtime.engine());
        }
        assertTrue(expected.contains("\nhalted=0\n"), expected.substring(Math.max(0, expected.length() - 400)));

        try (MatchingRuntime fromSnapshot = runtime(JournalConfig.at(journalDir))) {
            assertEquals(0, fromSnapshot.recover(), "everything is in the snapshot");
            assertEquals(expected, EngineStateText.of(fromSnapshot.engine()));
            assertTrue(fromSnapshot.view().isHalted(0));
            assertTrue(!fromSnapshot.view().isHalted(1));
        }
        for (Path snapshot : snapshots()) {
            Files.delete(snapshot);
        }
        assertEquals(expected, EngineStateText.of(fullReplay()), "the journal alone replays the halts");
    }

    private List<Path> snapshots() throws IOException {
        try (Stream<Path> files = Files.list(journalDir.resolve("snapshots"))) {
            return files.filter(f -> f.toString().endsWith(".snap")).sorted().toList();
        }
    }

    private MatchingEngine fullReplay() {
        MatchingEngine engine = new MatchingEngine(TestFlow.ENGINE, e -> { });
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir),
            TestFlow.SYMBOLS)) {
            journal.replay(engine::process);
        }
        return engine;
    }

    private static MatchingRuntime runtime(JournalConfig config) {
        return JournaledRuns.runtime(config);
    }

    private static String run(JournalConfig config, TestFlow flow, int count) {
        return JournaledRuns.run(config, flow, count);
    }
}
