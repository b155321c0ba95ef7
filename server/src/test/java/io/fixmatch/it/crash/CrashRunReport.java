package io.fixmatch.it.crash;

import io.fixmatch.it.crash.Disagreement.Category;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** What a crash-consistency run did and found: the numbers, then every disagreement by category. */
record CrashRunReport(CrashRun.Settings settings, int cycles, List<Long> loadMillis, List<TraderLog> logs,
                      List<Disagreement> disagreements, Duration elapsed) {

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

    /** The report: numbers, counts by category, then up to {@code examplesPerCategory} disagreements of each. */
    String text(int examplesPerCategory) {
        StringBuilder text = new StringBuilder();
        text.append("crash-consistency run: seed ").append(settings.seed()).append(", ").append(cycles)
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
        text.append("disagreements: ").append(disagreements.size());
        counts().forEach((category, count) -> text.append(", ").append(category).append(' ').append(count));
        text.append('\n');
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
