package io.fixmatch.it.crash;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A gateway that cannot reach a leader (issue #22, "Bad input and faults"): QuickFIX/J traders with file stores trade
 * through a gateway process while two of the three node processes are stopped (no majority, so no leader). Within
 * {@code cluster.unavailableAfterMs} of the first unanswered request the gateway refuses new requests ("cluster
 * unavailable") instead of entering them late, its {@code /health} says 503, and every FIX session stays logged on.
 * Since the cluster numbers every message a session sends (issue #30), the refusals are written once it answers again
 * (no gateway may give a number the cluster does not know); then the gateway takes orders again by itself and
 * {@code /health} is 200. Nothing acknowledged is lost or doubled ({@link CrashChecker}: the venue's status of every
 * ClOrdID agrees with the client's last report), and nothing refused was entered (no other report names a refused
 * ClOrdID; the venue does not know it).
 */
@WholeVenue
@Tag("long") // ~45 s: -Dfixmatch.test.long=true (docs/TESTING.md)
class ClusterUnavailableTest {
    private static final long SEED = 23;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long UNAVAILABLE_AFTER_MS = 1_000;
    private static final List<String> SESSIONS = List.of("CLIENT1", "CLIENT2");
    private static final List<String> SYMBOLS = List.of("AAPL", "MSFT");

    /** The test's folder ({@link ClusterVenue#testFolder}: kept with {@code CLUSTER_TEST_KEEP}). */
    @TempDir
    Path tempDirectory;

    @Test
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void withoutAMajorityNewOrdersAreRefusedTheSessionsStayUpAndTradingResumesByItself() throws Exception {
        Path directory = ClusterVenue.testFolder(tempDirectory);
        try (ClusterVenue venue = new ClusterVenue(directory.resolve("venue"), 3, SESSIONS, SYMBOLS,
            List.of("cluster.unavailableAfterMs=" + UNAVAILABLE_AFTER_MS))) {
            ClusterVenue.Gateway gateway = venue.gateway(1, List.of());
            venue.startNodes();
            venue.startGateways(gateway);
            Traders traders = new Traders(SESSIONS, gateway.fixPort, directory.resolve("clients"));
            List<TraderLog> logs;
            try {
                traders.start();
                traders.awaitLogons(1, TIMEOUT);
                traders.startLoad(SYMBOLS, SEED, 50);
                await(() -> count(traders.logs(), "ack"), 100, "orders acknowledged before the outage");

                int leader = venue.awaitLeader(-1, TIMEOUT);
                int follower = (leader + 1) % 3;
                assertEquals(0, venue.stop(leader));
                assertEquals(0, venue.stop(follower));
                await(() -> gateway.health() == 503 ? 1 : 0, 1, "the gateway's /health saying 503");
                int sentBefore = requests(traders);
                await(() -> requests(traders), sentBefore + 50, "requests sent during the outage");
                traders.awaitLogons(1, TIMEOUT); // logged on now, as they were all along (counted below)

                venue.startNode(leader);
                venue.startNode(follower);
                await(() -> count(traders.logs(), "refused"), 50, "the requests of the outage refused, once numbered");
                int acknowledged = count(traders.logs(), "ack");
                await(() -> count(traders.logs(), "ack"), acknowledged + 100, "orders acknowledged again");
                await(() -> gateway.health() == 200 ? 1 : 0, 1, "the gateway's /health saying 200 again");
                traders.stopLoad();
                traders.awaitQuiet(TIMEOUT);
                int requests = TraderLog.total(traders.logs(), log -> log.requests().size());
                traders.queryStatus(TIMEOUT.plusSeconds(requests / 1_000));
                traders.finish();
                logs = traders.logs();
                System.out.println(count(logs, "refused") + " refused, " + count(logs, "ack") + " acknowledged of "
                    + requests);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\ngateway:\n" + venue.output(gateway.process), e);
            } finally {
                traders.close();
            }
            assertEquals(List.of(), CrashChecker.check(logs));
            assertEquals(List.of(), refusedYetActedOn(logs), "requests refused as 'cluster unavailable' and entered");
            traders.logons().forEach((session, logons) -> assertEquals(1, logons, session + " logged on again: its "
                + "FIX session dropped"));
        }
    }

    /** The order requests the clients have sent so far. */
    private static int requests(Traders traders) {
        return TraderLog.total(traders.logs(), log -> log.requests().size());
    }

    /** Acknowledgements (ExecType 0) or refusals saying "cluster unavailable" (rejects, cancel rejects) received. */
    private static int count(List<TraderLog> logs, String what) {
        return TraderLog.total(logs, log -> (int) log.reports().stream().filter(report -> what.equals("ack")
            ? report.isExecution() && report.execType() == '0'
            : report.isClusterUnavailable()).count());
    }

    /**
     * Requests refused as "cluster unavailable" that the venue acted on all the same: another report names their
     * ClOrdID, or the venue's status answer knows it. (The checker accepts a reject followed by an acknowledgement.)
     */
    private static List<String> refusedYetActedOn(List<TraderLog> logs) {
        List<String> found = new ArrayList<>();
        for (TraderLog log : logs) {
            List<Report> reports = log.reports();
            for (Report refusal : reports) {
                if (!refusal.isClusterUnavailable()) {
                    continue;
                }
                for (Report other : reports) {
                    boolean unknownToTheVenue = other.isStatusAnswer() && other.ordStatus() == '8'
                        && "NONE".equals(other.orderId());
                    if (!other.isClusterUnavailable() && refusal.clOrdId().equals(other.clOrdId())
                        && !unknownToTheVenue) {
                        found.add(log.compId() + " " + refusal.describe() + ", then " + other.describe());
                    }
                }
            }
        }
        return found.size() > 10 ? found.subList(0, 10) : found;
    }

    private interface Count {
        int get() throws Exception;
    }

    private static void await(Count count, int atLeast, String what) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (count.get() < atLeast) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + TIMEOUT + " waiting for " + what + " (" + count.get()
                    + " of " + atLeast + ")");
            }
            TimeUnit.MILLISECONDS.sleep(20); // polling with a deadline
        }
    }
}
