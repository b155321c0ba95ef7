package io.fixmatch.it.crash;

import io.fixmatch.cluster.protocol.ProtocolVersion;
import io.fixmatch.journal.JournalDump;
import io.fixmatch.server.WaitBounds;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The crash-consistency run against the replicated venue: QuickFIX/J traders with file stores trade through a gateway
 * while a node is disrupted at seeded random moments (the leader killed or frozen, a follower killed), then put back;
 * trading goes on throughout. Afterwards every ClOrdID's last report must agree with the venue's status answer, no
 * ExecID may carry two contents, fills must balance ({@link CrashChecker}), no FIX session may have dropped, and every
 * node's journal must hold the same records.
 */
final class ClusterCrashRun {
    private static final Duration TIMEOUT = WaitBounds.CLUSTER;
    /** Room for a run's log, journal and snapshots; a filled disk keeps less than the journal's 64 MB headroom. */
    private static final int NODE_DISK_MEGABYTES = 512;
    private static final int FULL_DISK_FREE_MEGABYTES = 16;

    /** What happens to the venue at a cycle. */
    enum Disruption {
        /** SIGKILL to the leader; it is started again on its disk and catches up as a follower. */
        KILL_LEADER,
        /** SIGSTOP to the leader past the heartbeat timeout, then SIGCONT: it finds a newer term and steps down. */
        FREEZE_LEADER,
        /** A snapshot, then SIGKILL to a follower, started again on its disk (from that snapshot). */
        KILL_FOLLOWER,
        /**
         * A snapshot, then SIGKILL to a follower, its data folder emptied: started with {@code --from-snapshot}, it
         * copies the snapshot and the log after it from the others, starts from that snapshot and catches up.
         */
        REBUILD_FOLLOWER,
        /** SIGKILL to every node at once, all started again on their disks; the gateway waits for a leader. */
        KILL_ALL_NODES,
        /** SIGKILL to the gateway (the FIX sessions drop), started again on its disk; the clients log on again. */
        KILL_GATEWAY,
        /**
         * The leader's disk filled (the venue's nodes on disks of their own): its journal stops taking commands and
         * the node stops (exit 3), the others elect a leader; the disk freed, it is started again and catches up, its
         * journal without a gap.
         */
        FILL_LEADER_DISK,
        /**
         * A rolling restart, as a rolling upgrade within one protocol version (docs/OPERATIONS.md, Upgrades): each
         * node in turn, followers first and the leader last, after a snapshot stopped (SIGTERM, exit 0) and started
         * again on its disk, the next only once it has applied what the leader had committed when it came back; then every node says
         * this release's protocol version, and that the term in force began on a node of it.
         */
        ROLLING_RESTART
    }

    /** @param disruptions one per cycle, in order */
    record Settings(long seed, List<Disruption> disruptions, List<String> sessions, List<String> symbols,
                    int ratePerSession, int minLoadMillis, int maxLoadMillis, Path directory) {

        /** Whether a disruption needs each node on a disk of its own. */
        boolean needsNodeDisks() {
            return disruptions.contains(Disruption.FILL_LEADER_DISK);
        }

        /** Four sessions, two symbols, 250 requests/s a session (1,000/s in all), a disruption after 1 to 2 s. */
        static Settings standard(long seed, List<Disruption> disruptions, Path directory) {
            return new Settings(seed, disruptions, List.of("CLIENT1", "CLIENT2", "CLIENT3", "CLIENT4"),
                List.of("AAPL", "MSFT"), 250, 1_000, 2_000, directory);
        }
    }

    /**
     * What the run saw: its disagreements, the logons per session, each failover's time, each node's journal (its
     * records as {@code journal-dump} prints them, less the Chronicle index, which a rebuilt node's differs in).
     */
    record Result(List<Disagreement> disagreements, Map<String, Integer> logons, List<Long> failoverMillis,
                  List<Long> pauseMillis, List<List<String>> journals, List<TraderLog> logs, int fills,
                  int gatewayKills) {

        int requests(Request.Kind kind) {
            return TraderLog.total(logs, log -> log.requestCount(kind));
        }
    }

    private ClusterCrashRun() {
    }

