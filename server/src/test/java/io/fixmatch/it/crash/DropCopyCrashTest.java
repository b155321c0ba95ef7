package io.fixmatch.it.crash;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
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
@WholeVenue
@Tag("long") // ~35 s: -Dfixmatch.test.long=true (docs/TESTING.md)
class DropCopyCrashTest {
    private static final long SEED = 17;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    @Test
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
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
                DropCopyCheck.awaitNoCopyMissing(traders.logs(), dropCopy.logs().get(0), TIMEOUT);
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

        int expected = DropCopyCheck.expected(tradingLogs).size();
        long fills = tradingLogs.stream().flatMap(log -> log.reports().stream())
            .filter(report -> DropCopyCheck.copied(report) && report.isFill()).count();
        assertTrue(expected > 1_000 && fills > 100, "load ran: " + expected + " reports, " + fills + " fills");
        assertEquals(List.of(), copyLog.sequenceProblems(), "the drop copy's sequence");
        assertEquals(List.of(), DropCopyCheck.differences(tradingLogs, copyLog), "reports and their copies (count in "
            + "the trading sessions vs in the drop copy)");
    }
}
