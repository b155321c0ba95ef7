package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.loop.TracedEventSink;
import io.fixmatch.engine.matching.EngineStateText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Periodic snapshots (issue #14): the matching thread snapshots the books every N journaled commands, in the command
 * stream, and then puts a mark in the outbound ring after the events of the commands it covers (so the gateways can
 * record that their stores hold them). Recovery from such a snapshot rebuilds exactly the books a full replay builds.
 */
class PeriodicSnapshotTest {
    @TempDir
    Path directory;

    @Test
    void snapshotsAreTakenEveryNCommandsAndMarkedAfterTheirEvents() throws IOException {
        JournalConfig config = JournalConfig.at(directory).withSnapshotEvery(1_000);
        List<Long> marks = new ArrayList<>();
        long[] lastEventPosition = new long[1];
        List<String> violations = new ArrayList<>();
        TracedEventSink sink = new TracedEventSink() {
            @Override
            public void onEvent(ExecutionEvent event, CommandTrace trace) {
                if (!marks.isEmpty() && event.journalPosition() <= marks.get(marks.size() - 1)) {
                    violations.add("event of " + event.journalPosition() + " after the mark " + marks);
                }
                lastEventPosition[0] = event.journalPosition();
            }

            @Override
            public void onStoredThrough(long journalPosition) {
                if (lastEventPosition[0] > journalPosition) {
                    violations.add("mark " + journalPosition + " after an event of " + lastEventPosition[0]);
                }
                marks.add(journalPosition);
            }
        };
        MatchingRuntime runtime = new MatchingRuntime(TestFlow.ENGINE, LoopConfig.defaults().withIdleStrategy("yield"),
            ChroniclePersistence.open(config, TestFlow.SYMBOLS));
        runtime.recover();
        runtime.start();
        TestFlow flow = new TestFlow(21);
        Command command = new Command();
        for (int i = 0; i < 5_500; i++) {
            flow.next(command);
            while (!runtime.inbound().offer(command)) {
                runtime.outbound().poll(sink, 1_000);
            }
            runtime.outbound().poll(sink, 1_000);
        }
        runtime.close();
        while (runtime.outbound().poll(sink, 1_000) > 0) {
            // the rest
        }
        String state = EngineStateText.of(runtime.engine());

        assertEquals(5, marks.size(), "a mark per 1,000 commands: " + marks);
        assertEquals(List.of(), violations);
        List<Path> snapshots = snapshotsNewestFirst();
        assertEquals(2, snapshots.size(), "the two newest are kept: " + snapshots);

        Files.delete(snapshots.get(0)); // the clean stop's: recover from the last periodic one
        try (MatchingRuntime restarted = new MatchingRuntime(TestFlow.ENGINE, LoopConfig.defaults(),
            ChroniclePersistence.open(config, TestFlow.SYMBOLS))) {
            assertEquals(500, restarted.recover(), "only what follows the snapshot at 5,000");
            assertEquals(state, EngineStateText.of(restarted.engine()));
        }
        try (MatchingRuntime bounded = new MatchingRuntime(TestFlow.ENGINE, LoopConfig.defaults(),
            ChroniclePersistence.open(config, TestFlow.SYMBOLS))) {
            long replayed = bounded.recover(null, marks.get(3) - 1); // the stores hold less than the newest covers
            assertTrue(replayed > 500, "an earlier starting point: " + replayed);
            assertEquals(state, EngineStateText.of(bounded.engine()));
        }
    }

    private List<Path> snapshotsNewestFirst() throws IOException {
        try (Stream<Path> files = Files.list(directory.resolve("snapshots"))) {
            return files.filter(f -> f.toString().endsWith(".snap"))
                .sorted(Comparator.comparing((Path f) -> f.getFileName().toString()).reversed()).toList();
        }
    }
}
