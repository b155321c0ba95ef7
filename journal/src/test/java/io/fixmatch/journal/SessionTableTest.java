package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Durable owner ids (issue #14): the journal records the session table (owner id k is the k-th session) as it
 * records symbols, and the snapshot carries it; a configuration that would give journaled owner ids to other sessions
 * (reordered, renamed or removed sessions) is refused with a message; sessions may be added at the end.
 */
class SessionTableTest {
    @TempDir
    Path directory;

    @Test
    void sessionsMayBeAddedAtTheEndButNeverMovedRenamedOrRemoved() throws IOException {
        runOneOrder(List.of("ALPHA", "BETA"));
        runOneOrder(List.of("ALPHA", "BETA", "GAMMA")); // added at the end: fine, and recorded

        assertRefused(List.of("BETA", "ALPHA", "GAMMA"), "owner id 1 is session ALPHA in the journal but BETA");
        assertRefused(List.of("ALPHA", "BETA"), "session GAMMA (owner id 3) is not in the config");
        assertRefused(List.of("ALPHA", "DELTA", "GAMMA"), "owner id 2 is session BETA in the journal but DELTA");

        deleteSnapshots(); // the same verdicts from the journal's own records
        assertRefused(List.of("BETA", "ALPHA", "GAMMA"), "owner id 1 is session ALPHA in the journal but BETA");
        assertRefused(List.of("ALPHA", "BETA"), "session GAMMA (owner id 3) is not in the config");
        runOneOrder(List.of("ALPHA", "BETA", "GAMMA", "DELTA"));
    }

    private void runOneOrder(List<String> owners) {
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(directory), TestFlow.SYMBOLS,
            owners)) {
            MatchingEngine engine = new MatchingEngine(TestFlow.ENGINE, event -> { });
            journal.recoverInto(engine);
            Command command = new Command().newOrder(1, "c" + System.nanoTime(), 0, Side.BUY, OrderType.LIMIT,
                TimeInForce.DAY, 10_000, 100);
            UnsafeBuffer buffer = new UnsafeBuffer(new byte[CommandCodec.encodedLength(command)]);
            CommandCodec.encode(command, buffer, 0);
            journal.append(buffer, 0, buffer.capacity());
            engine.process(command);
            journal.checkpoint(engine);
        }
    }

    private void assertRefused(List<String> owners, String expected) {
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(directory), TestFlow.SYMBOLS,
            owners)) {
            JournalException refused = assertThrows(JournalException.class,
                () -> journal.recoverInto(new MatchingEngine(TestFlow.ENGINE, event -> { })));
            assertTrue(refused.getMessage().contains("the configured sessions do not match the journal")
                && refused.getMessage().contains(expected), refused.getMessage());
        }
    }

    private void deleteSnapshots() throws IOException {
        try (Stream<Path> files = Files.list(directory.resolve("snapshots"))) {
            List<Path> snapshots = files.toList();
            assertEquals(2, snapshots.size(), "the two newest are kept");
            for (Path file : snapshots) {
                Files.delete(file);
            }
        }
    }
}
