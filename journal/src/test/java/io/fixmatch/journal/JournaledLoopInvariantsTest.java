package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.matching.EngineStateText;
import io.fixmatch.engine.matching.MatchingEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the matching loop promises about the journal, checked on the real loop, the real rings and the real
 * Chronicle journal (issue #14): a command is journaled before any of its events is published, and a command the
 * journal refuses is answered with a JOURNAL_UNAVAILABLE reject and never acted on.
 */
class JournaledLoopInvariantsTest {
    private static final long SEED = 8;
    private static final LoopConfig LOOP = LoopConfig.defaults().withIdleStrategy("yield");

    @TempDir
    Path dir;

    /**
     * The journal itself is the outbound ring's only consumer while the loop runs: at each append it takes every
     * event published so far. Journal-first, those are exactly the events of the commands before this one, as a
     * plain engine fed the journaled commands gives them; an event of the command being appended (a loop that
     * publishes before it journals) is caught at the append where it shows.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void noEventOfACommandIsPublishedBeforeTheJournalHasIt() {
        AtomicReference<OutboundEventRing> ring = new AtomicReference<>();
        List<String> published = new ArrayList<>();
        List<Integer> publishedAtAppend = new ArrayList<>();
        List<Command> appended = new ArrayList<>();
        MatchingRuntime runtime = runtime(command -> {
            ring.get().poll(event -> published.add(event.toString()), Integer.MAX_VALUE);
            publishedAtAppend.add(published.size());
            appended.add(command);
        });
        ring.set(runtime.outbound());
        runFlow(runtime, 20_000, null);
        while (runtime.outbound().poll(event -> published.add(event.toString()), 10_000) > 0) {
            // the events of the last commands, after the loop stopped
        }

        List<String> reference = new ArrayList<>();
        MatchingEngine engine = new MatchingEngine(TestFlow.ENGINE, event -> reference.add(event.toString()));
        assertEquals(20_000, appended.size(), "every command of the flow was journaled");
        for (int i = 0; i < appended.size(); i++) {
            if (publishedAtAppend.get(i) != reference.size()) {
                fail("command " + i + " (" + appended.get(i) + ") was journaled when " + publishedAtAppend.get(i)
                    + " events were published; the commands before it make " + reference.size()
                    + ": the loop published before it journaled");
            }
            engine.process(appended.get(i));
        }
        assertSameEvents(reference, published);
    }

    /**
     * A journal that fails on chosen appends (as a full disk would) must make the loop refuse exactly those commands
     * with JOURNAL_UNAVAILABLE and act on none of them: the published events are those of a plain engine fed the
     * journaled commands, with a refusal in place of each failed one; the journal holds only the others; a
     * recovery rebuilds the same books; and the loop goes on after each failure.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCommandTheJournalCannotTakeIsRefusedAndNeverActedOn() {
        Set<Integer> failing = Set.of(0, 7, 8, 500, 1_234, 4_999);
        List<Command> attempted = new ArrayList<>();
        MatchingRuntime runtime = runtime(command -> {
            attempted.add(command);
            if (failing.contains(attempted.size() - 1)) {
                throw new IllegalStateException("injected append failure (disk full)");
            }
        });
        List<String> published = new ArrayList<>();
        List<ExecutionEvent> refusals = new ArrayList<>();
        runFlow(runtime, 5_000, event -> {
            published.add(event.toString());
            if (event.rejectReason() == RejectReason.JOURNAL_UNAVAILABLE) {
                refusals.add(copyOf(event));
            }
        });
        while (runtime.outbound().poll(event -> published.add(event.toString()), 10_000) > 0) {
            // the events of the last commands
        }

        List<String> reference = new ArrayList<>();
        MatchingEngine engine = new MatchingEngine(TestFlow.ENGINE, event -> reference.add(event.toString()));
        List<String> journaledExpected = new ArrayList<>();
        for (int i = 0; i < attempted.size(); i++) {
            if (failing.contains(i)) {
                engine.refuse(attempted.get(i), RejectReason.JOURNAL_UNAVAILABLE);
            } else {
                engine.process(attempted.get(i));
                journaledExpected.add(attempted.get(i).toString());
            }
        }
        assertEquals(5_000, attempted.size());
        assertSameEvents(reference, published);
        assertEquals(failing.size(), refusals.size(), "one refusal per failed append: " + refusals);
        for (ExecutionEvent refusal : refusals) {
            assertTrue(refusal.execId() == 0 && refusal.orderId() == 0, "a refusal consumes no id: " + refusal);
        }

        List<String> journaled = new ArrayList<>();
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(dir), TestFlow.SYMBOLS)) {
            journal.replay(command -> journaled.add(command.toString()));
        }
        assertEquals(journaledExpected, journaled, "the journal holds exactly the commands acted on");
        try (MatchingRuntime recovered = JournaledRuns.runtime(JournalConfig.at(dir))) {
            recovered.recover();
            assertEquals(EngineStateText.of(engine), EngineStateText.of(recovered.engine()));
        }
    }

    private MatchingRuntime runtime(Consumer<Command> beforeAppend) {
        MatchingRuntime runtime = new MatchingRuntime(TestFlow.ENGINE, LOOP, new ObservedJournal(
            ChroniclePersistence.open(JournalConfig.at(dir), TestFlow.SYMBOLS), beforeAppend));
        runtime.recover();
        return runtime;
    }

    /**
     * Runs {@code count} commands of the flow through the live loop and stops it. With {@code events} null the test
     * thread never touches the outbound ring (the journal consumes it); otherwise it drains it as it goes.
     */
    private static void runFlow(MatchingRuntime runtime, int count, Consumer<ExecutionEvent> events) {
        runtime.start();
        TestFlow flow = new TestFlow(SEED);
        Command command = new Command();
        for (int i = 0; i < count; i++) {
            flow.next(command);
            while (!runtime.inbound().offer(command)) {
                if (events != null) {
                    runtime.outbound().poll(events::accept, 1_000);
                }
                Thread.onSpinWait();
            }
            if (events != null) {
                runtime.outbound().poll(events::accept, 1_000);
            }
        }
        runtime.close();
        if (events != null) {
            while (runtime.outbound().poll(events::accept, 10_000) > 0) {
                // what the loop published while it stopped
            }
        }
    }

    private static ExecutionEvent copyOf(ExecutionEvent event) {
        ExecutionEvent copy = new ExecutionEvent();
        copy.begin(event.type(), event.timestampNanos(), event.owner()).ids(event.orderId(), event.execId())
            .rejectReason(event.rejectReason());
        return copy;
    }

    private static void assertSameEvents(List<String> expected, List<String> actual) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), "event " + i);
        }
        assertEquals(expected.size(), actual.size(), "number of events");
    }
}