    static Result run(Settings settings) throws Exception {
        SplittableRandom random = new SplittableRandom(settings.seed());
        List<Long> failovers = new ArrayList<>();
        List<Long> disruptedAt = new ArrayList<>();
        try (ClusterVenue venue = new ClusterVenue(settings.directory().resolve("venue"), 3, settings.sessions(),
            settings.symbols(), List.of())) {
            if (settings.needsNodeDisks()) {
                venue.mountNodeDisks(NODE_DISK_MEGABYTES);
            }
            venue.startNodes();
            ClusterVenue.Gateway gateway = venue.gateway(1, List.of());
            gateway.start();
            Traders traders = new Traders(settings.sessions(), gateway.fixPort,
                settings.directory().resolve("clients"));
            Map<String, Integer> logons;
            try {
                traders.start();
                traders.awaitLogons(1, TIMEOUT);
                traders.startLoad(settings.symbols(), settings.seed(), settings.ratePerSession());
                int gatewayStarts = 1;
                for (Disruption disruption : settings.disruptions()) {
                    TimeUnit.MILLISECONDS.sleep(random.nextLong(settings.minLoadMillis(),
                        settings.maxLoadMillis() + 1L));
                    disruptedAt.add(System.nanoTime());
                    if (disruption == Disruption.KILL_GATEWAY) {
                        failovers.add(0L); // no node fails over
                        gateway.kill();
                        traders.pauseLoad();
                        gateway.start();
                        traders.awaitLogons(++gatewayStarts, TIMEOUT);
                        traders.awaitQuiet(TIMEOUT);
                        traders.resumeLoad();
                    } else {
                        failovers.add(disrupt(venue, disruption, random));
                    }
                }
                TimeUnit.MILLISECONDS.sleep(settings.minLoadMillis());
                traders.stopLoad();
                traders.awaitQuiet(TIMEOUT);
                int requests = TraderLog.total(traders.logs(), log -> log.requests().size());
                traders.queryStatus(TIMEOUT.plusSeconds(requests / 1_000));
                traders.finish();
                logons = traders.logons();
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\ngateway output:\n" + tail(venue.output(gateway.process)),
                    e);
            } finally {
                traders.close();
            }
            List<Disagreement> disagreements = CrashChecker.check(traders.logs());
            venue.awaitNodesCaughtUp(TIMEOUT);
            gateway.stop();
            venue.stopNodes();
            List<List<String>> journals = new ArrayList<>();
            for (int id = 0; id < 3; id++) {
                journals.add(records(venue.nodeData(id).resolve("journal")));
            }
            int fills = TraderLog.total(traders.logs(),
                log -> (int) log.reports().stream().filter(Report::isFill).count());
            int gatewayKills = (int) settings.disruptions().stream().filter(d -> d == Disruption.KILL_GATEWAY).count();
            return new Result(disagreements, logons, failovers, pauses(traders.logs(), disruptedAt), journals,
                traders.logs(), fills, gatewayKills);
        }
    }

    /**
     * Disrupts one node and puts it back; returns the milliseconds until another node led (the failover), or 0 when
     * the leader was not the one disrupted.
     */
    private static long disrupt(ClusterVenue venue, Disruption disruption, SplittableRandom random)
        throws Exception {
        int leader = venue.awaitLeader(-1, TIMEOUT);
        long start = System.nanoTime();
        switch (disruption) {
            case KILL_LEADER -> {
                venue.kill(leader);
                venue.awaitLeader(leader, TIMEOUT);
                long millis = (System.nanoTime() - start) / 1_000_000;
                venue.startNode(leader); // back on its own disk, as a follower that catches up
                return millis;
            }
            case FREEZE_LEADER -> {
                venue.signal(leader, "STOP");
                venue.awaitLeader(leader, TIMEOUT);
                long millis = (System.nanoTime() - start) / 1_000_000;
                TimeUnit.MILLISECONDS.sleep(500 + random.nextInt(1_000));
                venue.signal(leader, "CONT"); // it finds a newer term and steps down
                return millis;
            }
            case KILL_FOLLOWER, REBUILD_FOLLOWER -> {
                int follower = (leader + 1 + random.nextInt(2)) % 3;
                // A snapshot first in both: the follower restarted on its disk starts from a snapshot of the current
                // term, whose leader event lies before it in the log.
                snapshotTakenBy(venue, follower);
                venue.kill(follower);
                TimeUnit.MILLISECONDS.sleep(500);
                if (disruption == Disruption.KILL_FOLLOWER) {
                    venue.startNode(follower);
                    return 0;
                }
                ClusterVenue.deleteTree(venue.nodeData(follower));
                venue.startNodeFromSnapshot(follower);
                String output = venue.output(venue.node(follower));
                if (!output.contains("copied the snapshot at log position")
                    || !output.contains("restored the cluster's snapshot")) {
                    throw new AssertionError("node " + follower + " on an empty disk did not start from the"
                        + " cluster's snapshot; its output:\n" + tail(output));
                }
                return 0;
            }
            case FILL_LEADER_DISK -> {
                Path filler = venue.fillDisk(leader, FULL_DISK_FREE_MEGABYTES);
                if (!venue.node(leader).waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    throw new AssertionError("node " + leader + " went on with a full disk");
                }
                String output = venue.output(venue.node(leader));
                if (venue.node(leader).exitValue() != 3 || !output.contains("journal append failed")) {
                    throw new AssertionError("node " + leader + " stopped with exit " + venue.node(leader).exitValue()
                        + " on a full disk; its output:\n" + tail(output));
                }
                venue.awaitLeader(leader, TIMEOUT);
                long millis = (System.nanoTime() - start) / 1_000_000;
                java.nio.file.Files.delete(filler);
                venue.startNode(leader);
                return millis;
            }
            case KILL_ALL_NODES -> {
                for (int id = 0; id < 3; id++) {
                    venue.kill(id);
                }
                venue.startNodes();
                venue.awaitLeader(-1, TIMEOUT);
                return (System.nanoTime() - start) / 1_000_000;
            }
            case ROLLING_RESTART -> {
                return rollingRestart(venue, leader);
            }
            default -> throw new IllegalArgumentException(disruption.name());
        }
    }

    /** {@link Disruption#ROLLING_RESTART}; returns the milliseconds from the leader's stop until another led. */
    private static long rollingRestart(ClusterVenue venue, int leader) throws Exception {
        List<Integer> order = new ArrayList<>();
        for (int id = 0; id < 3; id++) {
            if (id != leader) {
                order.add(id);
            }
        }
        order.add(leader);
        long failover = 0;
        for (int id : order) {
            snapshotTakenBy(venue, id); // as ops would: the restarted node replays only the log after it
            long stopped = System.nanoTime();
            int exit = venue.stop(id);
            if (exit != 0) {
                throw new AssertionError("node " + id + " stopped with exit " + exit + " on SIGTERM; its output:\n"
                    + tail(venue.output(venue.node(id))));
            }
            if (id == leader) {
                venue.awaitLeader(leader, TIMEOUT);
                failover = (System.nanoTime() - stopped) / 1_000_000;
            }
            venue.startNode(id);
            awaitCaughtUp(venue, id);
        }
        for (int id = 0; id < 3; id++) {
            Map<String, Object> node = venue.describe(id);
            if (number(node, "protocolVersion") != ProtocolVersion.CURRENT
                || number(node, "termProtocolVersion") != ProtocolVersion.CURRENT) {
                throw new AssertionError("node " + id + " after the rolling restart: " + node);
            }
        }
        return failover;
    }

    /** Waits until node {@code id} has applied what the leader had committed when it asked (GET /cluster). */
    private static void awaitCaughtUp(ClusterVenue venue, int id) throws Exception {
        long committed = number(venue.describe(venue.awaitLeader(-1, TIMEOUT)), "commitPosition");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (number(venue.describe(id), "logPosition") < committed) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("node " + id + " did not catch up with log position " + committed + " within "
                    + TIMEOUT + ": " + venue.describe(id));
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /** A number GET /cluster gives for a node; -1 if it gives none. */
    private static long number(Map<String, Object> node, String key) {
        return node.get(key) instanceof Number number ? number.longValue() : -1;
    }

    /**
     * For each disruption, the longest pause in the clients' reports (all sessions together) from the disruption on
     * (the next 15 s, or until the next disruption): how long trading stopped, as the clients saw it (at 1,000 requests/s a report comes every
     * millisecond or so).
     */
    static List<Long> pauses(List<TraderLog> logs, List<Long> disruptedAt) {
        long[] arrivals = logs.stream().flatMapToLong(log -> java.util.Arrays.stream(log.reportArrivals())).sorted()
            .toArray();
        List<Long> pauses = new ArrayList<>();
        for (int i = 0; i < disruptedAt.size(); i++) {
            long at = disruptedAt.get(i);
            long end = Math.min(at + TimeUnit.SECONDS.toNanos(15),
                i + 1 < disruptedAt.size() ? disruptedAt.get(i + 1) : Long.MAX_VALUE);
            long previous = at;
            long longest = 0;
            for (long arrival : arrivals) {
                if (arrival <= at) {
                    continue;
                }
                if (arrival > end) {
                    break;
                }
                longest = Math.max(longest, arrival - previous);
                previous = arrival;
            }
            pauses.add(TimeUnit.NANOSECONDS.toMillis(longest));
        }
        return pauses;
    }

    /**
     * A node's journal's command records as {@code journal-dump} prints them (JSON), without their Chronicle index (a
     * node rebuilt from the others' snapshot starts its journal there, so its indexes differ).
     */
    static List<String> records(Path journal) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            JournalDump.dump(journal, JournalDump.Format.JSON, owner -> "owner-" + owner, out);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().filter(line -> line.startsWith("{\"index\""))
            .map(line -> line.replaceFirst("^\\{\"index\":\\d+,", "{")).toList();
    }

    private static String tail(String output) {
        String[] lines = output.split("\n");
        return String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 40), lines.length));
    }

    /** Asks the leader for a snapshot and waits until this node has taken it. */
    private static void snapshotTakenBy(ClusterVenue venue, int node) throws Exception {
        long before = snapshots(venue, node);
        if (before < 0) {
            throw new AssertionError("node " + node + " does not answer on its admin endpoint");
        }
        if (!venue.requestSnapshot()) {
            throw new AssertionError("the leader took no snapshot request");
        }
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (snapshots(venue, node) <= before) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("node " + node + " took no snapshot within " + TIMEOUT);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private static long snapshots(ClusterVenue venue, int node) {
        Object value = venue.describe(node).get("snapshots");
        return value instanceof Number number ? number.longValue() : -1;
    }

}
