package io.fixmatch.it.crash;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The replicated venue with two gateways that both serve every session, under load while a gateway is lost: unmodified
 * QuickFIX/J traders with file stores, each given both gateways' addresses and nothing else, trade through whichever
 * they are logged on at. At seeded random moments the gateway they are on is SIGKILLed and its data folder deleted (a
 * lost machine): each trader reconnects by itself to the other address and continues its session there, sequence
 * numbers and all; the lost gateway is started again on an empty folder, for the next cycle's move back. Optionally
 * the leader node is killed at the same moment (a takeover during an election). Afterwards every ClOrdID's last report
 * must agree with the venue's status answer, no ExecID may carry two contents, fills must balance, and no sequence
 * number may be broken ({@link CrashChecker}). A drop-copy session, moved the same way, must hold a copy of every report
 * of the sessions it covers, each exactly once ({@link DropCopyCheck}).
 */
final class GatewayTakeoverRun {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    /** What happens at a cycle. */
    enum Disruption {
        /** SIGKILL to the traders' gateway and its data folder deleted; started again, empty, for the next cycle. */
        KILL_GATEWAY_AND_DISK,
        /** The same, and SIGKILL to the leader node at once: the takeover happens across an election. */
        KILL_GATEWAY_AND_LEADER
    }

    /** The drop-copy session's CompID; it covers {@link #COVERED}. */
    static final String DROP_COPY = "DROPCOPY";
    static final List<String> COVERED = List.of("CLIENT1", "CLIENT3");

    /** {@code gatewayTimeoutMs}: {@code cluster.gatewayTimeoutMs}, 0 for its default. */
    record Settings(long seed, List<Disruption> disruptions, List<String> sessions, List<String> symbols,
                    int ratePerSession, int minLoadMillis, int maxLoadMillis, Path directory, long gatewayTimeoutMs) {

        /** Four sessions, two symbols, 750 requests/s a session (3,000/s in all), a disruption after 1 to 3 s. */
        static Settings standard(long seed, List<Disruption> disruptions, Path directory) {
            return new Settings(seed, disruptions, List.of("CLIENT1", "CLIENT2", "CLIENT3", "CLIENT4"),
                List.of("AAPL", "MSFT"), 750, 1_000, 3_000, directory, 0);
        }

        Settings withRatePerSession(int rate) {
            return new Settings(seed, disruptions, sessions, symbols, rate, minLoadMillis, maxLoadMillis, directory,
                gatewayTimeoutMs);
        }

        List<String> venueLines() {
            List<String> lines = new ArrayList<>();
            lines.add("session." + DROP_COPY + ".dropCopyFor=" + String.join(",", COVERED));
            if (gatewayTimeoutMs > 0) {
                lines.add("cluster.gatewayTimeoutMs=" + gatewayTimeoutMs);
            }
            return lines;
        }
    }

    /**
     * What the run saw: its disagreements, the logons per session, each move's pause as the clients saw it (the
     * longest gap in their reports after the kill) and the time from the kill until the last session was logged on
     * again at the other gateway (the reconnect and the takeover, before any catching up), the takeovers the cluster
     * counted, the requests sent.
     */
    record Result(List<Disagreement> disagreements, Map<String, Integer> logons, List<Long> pauseMillis,
                  List<Long> relogonMillis, List<TraderLog> logs, int fills, long takeovers, List<String> copyDifferences, int copied) {

        int requests(Request.Kind kind) {
            return TraderLog.total(logs, log -> log.requestCount(kind));
        }
    }

    private GatewayTakeoverRun() {
    }

