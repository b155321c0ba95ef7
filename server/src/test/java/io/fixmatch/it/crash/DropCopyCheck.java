package io.fixmatch.it.crash;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Does a drop-copy session's client hold a copy of every report the sessions it covers received, each exactly once?
 * Judged from the clients' FIX logs alone: each covered report (by session and content) counted in the trading
 * sessions' logs and in the drop copy's (where DeliverToCompID names the session), the two counts compared.
 */
final class DropCopyCheck {
    private DropCopyCheck() {
    }

    /**
     * Waits until the drop copy holds a copy of every report the covered sessions' clients received: the copies
     * travel on their own path (another gateway thread or process), so they may arrive after the originals. Returns
     * at the timeout all the same: {@link #differences} then names what is missing.
     */
    static void awaitNoCopyMissing(List<TraderLog> coveredLogs, TraderLog copyLog, Duration timeout)
        throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Integer> copies = copies(copyLog);
            if (expected(coveredLogs).entrySet().stream()
                .allMatch(entry -> copies.getOrDefault(entry.getKey(), 0) >= entry.getValue())) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(10); // polling with a deadline
        }
    }

    /**
     * Copied: everything but status answers, the refusals the gateway made before the engine (ExecID R...: cluster
     * unavailable, server busy) included: a cluster numbers them and copies them as it copies the engine's reports,
     * a standalone gateway copies them itself. (Left out until a takeover's election refused orders for longer than
     * cluster.unavailableAfterMs: the drop copy had every one, the check expected none.)
     */
    static boolean copied(Report report) {
        return !report.isStatusAnswer();
    }

    /** The reports to be copied, by session and content, with how many times each came. */
    static Map<String, Integer> expected(List<TraderLog> coveredLogs) {
        Map<String, Integer> expected = new TreeMap<>();
        for (TraderLog log : coveredLogs) {
            for (Report report : log.reports()) {
                if (copied(report)) {
                    expected.merge(key(log.compId(), report), 1, Integer::sum);
                }
            }
        }
        return expected;
    }

    /** The drop copy's copies, keyed as {@link #expected}. */
    static Map<String, Integer> copies(TraderLog copyLog) {
        Map<String, Integer> copies = new TreeMap<>();
        for (Report copy : copyLog.reports()) {
            copies.merge(key(copy.deliverTo(), copy), 1, Integer::sum);
        }
        return copies;
    }

    /** Where the counts differ (at most 20 of them): "report: count in the trading sessions vs in the drop copy". */
    static List<String> differences(List<TraderLog> coveredLogs, TraderLog copyLog) {
        Map<String, Integer> expected = expected(coveredLogs);
        Map<String, Integer> copies = copies(copyLog);
        List<String> differences = new ArrayList<>();
        expected.forEach((key, count) -> {
            if (!count.equals(copies.get(key))) {
                differences.add(key + ": " + count + " vs " + copies.get(key));
            }
        });
        copies.forEach((key, count) -> {
            if (!expected.containsKey(key)) {
                differences.add(key + ": none vs " + count);
            }
        });
        return differences.size() > 20 ? differences.subList(0, 20) : differences;
    }

    private static String key(String session, Report report) {
        return session + " 35=" + report.msgType() + " ExecID=" + report.execId() + " " + report.content() + " Text="
            + report.text();
    }
}
