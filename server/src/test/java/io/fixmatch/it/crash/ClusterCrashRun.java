package io.fixmatch.it.crash;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.cluster.protocol.ProtocolVersion;
import io.fixmatch.journal.JournalDump;
import io.fixmatch.server.WaitBounds;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The crash-consistency run against the replicated venue: QuickFIX/J traders with file stores trade through a gateway
 * while a node is disrupted at seeded random moments (the leader killed or frozen, a follower killed), then put back;
 * trading goes on throughout. Afterwards every ClOrdID's last report must agree with the venue's status answer, no
 * ExecID may carry two contents, fills must balance ({@link CrashChecker}), no FIX session may have dropped, every
 * node's book must be the leader's and every node's journal must hold the same records.
 *
 * <p>The cluster's timers are in the flow ({@link Settings#timers}), so that their work is among what the nodes must
 * agree on, stamped with the log's time: GTD orders expiring 1 to 3 s after their entry, volatility calls on the last
 * symbol ended by the timer, the end of the trading day during the run, and, while a follower is down, a halt's
 * reopening call on the first symbol ended by the timer and GTD expiries, which the follower must then replay as the
 * others applied them.
 */
final class ClusterCrashRun {
    private static final Duration TIMEOUT = WaitBounds.CLUSTER;
    /** Room for a run's log, journal and snapshots; a filled disk keeps less than the journal's 64 MB headroom. */
    private static final int NODE_DISK_MEGABYTES = 512;
    private static final int FULL_DISK_FREE_MEGABYTES = 16;
    /** With timers: the share of new orders good till a time 1 to 3 s ahead. */
    private static final int GTD_PERCENT = 10;
    /**
     * With timers: how long after the venue's configuration is written the trading day ends (at the first start; each
     * start too slow for it doubles it). The flow goes on until then (the long runs last longer anyway). 20 s: the
     * default run (the venue started, the leader killed and back) takes about as long on this 2-core machine, so the
     * day ends around the disruption, before it or after it on a busier machine: either is the flow's.
     */
    private static final Duration END_OF_DAY_LEAD = Duration.ofSeconds(20);
    private static final int START_ATTEMPTS = 3;
    /** What a node logs when the cluster's end-of-day timer fires (MatchingService). */
    private static final String END_OF_DAY_LINE = "end of the trading day: day orders expire";

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

    /**
     * @param disruptions one per cycle, in order
     * @param timers      the cluster's timers in the flow: GTD orders, volatility calls on the last symbol, the end of
     *                    the day during the run; a halt's reopening call on the first symbol while a follower is down
     */
    record Settings(long seed, List<Disruption> disruptions, List<String> sessions, List<String> symbols,
                    int ratePerSession, int minLoadMillis, int maxLoadMillis, Path directory, boolean timers) {

        /** Whether a disruption needs each node on a disk of its own. */
        boolean needsNodeDisks() {
            return disruptions.contains(Disruption.FILL_LEADER_DISK);
        }

        /**
         * Four sessions, two symbols, 250 requests/s a session (1,000/s in all), a disruption after 1 to 2 s, the
         * timers in the flow.
         */
        static Settings standard(long seed, List<Disruption> disruptions, Path directory) {
            return new Settings(seed, disruptions, List.of("CLIENT1", "CLIENT2", "CLIENT3", "CLIENT4"),
                List.of("AAPL", "MSFT"), 250, 1_000, 2_000, directory, true);
        }

        Settings withRatePerSession(int rate) {
            return new Settings(seed, disruptions, sessions, symbols, rate, minLoadMillis, maxLoadMillis, directory,
                timers);
        }

        /** The symbol a halt reopens with a call while a follower is down (no volatility band: it stays reopened). */
        String reopeningSymbol() {
            return symbols.get(0);
        }

        /** The symbol whose volatility band starts calls in the flow. */
        String bandSymbol() {
            return symbols.get(symbols.size() - 1);
        }
    }

