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

    /**
     * Exactly-once reports rest on this: recovery re-derives, for the commands it replays, exactly the events the live
     * run published, ExecIDs and origins (journal position, ordinal) included, so a session store can tell which of
     * them it lacks. (The snapshot the clean stop wrote is removed, as after a crash no snapshot covers the tail.)
     */
    @Test
    void recoveryRederivesExactlyTheEventsTheRunPublishedWithTheirOrigins() throws Exception {
        List<String> liveEvents = new ArrayList<>();
        JournaledRuns.run(JournalConfig.at(journalDir), new TestFlow(11), 5_000,
            event -> liveEvents.add(withOrigin(event)));
        try (var snapshots = java.nio.file.Files.list(journalDir.resolve("snapshots"))) {
            for (Path snapshot : snapshots.toList()) {
                java.nio.file.Files.delete(snapshot);
            }
        }
        List<String> rederived = new ArrayList<>();
        try (MatchingRuntime restarted = openRuntime()) {
            assertEquals(5_000, restarted.recover(event -> rederived.add(withOrigin(event))));
        }
        assertEquals(liveEvents, rederived);
        assertTrue(liveEvents.stream().anyMatch(e -> e.contains("/2 ")), "commands with several events ran");
    }

    private static String withOrigin(io.fixmatch.engine.api.ExecutionEvent event) {
        if (event.journalPosition() <= 0) {
            throw new AssertionError("an event of a journaled command without its position: " + event);
        }
        return event + " @" + event.journalPosition() + "/" + event.ordinal() + " ";
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
