package io.fixmatch.engine.reference;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.reference.CommandGenerator.Step;
import io.fixmatch.engine.reference.DifferentialRun.Mismatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Randomized differential test: the real engine and the {@link ReferenceEngine} (a slow, simple reading of
 * docs/MATCHING.md) get the same seeded command streams and must report the same events and hold the same books
 * after every command; the real engine must also keep its invariants (book never crossed, resting orders with
 * leaves, quantities that add up, consecutive ids).
 *
 * <p>A failure prints the seed, the command index, the command and both event lists, then a shrunk command
 * sequence that still fails. To rerun some seeds, longer:
 * {@code mvn -q -pl engine test -Dtest=EngineMatchesReferenceTest -Dfixmatch.reference.seeds=7,8
 * -Dfixmatch.reference.commands=100000}.
 */
class EngineMatchesReferenceTest {
    private static final int COMMANDS = Integer.getInteger("fixmatch.reference.commands", 20_000);
    private static final long SHRINK_BUDGET_NANOS = 8_000_000_000L;

    static LongStream seeds() {
        String seeds = System.getProperty("fixmatch.reference.seeds");
        if (seeds != null && !seeds.isBlank()) {
            return Arrays.stream(seeds.split(",")).mapToLong(s -> Long.parseLong(s.trim()));
        }
        return LongStream.rangeClosed(1, 20).map(i -> i * 1_000_003L);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void engineMatchesReferenceAfterEveryCommand(long seed) {
        DifferentialRun run = new DifferentialRun();
        CommandGenerator generator = new CommandGenerator(seed, run.reference());
        Mismatch mismatch = DifferentialRun.run(COMMANDS, generator::next, run);
        if (mismatch != null) {
            fail(report(seed, mismatch));
        }
    }

    /** The streams must exercise what they claim to: every event type and every reject reason a rule can give. */
    @Test
    void generatedStreamsCoverEveryRule() {
        ReferenceEngine reference = new ReferenceEngine(CommandGenerator.SYMBOLS);
        CommandGenerator generator = new CommandGenerator(1_000_003L, reference);
        Set<String> seen = new TreeSet<>();
        Set<RejectReason> reasons = EnumSet.noneOf(RejectReason.class);
        int replaceFills = 0;
        int fokKills = 0;
        int cancelBothStops = 0;
        int triggers = 0;
        int gtdExpiries = 0;
        for (int i = 0; i < 40_000; i++) {
            Step step = generator.next();
            Command command = step.command();
            List<ExecutionEvent> events = step.refusal() == null
                ? reference.process(command)
                : reference.refuse(command, step.refusal());
            for (ExecutionEvent e : events) {
                if (e.rejectReason() == RejectReason.GTD_EXPIRED) {
                    seen.add("*->EXPIRED(GTD)"); // due before whatever journaled command comes first
                    gtdExpiries++;
                } else {
                    seen.add((step.refusal() == null ? "" : "refused ") + command.type() + "->" + e.type());
                }
                if (e.type() == EventType.TRIGGERED) {
                    triggers++;
                }
                reasons.add(e.rejectReason());
                if (command.type() == CommandType.REPLACE && e.type() == EventType.FILL) {
                    replaceFills++;
                }
                if (command.type() == CommandType.NEW_ORDER && e.type() == EventType.CANCELED
                    && e.cumQuantity() == 0 && e.timeInForce() == TimeInForce.FOK) {
                    fokKills++;
                }
                if (e.rejectReason() == RejectReason.SELF_TRADE_INCOMING && events.stream().anyMatch(
                    other -> other.rejectReason() == RejectReason.SELF_TRADE_RESTING)) {
                    cancelBothStops++;
                }
            }
        }
        Set<RejectReason> expectedReasons = EnumSet.allOf(RejectReason.class);
        expectedReasons.remove(RejectReason.BOOK_FULL);
        expectedReasons.remove(RejectReason.CLUSTER_UNAVAILABLE); // a cluster gateway's refusal, never the engine's
        assertEquals(expectedReasons, reasons, "reject reasons produced");
        Set<String> expectedPairs = new TreeSet<>(List.of(
            "NEW_ORDER->ACCEPTED", "NEW_ORDER->REJECTED", "NEW_ORDER->FILL", "NEW_ORDER->CANCELED",
            "CANCEL->CANCELED", "CANCEL->CANCEL_REJECTED",
            "REPLACE->REPLACED", "REPLACE->REPLACE_REJECTED", "REPLACE->FILL", "REPLACE->CANCELED",
            "ORDER_STATUS->STATUS", "CANCEL_ALL_FOR_OWNER->CANCELED", "KILL_SWITCH->CANCELED",
            "EXPIRE_DAY_ORDERS->EXPIRED", "NEW_ORDER->TRIGGERED", "REPLACE->TRIGGERED", "*->EXPIRED(GTD)",
            "MASS_CANCEL->MASS_CANCEL_REPORT", "MASS_CANCEL->CANCELED", "MASS_STATUS->MASS_STATUS",
            "refused NEW_ORDER->REJECTED", "refused CANCEL->CANCEL_REJECTED", "refused REPLACE->REPLACE_REJECTED",
            "refused ORDER_STATUS->STATUS"));
        // Every pair of the rules above; the transitions of the trading day (uncross fills, auction-only cancels, the
        // close's expiries) and rare refusals come with whatever command is first after their time, so beyond these
        // pairs others appear too.
        Set<String> missing = new TreeSet<>(expectedPairs);
        missing.removeAll(seen);
        assertEquals(Set.of(), missing, "(command -> event) pairs not produced; produced: " + seen);
        if (replaceFills < 50 || fokKills < 50) {
            fail("too few crossing replaces (" + replaceFills + " fills) or killed FOKs (" + fokKills + ")");
        }
        if (cancelBothStops < 5) {
            fail("too few cancel-both self-trade stops: " + cancelBothStops);
        }
        if (triggers < 100 || gtdExpiries < 100 || reference.refills() < 100) {
            fail("too few triggered stops (" + triggers + "), GTD expiries (" + gtdExpiries + ") or iceberg refills ("
                + reference.refills() + ")");
        }
    }

    // ---------------------------------------------------------------------------------------------- reporting

    private static String report(long seed, Mismatch m) {
        StringBuilder s = new StringBuilder();
        s.append("engine disagrees with the reference: seed ").append(seed).append(", command #").append(m.index())
            .append(" (").append(m.kind()).append(": ").append(m.detail()).append(")\n");
        s.append("command: ").append(m.step()).append('\n');
        appendEvents(s, m);
        s.append("preceding commands:\n");
        for (int i = Math.max(0, m.index() - 8); i < m.index(); i++) {
            s.append("  #").append(i).append(' ').append(m.steps().get(i)).append('\n');
        }
        long start = System.nanoTime();
        Mismatch small = shrink(m, start + SHRINK_BUDGET_NANOS);
        boolean complete = System.nanoTime() - start < SHRINK_BUDGET_NANOS;
        s.append("\nshrunk").append(complete ? "" : " (time budget spent, not minimal)").append(" to ")
            .append(small.index() + 1).append(" commands, failing at the last (").append(small.kind()).append(": ")
            .append(small.detail()).append("):\n");
        for (int i = 0; i <= small.index(); i++) {
            s.append("  ").append(small.steps().get(i)).append('\n');
        }
        appendEvents(s, small);
        s.append("rerun: mvn -q -pl engine test -Dtest=EngineMatchesReferenceTest -Dfixmatch.reference.seeds=")
            .append(seed).append('\n');
        return s.toString();
    }

    private static void appendEvents(StringBuilder s, Mismatch m) {
        s.append("expected (reference) events:\n");
        for (String e : m.expected()) {
            s.append("  ").append(e).append('\n');
        }
        s.append("actual (engine) events:\n");
        for (String e : m.actual()) {
            s.append("  ").append(e).append('\n');
        }
    }

    /**
     * Removes chunks of commands, then single commands, as long as the replay still fails at a command of the same
     * type with the same kind of mismatch. Greedy and bounded in time; good enough to read the cause.
     */
    private static boolean sameShape(Step a, Step b) {
        return a.command().type() == b.command().type() && (a.refusal() == null) == (b.refusal() == null);
    }

    static Mismatch shrink(Mismatch original, long deadlineNanos) {
        List<Step> current = new ArrayList<>(original.steps().subList(0, original.index() + 1));
        Mismatch best = original;
        for (int chunk = Math.max(1, current.size() / 2); chunk >= 1; chunk /= 2) {
            int i = 0;
            while (i < current.size() && System.nanoTime() < deadlineNanos) {
                List<Step> candidate = new ArrayList<>(current.subList(0, i));
                candidate.addAll(current.subList(Math.min(current.size(), i + chunk), current.size()));
                Mismatch m = candidate.isEmpty() ? null : DifferentialRun.replay(candidate);
                if (m != null && m.kind() == original.kind() && sameShape(m.step(), original.step())) {
                    current = new ArrayList<>(candidate.subList(0, m.index() + 1));
                    best = m;
                } else {
                    i += chunk;
                }
            }
            if (chunk == 1 || System.nanoTime() >= deadlineNanos) {
                break;
            }
        }
        return best;
    }
}
