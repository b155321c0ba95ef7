package io.fixmatch.it.crash;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The long crash-consistency run, outside CI (its name matches none of surefire's test patterns, and it runs only
 * when {@code fixmatch.crash.cycles} is set):
 * <pre>
 * nice -n 15 mvn -B -ntp -pl server -am test -Dtest=CrashConsistencyLongRun -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dfixmatch.crash.cycles=100 [-Dfixmatch.crash.seed=14] [-Dfixmatch.crash.rate=500] \
 *     [-Dfixmatch.crash.sessions=CLIENT1,CLIENT2,CLIENT3,CLIENT4] [-Dfixmatch.crash.loadMillis=1000..3000] \
 *     [-Dfixmatch.crash.cleanStops=true] [-Dfixmatch.crash.layout=two-threads]
 * </pre>
 * ({@code cleanStops} stops the server with SIGTERM instead of SIGKILL.) Its folder, {@code server/target/crash-consistency/seed-SEED/} (server logs and data, the clients' QuickFIX/J
 * stores), is kept for diagnosis; {@code report.txt} there lists every disagreement, with what the server's journal
 * holds for its ClOrdID. Fails if there is any disagreement.
 */
@EnabledIfSystemProperty(named = "fixmatch.crash.cycles", matches = "\\d+")
class CrashConsistencyLongRun {

    @Test
    void killedAtRandomMomentsManyTimesUnderLoad() throws Exception {
        long seed = Long.getLong("fixmatch.crash.seed", 14);
        Path directory = Path.of("target", "crash-consistency", "seed-" + seed).toAbsolutePath();
        deleteRecursively(directory);
        CrashRun.Settings settings = CrashRun.Settings.standard(seed, Integer.getInteger("fixmatch.crash.cycles"),
            directory).withRate(Integer.getInteger("fixmatch.crash.rate", 500));
        String sessions = System.getProperty("fixmatch.crash.sessions");
        if (sessions != null) {
            settings = settings.withSessions(List.of(sessions.split(",")));
        }
        String loadMillis = System.getProperty("fixmatch.crash.loadMillis");
        if (loadMillis != null) {
            int[] range = Arrays.stream(loadMillis.split("\\.\\.")).mapToInt(Integer::parseInt).toArray();
            settings = settings.withLoadMillis(range[0], range[1]);
        }
        if (Boolean.getBoolean("fixmatch.crash.cleanStops")) {
            settings = settings.withCleanStops();
        }
        CrashRunReport report = CrashRun.run(settings);
        String text = report.text(Integer.MAX_VALUE);
        Files.writeString(directory.resolve("report.txt"), text, StandardCharsets.UTF_8);
        System.out.println(report.text(10));
        System.out.println("full report: " + directory.resolve("report.txt"));
        assertEquals(List.of(), report.disagreements(), report.text(10));
    }

    private static void deleteRecursively(Path directory) throws java.io.IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
