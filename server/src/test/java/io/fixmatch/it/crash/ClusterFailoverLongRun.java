package io.fixmatch.it.crash;

import io.fixmatch.it.crash.ClusterCrashRun.Disruption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The long failover run of the replicated venue, outside CI (its name matches none of surefire's test patterns, and
 * it runs only when {@code fixmatch.cluster.cycles} is set):
 * <pre>
 * mvn -B -ntp -pl server -am test -Dtest=ClusterFailoverLongRun -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dfixmatch.cluster.cycles=100 [-Dfixmatch.cluster.seed=22] \
 *     [-Dfixmatch.cluster.disruptions=KILL_LEADER,FREEZE_LEADER,KILL_FOLLOWER,REBUILD_FOLLOWER,KILL_ALL_NODES,KILL_GATEWAY]
 * </pre>
 * The disruptions are taken in turn, cycle after cycle. Its folder, {@code server/target/cluster-failover/seed-SEED/}
 * (every process's output and data, the clients' stores), is kept; {@code report.txt} there has each disruption's
 * failover time (until another node led) and the clients' longest pause, p50 and worst per kind, and every
 * disagreement. Fails on any disagreement, dropped FIX session or journal difference.
 */
@EnabledIfSystemProperty(named = "fixmatch.cluster.cycles", matches = "\\d+")
class ClusterFailoverLongRun {

    @Test
    void disruptedManyTimesUnderLoad() throws Exception {
        long seed = Long.getLong("fixmatch.cluster.seed", 22);
        int cycles = Integer.getInteger("fixmatch.cluster.cycles");
        List<Disruption> kinds = Arrays.stream(System.getProperty("fixmatch.cluster.disruptions", "KILL_LEADER")
            .split(",")).map(Disruption::valueOf).toList();
        List<Disruption> disruptions = new ArrayList<>();
        for (int i = 0; i < cycles; i++) {
            disruptions.add(kinds.get(i % kinds.size()));
        }
        Path directory = Path.of("target", "cluster-failover", "seed-" + seed).toAbsolutePath();
        if (Files.exists(directory)) {
            try (var files = Files.walk(directory)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        ClusterCrashRun.Result result = ClusterCrashRun.run(ClusterCrashRun.Settings.standard(seed, disruptions,
            directory));
        StringBuilder report = new StringBuilder();
        report.append("cycles ").append(cycles).append(", seed ").append(seed).append(", fills ").append(result.fills())
            .append(", new orders ").append(result.requests(Request.Kind.NEW_ORDER)).append('\n');
        for (Disruption kind : kinds) {
            List<Long> failovers = new ArrayList<>();
            List<Long> pauses = new ArrayList<>();
            for (int i = 0; i < disruptions.size(); i++) {
                if (disruptions.get(i) == kind) {
                    if (i < result.failoverMillis().size()) {
                        failovers.add(result.failoverMillis().get(i));
                    }
                    pauses.add(result.pauseMillis().get(i));
                }
            }
            report.append(kind).append(": ").append(pauses.size()).append(" times; failover (ms) ")
                .append(summary(failovers)).append("; clients' longest pause (ms) ").append(summary(pauses))
                .append('\n');
        }
        report.append("logons ").append(result.logons()).append('\n');
        report.append("disagreements ").append(result.disagreements().size()).append('\n');
        result.disagreements().forEach(disagreement -> report.append("  ").append(disagreement).append('\n'));
        Files.writeString(directory.resolve("report.txt"), report, StandardCharsets.UTF_8);
        System.out.println(report);
        assertEquals(List.of(), result.disagreements());
        ClusterFailoverTest.assertSameRecords(result.journals());
    }

    private static String summary(List<Long> values) {
        List<Long> sorted = values.stream().filter(v -> v > 0).sorted().collect(Collectors.toList());
        if (sorted.isEmpty()) {
            return "-";
        }
        return "p50 " + sorted.get(sorted.size() / 2) + ", worst " + sorted.get(sorted.size() - 1) + " (of "
            + sorted.size() + ")";
    }
}
