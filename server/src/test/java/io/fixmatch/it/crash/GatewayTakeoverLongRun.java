package io.fixmatch.it.crash;

import io.fixmatch.it.crash.GatewayTakeoverRun.Disruption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The long gateway-loss run (issue #30), outside CI (its name matches none of surefire's test patterns, and it runs
 * only when {@code fixmatch.takeover.cycles} is set):
 * <pre>
 * mvn -B -ntp -pl server -am test -Dtest=GatewayTakeoverLongRun -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dfixmatch.takeover.cycles=20 [-Dfixmatch.takeover.seed=30] [-Dfixmatch.takeover.rate=750] \
 *     [-Dfixmatch.takeover.disruptions=KILL_GATEWAY_AND_DISK,KILL_GATEWAY_AND_LEADER] \
 *     [-Dfixmatch.takeover.gatewayTimeoutMs=2000]
 * </pre>
 * The disruptions are taken in turn, cycle after cycle; the rate is per session (four sessions). Its folder,
 * {@code server/target/gateway-takeover/seed-SEED/}, is kept; {@code report.txt} there has the clients' pause at each
 * move (p50 and worst) and every disagreement. Fails on any disagreement, a missing or doubled drop copy, or a session
 * that did not log on once per move.
 */
@EnabledIfSystemProperty(named = "fixmatch.takeover.cycles", matches = "\\d+")
class GatewayTakeoverLongRun {

    @Test
    void gatewaysLostManyTimesUnderLoad() throws Exception {
        long seed = Long.getLong("fixmatch.takeover.seed", 30);
        int cycles = Integer.getInteger("fixmatch.takeover.cycles");
        int rate = Integer.getInteger("fixmatch.takeover.rate", 750);
        long gatewayTimeoutMs = Long.getLong("fixmatch.takeover.gatewayTimeoutMs", 0);
        List<Disruption> kinds = Arrays.stream(System.getProperty("fixmatch.takeover.disruptions",
            "KILL_GATEWAY_AND_DISK").split(",")).map(Disruption::valueOf).toList();
        List<Disruption> disruptions = new ArrayList<>();
        for (int i = 0; i < cycles; i++) {
            disruptions.add(kinds.get(i % kinds.size()));
        }
        Path directory = Path.of("target", "gateway-takeover", "seed-" + seed).toAbsolutePath();
        if (Files.exists(directory)) {
            try (var files = Files.walk(directory)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        GatewayTakeoverRun.Settings standard = GatewayTakeoverRun.Settings.standard(seed, disruptions, directory);
        GatewayTakeoverRun.Result result = GatewayTakeoverRun.run(new GatewayTakeoverRun.Settings(seed, disruptions,
            standard.sessions(), standard.symbols(), rate, standard.minLoadMillis(), standard.maxLoadMillis(),
            directory, gatewayTimeoutMs));
        List<Long> pauses = new ArrayList<>(result.pauseMillis());
        pauses.sort(Long::compare);
        StringBuilder report = new StringBuilder();
        report.append("cycles ").append(cycles).append(", seed ").append(seed).append(", ").append(4 * rate)
            .append(" requests/s, cluster.gatewayTimeoutMs ")
            .append(gatewayTimeoutMs > 0 ? String.valueOf(gatewayTimeoutMs) : "default").append(", fills ").append(result.fills()).append(", new orders ")
            .append(result.requests(Request.Kind.NEW_ORDER)).append(", takeovers ").append(result.takeovers())
            .append('\n');
        report.append("clients' longest pause after each gateway loss (ms): p50 ")
            .append(pauses.isEmpty() ? 0 : pauses.get(pauses.size() / 2)).append(", worst ")
            .append(pauses.isEmpty() ? 0 : pauses.get(pauses.size() - 1)).append(", all ").append(result.pauseMillis())
            .append('\n');
        report.append("logons ").append(result.logons()).append('\n');
        report.append("drop copies checked ").append(result.copied()).append(", differences ")
            .append(result.copyDifferences()).append('\n');
        report.append("disagreements ").append(result.disagreements().size()).append('\n');
        result.disagreements().forEach(disagreement -> report.append("  ").append(disagreement).append('\n'));
        Files.writeString(directory.resolve("report.txt"), report.toString());
        System.out.print(report);
        GatewayTakeoverTest.assertConsistent(result, cycles);
        assertEquals(List.of(), result.copyDifferences());
    }
}
