package io.fixmatch.journal;

import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.matching.EngineStateText;
import io.fixmatch.engine.matching.MatchingEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real Chronicle Queue files: run commands through the journaled loop, stop, restart, compare state exactly. */
class JournalRecoveryTest {
    @TempDir
    Path journalDir;

    @Test
    void restartRebuildsExactlyTheSameBooksAndIdCounters() {
        List<String> liveEvents = new ArrayList<>();
        String stateBeforeStop = runCommands(new TestFlow(42), 20_000, liveEvents);

        try (MatchingRuntime restarted = openRuntime()) {
            restarted.recover(); // from the snapshot the clean stop wrote
            assertEquals(stateBeforeStop, EngineStateText.of(restarted.engine()));
        }
        MatchingEngine replayed = new MatchingEngine(TestFlow.ENGINE, event -> { });
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir),
            TestFlow.SYMBOLS)) {
            assertEquals(20_000, journal.replay(replayed::process)); // TestFlow sends no status requests
        }
        assertEquals(stateBeforeStop, EngineStateText.of(replayed));
        assertTrue(stateBeforeStop.lines().count() > 100, "the flow should leave a real book behind");
    }

    @Test
    void theJournalHoldsExactlyTheCommandsWhoseEventsWerePublished() {
        List<String> liveEvents = new ArrayList<>();
        runCommands(new TestFlow(7), 5_000, liveEvents);

        // A fresh engine fed the journal's commands (with their recorded timestamps) must emit the same events.
        List<String> replayedEvents = new ArrayList<>();
        MatchingEngine reference = new MatchingEngine(TestFlow.ENGINE, event -> replayedEvents.add(event.toString()));
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir),
            TestFlow.SYMBOLS)) {
            journal.replay(reference::process);
        }
        assertEquals(liveEvents, replayedEvents);
    }

    @Test
    void recoveryContinuesAcrossSeveralRestarts() {
        List<String> events = new ArrayList<>();
        TestFlow flow = new TestFlow(3);
        runCommands(flow, 3_000, events);
        runCommands(flow, 3_000, events);
        String state = runCommands(flow, 3_000, events);

        List<String> replayedEvents = new ArrayList<>();
        MatchingEngine reference = new MatchingEngine(TestFlow.ENGINE, event -> replayedEvents.add(event.toString()));
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir),
            TestFlow.SYMBOLS)) {
            assertEquals(9_000, journal.replay(reference::process));
        }
        assertEquals(events, replayedEvents);
        assertEquals(state, EngineStateText.of(reference));
    }

    private MatchingRuntime openRuntime() {
        return JournaledRuns.runtime(JournalConfig.at(journalDir));
    }

    /** Recovers, runs {@code count} more commands through the live loop, stops; returns the final state. */
    private String runCommands(TestFlow flow, int count, List<String> events) {
        return JournaledRuns.run(JournalConfig.at(journalDir), flow, count, event -> events.add(event.toString()));
    }
}
