package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.matching.EngineStateText;
import io.fixmatch.engine.matching.MatchingEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Kills a child JVM that is processing commands through the journaled loop with SIGKILL at random moments, many
 * times over the same journal, then checks that nothing published was lost: every event the child published is an
 * event of the journal's commands, in order; the journal holds exactly a prefix of the command stream; and a
 * recovered engine equals a reference replay of that prefix. The same with auctions ({@link AuctionFlow}: a symbol
 * half of each day in a call, a volatility band on another): killed while the symbol is in a call, and right after an
 * uncross; the recovered engine (phases, the call's orders, the next transitions) equals the replay of the journal.
 */
class CrashRecoveryTest {
    private static final long SEED = 20261123L;
    /**
     * Kills per test: 4 (two in a call, two right after an uncross), 8 with {@code -Dfixmatch.test.long=true}. Each
     * kill is a JVM started again on the journal, 2-3 s on this 2-core machine.
     */
    private static final int KILLS = Boolean.getBoolean("fixmatch.test.long") ? 8 : 4;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = JournaledRuns.PROCESSES_TEST_SECONDS, unit = TimeUnit.SECONDS)
    void killedAtRandomMomentsLosesNothingPublished() throws Exception {
        Path journalDir = dir.resolve("journal");
        Path published = dir.resolve("published.txt");
        SplittableRandom random = new SplittableRandom(SEED);
        long lastRecovered = -1;
        for (int kill = 0; kill < KILLS; kill++) {
            Process worker = startWorker(journalDir, published);
            try {
                long recovered = awaitReady(worker);
                assertTrue(recovered >= lastRecovered, "the journal never shrinks: " + recovered + " < "
                    + lastRecovered);
                lastRecovered = recovered;
                Thread.sleep(100 + random.nextInt(900));
            } finally {
                worker.destroyForcibly(); // SIGKILL: no shutdown hook, no flush, no close
            }
            assertTrue(worker.waitFor(JournaledRuns.PROCESS_WAIT.toMillis(), TimeUnit.MILLISECONDS),
                "worker did not die");
            dropPartialLastLine(published);
        }
        TestFlow flow = new TestFlow(SEED);
        verify(journalDir, published, flow::next);
    }

    @Test
    @Timeout(value = JournaledRuns.PROCESSES_TEST_SECONDS, unit = TimeUnit.SECONDS)
    void killedDuringACallAndRightAfterAnUncrossLosesNothingAndRecoversThePhases() throws Exception {
        Path journalDir = dir.resolve("journal");
        Path published = dir.resolve("published.txt");
        SplittableRandom random = new SplittableRandom(SEED);
        int inCall = 0;
        int afterUncross = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            Process worker = JournaledRuns.startJava(CrashWorker.class, journalDir.toString(), published.toString(),
                Long.toString(SEED), "auctions");
            try {
                BufferedReader output = new BufferedReader(new InputStreamReader(worker.getInputStream(),
                    StandardCharsets.UTF_8));
                awaitReady(output);
                String awaited = kill % 2 == 0 ? "CALL" : "UNCROSSED";
                for (String line = output.readLine(); line != null; line = output.readLine()) {
                    if (line.equals(awaited)) {
                        if (awaited.equals("CALL")) {
                            Thread.sleep(random.nextInt(50)); // somewhere in the call
                            inCall++;
                        } else {
                            afterUncross++;
                        }
                        break;
                    }
                }
            } finally {
                worker.destroyForcibly();
            }
            assertTrue(worker.waitFor(JournaledRuns.PROCESS_WAIT.toMillis(), TimeUnit.MILLISECONDS),
                "worker did not die");
            dropPartialLastLine(published);
        }
        assertEquals(KILLS / 2, inCall, "kills in a call");
        assertEquals(KILLS / 2, afterUncross, "kills right after an uncross");
        AuctionFlow flow = new AuctionFlow(SEED);
        List<String> events = verify(journalDir, published, flow::next);
        assertTrue(events.stream().anyMatch(e -> e.contains("reason=AUCTION_ENDED")), "auctions ended");
        assertTrue(events.stream().anyMatch(e -> e.contains("reason=NOT_DURING_CALL")), "calls refused IOCs");
    }

    /**
     * The reference: the journal's commands must be exactly the first K commands of the stream, and a plain engine fed
     * them (with their recorded timestamps) gives the events that may have been published; every published event is
     * one of them, in order; the recovered engine (from the newest snapshot and the journal) equals the reference.
     * Returns the reference's events.
     */
    private static List<String> verify(Path journalDir, Path published, UnaryOperator<Command> flow)
        throws IOException {
        List<String> referenceEvents = new ArrayList<>();
        MatchingEngine reference = new MatchingEngine(TestFlow.ENGINE, e -> referenceEvents.add(e.toString()));
        Command expected = new Command();
        long journaled;
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir),
            TestFlow.SYMBOLS)) {
            journaled = journal.replay(command -> {
                flow.apply(expected);
                expected.timestampNanos(command.timestampNanos());
                assertEquals(expected.toString(), command.toString(), "journal is not a prefix of the stream");
                reference.process(command);
            });
        }
        assertTrue(journaled > 0, "the workers journaled nothing");

        List<String> publishedEvents = Files.readAllLines(published, StandardCharsets.US_ASCII);
        assertTrue(publishedEvents.size() > 0, "the workers published nothing");
        assertIsSubsequence(publishedEvents, referenceEvents);

        try (MatchingRuntime recovered = JournaledRuns.runtime(JournalConfig.at(journalDir))) {
            assertEquals(journaled, recovered.recover());
            assertEquals(EngineStateText.of(reference), EngineStateText.of(recovered.engine()));
            assertEquals(reference.nextDeadlineNanos(), recovered.engine().nextDeadlineNanos());
        }
        return referenceEvents;
    }

    /** The kill can cut the worker's last write short: that line was never fully published. */
    private static void dropPartialLastLine(Path file) throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        byte[] content = Files.readAllBytes(file);
        int end = content.length;
        while (end > 0 && content[end - 1] != '\n') {
            end--;
        }
        if (end < content.length) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(end);
            }
        }
    }

    /** Every published event must be an event of the journaled commands, in the same order. */
    private static void assertIsSubsequence(List<String> published, List<String> reference) {
        int position = 0;
        for (int i = 0; i < published.size(); i++) {
            String event = published.get(i);
            while (position < reference.size() && !reference.get(position).equals(event)) {
                position++;
            }
            if (position == reference.size()) {
                fail("published event " + i + " has no journaled command behind it: " + event);
            }
            position++;
        }
    }

    private static Process startWorker(Path journalDir, Path published) throws IOException {
        return JournaledRuns.startJava(CrashWorker.class, journalDir.toString(), published.toString(),
            Long.toString(SEED));
    }

    /** Waits for the worker's READY line (it has recovered and started); returns the commands it recovered. */
    private static long awaitReady(Process worker) throws IOException {
        BufferedReader output = new BufferedReader(new InputStreamReader(worker.getInputStream(),
            StandardCharsets.UTF_8));
        long recovered = awaitReady(output);
        Thread drain = new Thread(() -> output.lines().forEach(ignored -> { }));
        drain.setDaemon(true);
        drain.start();
        return recovered;
    }

    /** Reads the worker's output up to its READY line; returns the commands it recovered. */
    private static long awaitReady(BufferedReader output) throws IOException {
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = output.readLine()) != null) {
            if (line.startsWith("READY ")) {
                return Long.parseLong(line.substring("READY ".length()));
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("worker exited before it was ready:\n" + seen);
    }
}