    /**
     * What the run saw: its disagreements, the logons per session, each failover's time, each node's journal (its
     * records as {@code journal-dump} prints them, less the Chronicle index, which a rebuilt node's differs in), whether
     * the timers were in the flow.
     */
    record Result(List<Disagreement> disagreements, Map<String, Integer> logons, List<Long> failoverMillis,
                  List<Long> pauseMillis, List<List<String>> journals, List<TraderLog> logs, int fills,
                  int gatewayKills, boolean timers) {

        int requests(Request.Kind kind) {
            return TraderLog.total(logs, log -> log.requestCount(kind));
        }
    }

    private ClusterCrashRun() {
    }

    static Result run(Settings settings) throws Exception {
        return run(settings, RunObserver.NONE);
    }

    /** The run, with {@code observer} told of its moments (its checks may fail the run). */
    static Result run(Settings settings, RunObserver observer) throws Exception {
        SplittableRandom random = new SplittableRandom(settings.seed());
        List<Long> failovers = new ArrayList<>();
        List<Long> disruptedAt = new ArrayList<>();
        try (ClusterVenue venue = new ClusterVenue(settings.directory().resolve("venue"), 3, settings.sessions(),
            settings.symbols(), List.of())) {
            if (settings.needsNodeDisks()) {
                venue.mountNodeDisks(NODE_DISK_MEGABYTES);
            }
            ClusterVenue.Gateway gateway = venue.gateway(1, List.of());
            observer.gatewayMade(gateway);
            Instant endOfDay = start(venue, gateway, settings);
            Traders traders = new Traders(settings.sessions(), gateway.fixPort,
                settings.directory().resolve("clients"));
            Map<String, Integer> logons;
            long stoppedAt;
            try {
                traders.start();
                traders.awaitLogons(1, TIMEOUT);
                traders.startLoad(settings.symbols(), settings.seed(), settings.ratePerSession(),
                    settings.timers() ? GTD_PERCENT : 0);
                observer.flowStarted(venue);
                FollowerDown whileDown = settings.timers()
                    ? () -> timersAtWork(venue, gateway, traders, settings) : () -> { };
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
                        observer.disrupting();
                        failovers.add(disrupt(venue, disruption, random, whileDown));
                        observer.disrupted();
                    }
                }
                TimeUnit.MILLISECONDS.sleep(settings.minLoadMillis());
                if (endOfDay != null) {
                    awaitEndOfDay(venue, endOfDay); // the flow goes on until the day has ended
                }
                traders.stopLoad();
                stoppedAt = System.nanoTime();
                traders.awaitQuiet(TIMEOUT);
                int requests = TraderLog.total(traders.logs(), log -> log.requests().size());
                traders.queryStatus(TIMEOUT.plusSeconds(requests / 1_000));
                traders.finish();
                logons = traders.logons();
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\ngateway output:\n"
                    + OutputTail.of(venue.output(gateway.process), 40), e);
            } finally {
                traders.close();
            }
            List<Disagreement> disagreements = CrashChecker.check(traders.logs());
            venue.awaitNodesCaughtUp(TIMEOUT);
            awaitSameBooks(venue, settings.symbols());
            observer.flowEnded(venue, stoppedAt);
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
                traders.logs(), fills, gatewayKills, settings.timers());
        }
    }

    /**
     * Starts the nodes and the gateway; with timers, the trading day's end configured {@link #END_OF_DAY_LEAD} ahead
     * first. The cluster schedules the day's end at its log's first message (the gateway's HELLO, applied before the
     * gateway is ready): a start so slow (a machine loaded far past its cores) that the gateway came up after that time
     * would put the day's end tomorrow, so the venue is then wiped and started again with twice the lead. Returns the
     * day's end, null without timers.
     */
    private static Instant start(ClusterVenue venue, ClusterVenue.Gateway gateway, Settings settings)
        throws Exception {
        Duration lead = END_OF_DAY_LEAD;
        for (int attempt = 1; ; attempt++) {
            Instant endOfDay = settings.timers() ? Instant.now().plus(lead).truncatedTo(ChronoUnit.SECONDS) : null;
            venue.configure(endOfDay == null ? List.of() : timerLines(endOfDay, settings));
            venue.startNodes();
            venue.startGateways(gateway);
            if (endOfDay == null || Instant.now().isBefore(endOfDay)) {
                return endOfDay;
            }
            if (attempt == START_ATTEMPTS) {
                throw new AssertionError(START_ATTEMPTS + " times the venue took longer to start than the day's end"
                    + " ahead of it (the last time " + lead + ")");
            }
            gateway.kill();
            for (int id = 0; id < 3; id++) {
                venue.kill(id);
                ClusterVenue.deleteTree(venue.nodeData(id));
            }
            ClusterVenue.deleteTree(gateway.data);
            lead = lead.multipliedBy(2);
        }
    }

    /**
     * The configuration that puts the cluster's timers in the flow: the day ends at {@code endOfDay} (whole seconds:
     * {@code engine.endOfDay} takes hours and minutes, so the zone is the offset that puts that instant on a whole
     * minute, {@code -00:00:SS}); the first symbol reopens a halt with a 1 s call; the last symbol's volatility band
     * starts a 1 s call wherever its price would move more than 0.03% (3 cents at 100.00) from the last trade.
     */
    static List<String> timerLines(Instant endOfDay, Settings settings) {
        ZoneOffset zone = ZoneOffset.ofTotalSeconds(-endOfDay.atOffset(ZoneOffset.UTC).getSecond());
        return List.of(
            "engine.endOfDay=" + endOfDay.atOffset(zone).toLocalTime().format(DateTimeFormatter.ofPattern("HH:mm")),
            "engine.timeZone=" + zone.getId(),
            "engine.auctionGroups=REOPENING,BAND",
            "auctionGroup.REOPENING.symbols=" + settings.reopeningSymbol(),
            "auctionGroup.REOPENING.interruptionSeconds=1",
            "auctionGroup.REOPENING.timeZone=UTC",
            "auctionGroup.BAND.symbols=" + settings.bandSymbol(),
            "auctionGroup.BAND.volatilityBand=0.03%",
            "auctionGroup.BAND.interruptionSeconds=1",
            "auctionGroup.BAND.timeZone=UTC");
    }

    /** Waits until the day has ended: its time passed and a node says the cluster's end-of-day timer fired. */
    private static void awaitEndOfDay(ClusterVenue venue, Instant endOfDay) throws Exception {
        long early = Duration.between(Instant.now(), endOfDay).toMillis();
        if (early > 0) {
            TimeUnit.MILLISECONDS.sleep(early); // the day's end is a time: nothing to see before it
        }
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            for (int id = 0; id < 3; id++) {
                if (venue.output(venue.node(id)).contains(END_OF_DAY_LINE)) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no node said \"" + END_OF_DAY_LINE + "\" within " + TIMEOUT + " after "
                    + endOfDay);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    /** What the cluster does while a follower is down. */
    private interface FollowerDown {
        void meanwhile() throws Exception;
    }

    /**
     * The cluster's timers at work: a halt of the reopening symbol and its resume, which starts a 1 s reopening call;
     * then waits until that call has uncrossed at its end by the cluster's timer (the symbol trading continuously again
     * at the leader), an order expired (a GTD order at its time; the day's orders, at its end) and the band symbol was
     * seen in a volatility call (which the timer ends 1 s after it began).
     */
    private static void timersAtWork(ClusterVenue venue, ClusterVenue.Gateway gateway, Traders traders,
                                     Settings settings) throws Exception {
        String symbol = settings.reopeningSymbol();
        long expiredBefore = expiries(traders.logs());
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        for (String action : List.of("halt", "resume")) {
            // 504: the cluster has not applied it within the gateway's 5 s (a loaded machine); asked again, it is
            // applied once (a halt of a halted symbol, a resume of a trading one, changes nothing)
            int status;
            while ((status = gateway.post("/symbols/" + symbol + "/" + action)) != 200) {
                if (status != 504 || System.nanoTime() > deadline) {
                    throw new AssertionError("the gateway answered the " + action + " of " + symbol + " with "
                        + status);
                }
            }
        }
        boolean reopened = false;
        boolean bandCall = false;
        boolean expired = false;
        while (!(reopened && bandCall && expired)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("within " + TIMEOUT + " of its resume: " + symbol + "'s reopening call"
                    + (reopened ? "" : " not") + " uncrossed, " + settings.bandSymbol() + (bandCall ? "" : " not")
                    + " seen in a volatility call, " + (expiries(traders.logs()) - expiredBefore) + " orders expired");
            }
            TimeUnit.MILLISECONDS.sleep(50);
            int leader = venue.awaitLeader(-1, TIMEOUT);
            reopened |= "CONTINUOUS".equals(venue.book(leader, symbol).path("phase").asText());
            bandCall |= "VOLATILITY_CALL".equals(venue.book(leader, settings.bandSymbol()).path("phase").asText());
            expired = expiries(traders.logs()) > expiredBefore;
        }
    }

    /** The expiries (ExecType C) the clients were told of: GTD orders at their times, DAY orders at the day's end. */
    private static long expiries(List<TraderLog> logs) {
        return logs.stream().mapToLong(log -> log.reports().stream().filter(report -> report.execType() == 'C')
            .count()).sum();
    }

    /**
     * Waits until every node's book of each symbol (its admin {@code /book}: phase, halt, indicative uncross, levels)
     * is the leader's, read while no node applies anything (every node at the same command count before and after
     * the reads: a timer may still fire).
     */
    private static void awaitSameBooks(ClusterVenue venue, List<String> symbols) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            List<Object> before = commandCounts(venue);
            List<List<JsonNode>> books = new ArrayList<>();
            for (int id = 0; id < 3; id++) {
                List<JsonNode> nodeBooks = new ArrayList<>();
                for (String symbol : symbols) {
                    nodeBooks.add(venue.book(id, symbol));
                }
                books.add(nodeBooks);
            }
            if (before.equals(commandCounts(venue)) && before.stream().distinct().count() == 1) {
                int leader = venue.awaitLeader(-1, TIMEOUT);
                for (int id = 0; id < 3; id++) {
                    if (!books.get(id).equals(books.get(leader))) {
                        throw new AssertionError("node " + id + "'s books are not the leader's (node " + leader
                            + "), both at command " + before.get(0) + ":\n" + books.get(id) + "\n" + books.get(leader));
                    }
                }
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the nodes never stood still at one command to compare their books: "
                    + before);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private static List<Object> commandCounts(ClusterVenue venue) {
        List<Object> counts = new ArrayList<>();
        for (int id = 0; id < 3; id++) {
            counts.add(venue.describe(id).get("commands"));
        }
        return counts;
    }

    /**
     * Disrupts one node and puts it back; returns the milliseconds until another node led (the failover), or 0 when
     * the leader was not the one disrupted.
     */
    private static long disrupt(ClusterVenue venue, Disruption disruption, SplittableRandom random,
                                FollowerDown whileFollowerDown) throws Exception {
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
                whileFollowerDown.meanwhile(); // the follower must come to what the others did by their timers
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
                        + " cluster's snapshot; its output:\n" + OutputTail.of(output, 40));
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
                        + " on a full disk; its output:\n" + OutputTail.of(output, 40));
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
                    + OutputTail.of(venue.output(venue.node(id)), 40));
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
     * (the gaps that begin in the next 15 s, or before the next disruption): how long trading stopped, as the clients
     * saw it (at 1,000 requests/s a report comes every millisecond or so). A gap still open at the window's end counts
     * whole (until the first report after it): a move with no report in the window was reported as a pause of 0.
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
                longest = Math.max(longest, arrival - previous);
                previous = arrival;
                if (arrival > end) {
                    break; // it closed the gap that was open at the window's end (none in it at all: the whole wait)
                }
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
