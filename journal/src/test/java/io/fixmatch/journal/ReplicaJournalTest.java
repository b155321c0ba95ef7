package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.config.SymbolSpec;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A cluster node's own journal on real Chronicle Queue files, as a node's life uses it: the cluster replays its log
 * after a restart (from the start here: no snapshot), so the journal must pass over what it holds and append the
 * rest, and a failed append (a full disk) must leave no gap: the journal takes nothing more, the node stops, and the
 * replay after its restart fills in from the first command it lacks.
 */
class ReplicaJournalTest {
    private static final List<String> OWNERS = List.of("CLIENT1");
    private static final long LOG_TIME_NS = 1_764_000_000_000_000_000L;

    @TempDir
    Path directory;

    @Test
    void aRestartedNodePassesOverTheCommandsItsJournalHolds() {
        try (ReplicaJournal journal = open()) {
            journal.resumeAt(0);
            append(journal, "C1", "C2", "C3");
        }
        try (ReplicaJournal journal = open()) {
            assertEquals(3, journal.heldThrough());
            journal.resumeAt(0);
            append(journal, "C1", "C2", "C3", "C4", "C5");
            assertEquals(5, journal.heldThrough());
        }
        assertEquals(List.of("C1", "C2", "C3", "C4", "C5"), clientOrderIds());
    }

    @Test
    void aFailedAppendEndsTheAppendsSoTheReplayAfterARestartLeavesNoGap() {
        try (ReplicaJournal journal = open()) {
            journal.resumeAt(0);
            append(journal, "C1", "C2");
            assertNull(journal.failure());
            UnsafeBuffer third = TestFlow.encodedOrder("C3");
            // fails half way through the record, as a write on a full disk does (FailedAppendTest)
            assertEquals(3, journal.append(third, 0, third.capacity() + 64));
            assertNotNull(journal.failure(), "the failure is told");
            append(journal, "C4"); // applied by the node before it stops: not journaled after a failed one
            assertEquals(2, journal.heldThrough());
        }
        try (ReplicaJournal journal = open()) {
            journal.resumeAt(0);
            append(journal, "C1", "C2", "C3", "C4", "C5");
            assertNull(journal.failure());
        }
        assertEquals(List.of("C1", "C2", "C3", "C4", "C5"), clientOrderIds(), "the journal has no gap");
    }

    private ReplicaJournal open() {
        return ReplicaJournal.open(JournalConfig.at(directory), TestFlow.SYMBOLS, OWNERS, () -> LOG_TIME_NS);
    }

    private static void append(ReplicaJournal journal, String... clientOrderIds) {
        for (String id : clientOrderIds) {
            UnsafeBuffer command = TestFlow.encodedOrder(id);
            journal.append(command, 0, command.capacity());
        }
    }

    private List<String> clientOrderIds() {
        List<String> ids = new ArrayList<>();
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(directory.toFile()).readOnly(true).build()) {
            new JournalReader().readAll(queue, new JournalReader.Visitor() {
                @Override
                public void onSymbols(long index, List<SymbolSpec> symbols) {
                }

                @Override
                public void onCommand(long index, Command command) {
                    ids.add(command.clientOrderId().toString());
                }
            });
        }
        return ids;
    }
}
