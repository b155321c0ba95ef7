package io.fixmatch.journal;

import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.matching.EngineStateText;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The journal's tail policy (docs/ARCHITECTURE.md): a torn last entry (a writer killed mid-append) was never
 * acknowledged and is not replayed, and appending goes on after it; a complete entry that cannot be read stops
 * recovery with its index, never silently producing a different book.
 */
class JournalTailTest {
    @TempDir
    Path journalDir;

    @Test
    @Timeout(value = JournaledRuns.PROCESSES_TEST_SECONDS, unit = TimeUnit.SECONDS)
    void aTornLastEntryIsIgnoredAndAppendingContinues() throws Exception {
        TestFlow flow = new TestFlow(11);
        String stateBefore = run(flow, 2_000);

        Process torn = startTornWriter();
        try {
            assertTrue(torn.waitFor(JournaledRuns.PROCESS_WAIT.toMillis(), TimeUnit.MILLISECONDS));
            assertTrue(new String(torn.getInputStream().readAllBytes(), StandardCharsets.UTF_8).contains("TORN"));
        } finally {
            torn.destroyForcibly();
        }

        try (MatchingRuntime runtime = open()) {
            runtime.recover();
            assertEquals(stateBefore, EngineStateText.of(runtime.engine()));
        }
        assertEquals(2_000, fullReplayCount());
        String stateAfter = run(flow, 1_000);
        try (MatchingRuntime runtime = open()) {
            runtime.recover();
            assertEquals(stateAfter, EngineStateText.of(runtime.engine()));
        }
        assertEquals(3_000, fullReplayCount());
    }

    @Test
    void aRecordOfAnUnknownFormatVersionIsRefusedWithItsIndex() {
        run(new TestFlow(5), 100);
        appendRaw(bytes -> {
            bytes.writeUnsignedByte(9);
            bytes.writeUnsignedByte(JournalFormat.KIND_COMMAND);
        });
        JournalException refused = assertThrows(JournalException.class, () -> {
            try (MatchingRuntime runtime = open()) {
                runtime.recover();
            }
        });
        assertTrue(refused.getMessage().contains("format version 9"), refused.getMessage());
        assertTrue(refused.getMessage().contains("0x"), refused.getMessage());
    }

    @Test
    void aDamagedCommandIsRefusedByRecoveryAndByTheDump() {
        run(new TestFlow(5), 100);
        appendRaw(bytes -> {
            bytes.writeUnsignedByte(JournalFormat.VERSION);
            bytes.writeUnsignedByte(JournalFormat.KIND_COMMAND);
            bytes.writeLong(-1L);
        });
        JournalException refused = assertThrows(JournalException.class, () -> {
            try (MatchingRuntime runtime = open()) {
                runtime.recover();
            }
        });
        assertTrue(refused.getMessage().contains("damaged"), refused.getMessage());
        assertThrows(JournalException.class, () -> JournalDump.dump(journalDir, new PrintStream(
            new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    }

    @Test
    void theConfiguredSymbolsMustMatchTheJournal() {
        run(new TestFlow(5), 100);
        List<io.fixmatch.engine.config.SymbolSpec> swapped = new ArrayList<>(TestFlow.SYMBOLS);
        swapped.set(0, TestFlow.SYMBOLS.get(1));
        swapped.set(1, TestFlow.SYMBOLS.get(0));
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir), swapped)) {
            JournalException refused = assertThrows(JournalException.class, () -> journal.replay(command -> { }));
            assertTrue(refused.getMessage().contains("symbol id 0"), refused.getMessage());
        }
    }

    @Test
    void theDumpPrintsOneLinePerRecordWithIndexAndTime() {
        run(new TestFlow(5), 50);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        long commands = JournalDump.dump(journalDir, new PrintStream(text, true, StandardCharsets.UTF_8));
        List<String> lines = text.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(50, commands);
        assertEquals(51, lines.size(), "the symbol table, then one line per command");
        assertTrue(lines.get(0).matches("0x[0-9a-f]+ SYMBOLS .*AAPL.*"), lines.get(0));
        assertTrue(lines.get(1).matches("0x[0-9a-f]+ \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z #\\d NEW_ORDER"
            + " [A-Z]+ (BUY|SELL) .* clOrdId=c0"), lines.get(1));
    }

    /** Replays the whole journal, ignoring snapshots; returns how many commands it holds. */
    private long fullReplayCount() {
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir),
            TestFlow.SYMBOLS)) {
            return journal.replay(command -> { });
        }
    }

    private MatchingRuntime open() {
        return JournaledRuns.runtime(JournalConfig.at(journalDir));
    }

    private String run(TestFlow flow, int count) {
        return JournaledRuns.run(JournalConfig.at(journalDir), flow, count);
    }

    private void appendRaw(Consumer<Bytes<?>> writer) {
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(journalDir.toFile()).build();
             ExcerptAppender appender = queue.createAppender();
             DocumentContext dc = appender.writingDocument()) {
            writer.accept(dc.wire().bytes());
        }
    }

    private Process startTornWriter() throws Exception {
        return JournaledRuns.startJava(TornWriteWorker.class, journalDir.toString());
    }
}
