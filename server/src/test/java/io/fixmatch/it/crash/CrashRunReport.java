package io.fixmatch.it.crash;

import io.fixmatch.it.crash.Disagreement.Category;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a crash-consistency run did and found: the numbers, the cycles with disagreements, then every disagreement
 * by category. {@code requestsAtStops} holds, for each stop, how many requests each session had numbered by then:
 * a disagreement is counted in the cycle that ended with the first stop after its request.
 */
record CrashRunReport(CrashRun.Settings settings, List<Long> loadMillis, List<Map<String, Integer>> requestsAtStops,
                      List<TraderLog> logs, List<Disagreement> disagreements, Duration elapsed) {

    int cycles() {
        return requestsAtStops.size();
    }

    int requests(Request.Kind kind) {
        return TraderLog.total(logs, log -> log.requestCount(kind));
    }

    int reports() {
        return TraderLog.total(logs, TraderLog::reportCount);
    }

    int fills() {
        return TraderLog.total(logs, log -> (int) log.reports().stream().filter(Report::isFill).count());
    }

    int statusAnswers() {
        return TraderLog.total(logs, TraderLog::statusAnswers);
    }

    Map<Category, Long> counts() {
        Map<Category, Long> counts = new EnumMap<>(Category.class);
        for (Disagreement disagreement : disagreements) {
            counts.merge(disagreement.category(), 1L, Long::sum);
        }
        return counts;
    }

    /**
     * The cycle (1..cycles; cycles + 1 after the last stop) whose stop came first after the request, or 0;
     * {@code positions} gives each session's requests their order.
     */
    private int cycleOf(Disagreement disagreement, Map<String, Map<String, Integer>> positions) {
        Integer index = disagreement.clOrdId() == null ? null
            : positions.getOrDefault(disagreement.session(), Map.of()).get(disagreement.clOrdId());
        if (index == null) {
            return 0;
        }
        for (int cycle = 1; cycle <= requestsAtStops.size(); cycle++) {
            if (index < requestsAtStops.get(cycle - 1).getOrDefault(disagreement.session(), 0)) {
                return cycle;
            }
        }
        return requestsAtStops.size() + 1;
    }

    /** Per category: in how many cycles, and how many of its ClOrdIDs the server's journal holds. */
    private String breakdown() {
        StringBuilder text = new StringBuilder();
        Map<Category, Set<Integer>> cycles = new EnumMap<>(Category.class);
        Map<Category, long[]> journal = new EnumMap<>(Category.class);
        Set<Integer> anyCycle = new TreeSet<>();
        Map<String, Map<String, Integer>> positions = new HashMap<>();
        for (TraderLog log : logs) {
            Map<String, Integer> ofSession = positions.computeIfAbsent(log.compId(), id -> new HashMap<>());
            for (Request request : log.requests()) {
                ofSession.put(request.clOrdId(), ofSession.size());
            }
        }
        for (Disagreement disagreement : disagreements) {
            int cycle = cycleOf(disagreement, positions);
            if (cycle > 0) {
                cycles.computeIfAbsent(disagreement.category(), c -> new TreeSet<>()).add(cycle);
                anyCycle.add(cycle);
            }
            if (disagreement.diagnosis() != null) {
                journal.computeIfAbsent(disagreement.category(), c -> new long[2])
                    [disagreement.diagnosis().equals("absent") ? 1 : 0]++;
            }
        }
        text.append("cycles with a disagreement: ").append(anyCycle.size()).append(" of ").append(cycles())
            .append('\n');
        counts().forEach((category, count) -> {
            text.append("  ").append(category).append(": ").append(count);
            Set<Integer> in = cycles.get(category);
            if (in != null) {
                text.append(" in ").append(in.size()).append(" cycles");
            }
            long[] held = journal.get(category);
            if (held != null) {
                text.append("; the journal holds ").append(held[0]).append(" of their requests, lacks ")
                    .append(held[1]);
            }
            text.append('\n');
        });
        return text.toString();
    }

    /** The report: numbers, counts by category, then up to {@code examplesPerCategory} disagreements of each. */
    String text(int examplesPerCategory) {
        StringBuilder text = new StringBuilder();
        text.append("crash-consistency run: seed ").append(settings.seed()).append(", ").append(cycles())
            .append(settings.cleanStops() ? " clean-stop cycles (SIGTERM" : " kill cycles (SIGKILL")
            .append(" after ").append(settings.minLoadMillis()).append("..").append(settings.maxLoadMillis())
            .append(" ms of load), ").append(settings.sessions().size())
            .append(" sessions at ").append(settings.ratePerSession()).append(" requests/s each, symbols ")
            .append(settings.symbols()).append(", ").append(elapsed.toSeconds()).append(" s\n");
        text.append("sent: ").append(requests(Request.Kind.NEW_ORDER)).append(" orders, ")
            .append(requests(Request.Kind.CANCEL)).append(" cancels, ").append(requests(Request.Kind.REPLACE))
            .append(" replaces; received: ").append(reports()).append(" reports (").append(fills())
            .append(" fills); status answers ").append(statusAnswers()).append("; ResendRequests from the server ")
            .append(TraderLog.total(logs, TraderLog::resendRequestsReceived)).append('\n');
        for (TraderLog log : logs) {
            if (!log.errors().isEmpty()) {
                text.append(log.compId()).append(": ").append(log.errors().size())
                    .append(" QuickFIX/J error events, the first: ").append(log.errors().get(0)).append('\n');
            }
        }
        text.append("disagreements: ").append(disagreements.size()).append('\n').append(breakdown());
        for (Category category : Category.values()) {
            List<Disagreement> ofCategory = disagreements.stream().filter(d -> d.category() == category).toList();
            for (int i = 0; i < Math.min(examplesPerCategory, ofCategory.size()); i++) {
                text.append("  ").append(ofCategory.get(i)).append('\n');
            }
            if (ofCategory.size() > examplesPerCategory) {
                text.append("  ... ").append(ofCategory.size() - examplesPerCategory).append(" more ")
                    .append(category).append('\n');
            }
        }
        return text.toString();
    }
}