    static Result run(Settings settings) throws Exception {
        SplittableRandom random = new SplittableRandom(settings.seed());
        List<Long> disruptedAt = new ArrayList<>();
        List<Long> relogonMillis = new ArrayList<>();
        List<String> sessions = new ArrayList<>(settings.sessions());
        sessions.add(DROP_COPY);
        try (ClusterVenue venue = new ClusterVenue(settings.directory().resolve("venue"), 3, sessions,
            settings.symbols(), settings.venueLines())) {
            ClusterVenue.Gateway[] gateways = {venue.gateway(1, List.of()), venue.gateway(2, List.of())};
            venue.startNodes();
            venue.startGateways(gateways);
            int[] addresses = {gateways[0].fixPort, gateways[1].fixPort};
            Traders traders = Traders.withAddresses(settings.sessions(), addresses,
                settings.directory().resolve("clients"), 30);
            Traders dropCopy = Traders.withAddresses(List.of(DROP_COPY), addresses,
                settings.directory().resolve("dropcopy"), 30);
            Map<String, Integer> logons;
            long takeovers;
            List<String> copyDifferences;
            int copied;
            try {
                traders.start();
                dropCopy.start();
                traders.awaitLogons(1, TIMEOUT);
                dropCopy.awaitLogons(1, TIMEOUT);
                traders.startLoad(settings.symbols(), settings.seed(), settings.ratePerSession());
                int on = 0; // QuickFIX/J tries the first address first
                int logonsSoFar = 1;
                // What the last cycle started again (a gateway, a node), starting while the flow goes on: ready
                // before the next disruption needs it, and at the end.
                Restarting restarting = new Restarting(venue);
                for (int cycle = 0; cycle < settings.disruptions().size(); cycle++) {
                    Disruption disruption = settings.disruptions().get(cycle);
                    TimeUnit.MILLISECONDS.sleep(random.nextLong(settings.minLoadMillis(),
                        settings.maxLoadMillis() + 1L));
                    restarting.awaitReady();
                    ClusterVenue.Gateway lost = gateways[on];
                    disruptedAt.add(System.nanoTime());
                    lost.kill();
                    if (disruption == Disruption.KILL_GATEWAY_AND_LEADER) {
                        int leader = venue.awaitLeader(-1, TIMEOUT);
                        venue.kill(leader);
                        venue.awaitLeader(leader, TIMEOUT);
                        venue.launchNode(leader); // back on its disk, as a follower
                        restarting.node = leader;
                    }
                    ClusterVenue.deleteTree(lost.data);
                    traders.awaitLogons(++logonsSoFar, TIMEOUT); // each at the other gateway, by itself
                    relogonMillis.add(TimeUnit.NANOSECONDS.toMillis(traders.latestLogonNanos()
                        - disruptedAt.get(disruptedAt.size() - 1)));
                    dropCopy.awaitLogons(logonsSoFar, TIMEOUT);
                    if (cycle + 1 < settings.disruptions().size()) {
                        lost.launch(); // a new machine in its place, for the next cycle's move back
                        restarting.gateway = lost;
                    }
                    on = 1 - on;
                }
                TimeUnit.MILLISECONDS.sleep(settings.minLoadMillis());
                traders.stopLoad();
                traders.awaitQuiet(TIMEOUT);
                restarting.awaitReady();
                int requests = TraderLog.total(traders.logs(), log -> log.requests().size());
                traders.queryStatus(TIMEOUT.plusSeconds(requests / 1_000));
                traders.finish();
                List<TraderLog> covered = traders.logs().stream().filter(log -> COVERED.contains(log.compId())).toList();
                DropCopyCheck.awaitNoCopyMissing(covered, dropCopy.logs().get(0), TIMEOUT);
                copyDifferences = DropCopyCheck.differences(covered, dropCopy.logs().get(0));
                copied = DropCopyCheck.expected(covered).size();
                logons = traders.logons();
                takeovers = venue.sessionTakeovers(gateways[on]);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\ngateways' output:\n"
                    + OutputTail.of(venue.output(gateways[0].process), 40) + "\n---\n"
                    + OutputTail.of(venue.output(gateways[1].process), 40),
                    e);
            } finally {
                traders.close();
                dropCopy.close();
            }
            List<Disagreement> disagreements = CrashChecker.check(traders.logs());
            int fills = TraderLog.total(traders.logs(),
                log -> (int) log.reports().stream().filter(Report::isFill).count());
            return new Result(disagreements, logons, ClusterCrashRun.pauses(traders.logs(), disruptedAt), relogonMillis,
                traders.logs(), fills, takeovers, copyDifferences, copied);
        }
    }

    /** A gateway or node started again and not yet seen ready. */
    private static final class Restarting {
        private final ClusterVenue venue;
        ClusterVenue.Gateway gateway;
        int node = -1;

        Restarting(ClusterVenue venue) {
            this.venue = venue;
        }

        void awaitReady() throws IOException, InterruptedException {
            if (gateway != null) {
                gateway.awaitReady();
                gateway = null;
            }
            if (node >= 0) {
                venue.awaitNodeReady(node);
                node = -1;
            }
        }
    }
}
