package io.fixmatch.it.crash;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drop copy across SIGKILLs: two trading sessions under load and a drop-copy session covering both (on the other
 * gateway thread than one of them), the server killed three times at seeded random moments and started again; at the
 * end the drop-copy session's client holds a copy of every report its covered sessions' clients received, each
 * exactly once (no report lost between the journal append and the store of the copy, none re-derived twice), with
 * no sequence gap. The same child process, data folder and QuickFIX/J file-store traders as
 * {@link CrashConsistencyTest}.
 */
class DropCopyCrashTest {
    private static final long SEED = 17;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void afterKillsTheDropCopySessionHoldsEveryCoveredReportExactlyOnce() throws Exception {
        List<String> trading = List.of("CLIENT1", "CLIENT2");
        SplittableRandom random = new SplittableRandom(SEED);
        List<TraderLog> tradingLogs;
        TraderLog copyLog;
        try (CrashServer server = new CrashServer(directory.resolve("server"), List.of("CLIENT1", "CLIENT2",
            "DROPCOPY"), List.of("AAPL", "MSFT"), List.of("server.layout=two-threads", "gateway.threads=2",
            "session.DROPCOPY.dropCopyFor=*"))) {
            server.start();
            Traders traders = new Traders(trading, server.port(), directory.resolve("clients"));
            Traders dropCopy = new Traders(List.of("DROPCOPY"), server.port(), directory.resolve("dropcopy"));
            try {
                traders.start();
                dropCopy.start();
                traders.awaitLogons(1, TIMEOUT);
                dropCopy.awaitLogons(1, TIMEOUT);
                traders.startLoad(List.of("AAPL", "MSFT"), SEED, 500);
                for (int cycle = 1; cycle <= 3; cycle++) {
                    TimeUnit.MILLISECONDS.sleep(random.nextLong(1_000, 2_001));
                    server.kill();
                    traders.pauseLoad();
                    server.start();
                    traders.awaitLogons(cycle + 1, TIMEOUT);
                    dropCopy.awaitLogons(cycle + 1, TIMEOUT);
                    traders.awaitQuiet(TIMEOUT);
                    traders.resumeLoad();
                }
                traders.stopLoad();
                traders.awaitQuiet(TIMEOUT);
                traders.awaitAnswered("AAPL", TIMEOUT); // every report is in the trading sessions' logs
                awaitNoCopyMissing(traders.logs(), dropCopy.logs().get(0));
                dropCopy.awaitQuiet(TIMEOUT);
                traders.finish();
                dropCopy.finish();
            } finally {
                traders.close();
                dropCopy.close();
            }
            tradingLogs = traders.logs();
            copyLog = dropCopy.logs().get(0);
            server.stop();
        }

        Map<String, Integer> expected = expected(tradingLogs);
        long fills = tradingLogs.stream().flatMap(log -> log.reports().stream())
            .filter(report -> copied(report) && report.isFill()).count();
        Map<String, Integer> copies = copies(copyLog);
        assertTrue(expected.size() > 1_000 && fills > 100, "load ran: " + expected.size() + " reports, " + fills
            + " fills");
        assertEquals(List.of(), copyLog.sequenceProblems(), "the drop copy's sequence");
        assertEquals(List.of(), differences(expected, copies), "reports and their copies (count in the trading "
            + "sessions vs in the drop copy)");
    }

    /**
     * Waits until the drop copy holds a copy of every report the trading sessions' clients received: the copies travel
     * to the other gateway thread, so they may arrive after the originals. Returns at the timeout all the same: the
     * test's comparison then names what is missing.
     */
    private static void awaitNoCopyMissing(List<TraderLog> tradingLogs, TraderLog copyLog)
        throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Integer> copies = copies(copyLog);
            if (expected(tradingLogs).entrySet().stream()
                .allMatch(entry -> copies.getOrDefault(entry.getKey(), 0) >= entry.getValue())) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(10); // polling with a deadline
        }
    }

    /** Copied: everything but status answers and the refusals the gateway made before the engine (ExecID R...). */
    private static boolean copied(Report report) {
        return !report.isStatusAnswer() && (report.execId() == null || !report.execId().startsWith("R"));
    }

    /** The reports to be copied, by session and content, with how many times each came. */
    private static Map<String, Integer> expected(List<TraderLog> tradingLogs) {
        Map<String, Integer> expected = new TreeMap<>();
        for (TraderLog log : tradingLogs) {
            for (Report report : log.reports()) {
                if (copied(report)) {
                    expected.merge(key(log.compId(), report), 1, Integer::sum);
                }
            }
        }
        return expected;
    }

    /** The drop copy's copies, keyed as {@link #expected}. */
    private static Map<String, Integer> copies(TraderLog copyLog) {
        Map<String, Integer> copies = new TreeMap<>();
        for (Report copy : copyLog.reports()) {
            copies.merge(key(copy.deliverTo(), copy), 1, Integer::sum);
        }
        return copies;
    }

    private static String key(String session, Report report) {
        return session + " 35=" + report.msgType() + " ExecID=" + report.execId() + " " + report.content() + " Text="
            + report.text();
    }

    private static List<String> differences(Map<String, Integer> expected, Map<String, Integer> copies) {
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
}
