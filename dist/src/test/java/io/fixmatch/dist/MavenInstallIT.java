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
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mvn install} from a clean clone: the repository's tracked files copied into an empty folder, built and
 * installed there (tests skipped: they are this build's own). It installs into a local repository of its own, so
 * no other build sees these snapshots: every group of the user's local repository but {@code io.fixmatch} is linked
 * into it, so nothing is downloaded again.
 */
class MavenInstallIT {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void mvnInstallFromACleanCloneInstallsEveryModuleAndTheArchive() throws Exception {
        Path clone = copyTrackedFiles(Files.createDirectories(dir.resolve("clone")));
        Path repository = linkedLocalRepository(Files.createDirectories(dir.resolve("repository")));
        Path log = dir.resolve("maven.log");
        Process maven = new ProcessBuilder("mvn", "-B", "-ntp", "-q", "-Dmaven.repo.local=" + repository,
            "-DskipTests", "install").directory(clone.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        assertTrue(maven.waitFor(9, TimeUnit.MINUTES), "mvn install still running: " + tail(log));
        assertEquals(0, maven.exitValue(), "mvn install failed: " + tail(log));

        Path installed = repository.resolve("io/fixmatch");
        for (String module : List.of("fix-codec", "engine", "journal", "fix-gateway", "loadgen", "server",
            "client", "benchmarks")) {
            String artifact = "fixmatch-" + module;
            assertTrue(Files.isRegularFile(installed.resolve(artifact + "/0.1.0-SNAPSHOT/" + artifact
                + "-0.1.0-SNAPSHOT.jar")), artifact);
        }
        assertTrue(Files.isRegularFile(installed.resolve("fixmatch-dist/0.1.0-SNAPSHOT/"
            + "fixmatch-dist-0.1.0-SNAPSHOT.tar.gz")), "the distribution archive");
        assertTrue(Files.isRegularFile(installed.resolve("fixmatch-parent/0.1.0-SNAPSHOT/"
            + "fixmatch-parent-0.1.0-SNAPSHOT.pom")), "the parent pom");
    }

    /** The files git tracks, as they are in the working tree: what a clone of this commit holds. */
    private static Path copyTrackedFiles(Path clone) throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "-C", Processes.REPOSITORY.toString(), "ls-files", "-z").start();
        String files = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(git.waitFor(30, TimeUnit.SECONDS) && git.exitValue() == 0, "git ls-files failed");
        for (String file : files.split("\0")) {
            Path source = Processes.REPOSITORY.resolve(file);
            if (file.isEmpty() || !Files.isRegularFile(source)) {
                continue; // deleted in the working tree
            }
            Path target = clone.resolve(file);
            Files.createDirectories(target.getParent());
            Files.copy(source, target);
            target.toFile().setExecutable(source.toFile().canExecute());
        }
        return clone;
    }

    /** A local repository linking every group of the user's but io.fixmatch (whatever is installed there). */
    private static Path linkedLocalRepository(Path repository) throws IOException {
        Path user = Path.of(System.getProperty("fixmatch.localRepository",
            Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
        for (Path top : list(user)) {
            if (!top.getFileName().toString().equals("io")) {
                Files.createSymbolicLink(repository.resolve(top.getFileName().toString()), top);
                continue;
            }
            Path io = Files.createDirectories(repository.resolve("io"));
            for (Path group : list(top)) {
                if (!group.getFileName().toString().equals("fixmatch")) {
                    Files.createSymbolicLink(io.resolve(group.getFileName().toString()), group);
                }
            }
        }
        return repository;
    }

    private static List<Path> list(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.filter(Files::isDirectory).toList();
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
