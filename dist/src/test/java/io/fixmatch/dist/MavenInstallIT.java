package io.fixmatch.dist;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mvn install} from a fresh clone ({@link CleanClone}): every module, the parent pom and the archive installed
 * into a local repository of the test's own (so no other build sees these snapshots), tests skipped (they are this
 * build's own). Nothing is downloaded that the user's builds fetched already.
 */
class MavenInstallIT {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void mvnInstallFromACleanCloneInstallsEveryModuleAndTheArchive() throws Exception {
        Path clone = CleanClone.of(dir.resolve("clone"));
        Path repository = CleanClone.localRepository(dir.resolve("repository"));
        Path log = dir.resolve("maven.log");
        Process maven = new ProcessBuilder("mvn", "-B", "-ntp", "-q", "-Dmaven.repo.local=" + repository,
            "-DskipTests", "install").directory(clone.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        assertTrue(maven.waitFor(9, TimeUnit.MINUTES), "mvn install still running: " + tail(log));
        assertEquals(0, maven.exitValue(), "mvn install failed: " + tail(log));

        Path installed = repository.resolve("io/fixmatch");
        for (String module : List.of("fix-testing", "cluster-testing", "fix-codec", "engine", "journal", "cluster",
            "fix-gateway", "loadgen", "server", "client", "benchmarks")) {
            String artifact = "fixmatch-" + module;
            assertTrue(Files.isRegularFile(installed.resolve(artifact + "/0.1.0-SNAPSHOT/" + artifact
                + "-0.1.0-SNAPSHOT.jar")), artifact);
        }
        assertTrue(Files.isRegularFile(installed.resolve("fixmatch-dist/0.1.0-SNAPSHOT/"
            + "fixmatch-dist-0.1.0-SNAPSHOT.tar.gz")), "the distribution archive");
        assertTrue(Files.isRegularFile(installed.resolve("fixmatch-parent/0.1.0-SNAPSHOT/"
            + "fixmatch-parent-0.1.0-SNAPSHOT.pom")), "the parent pom");
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
