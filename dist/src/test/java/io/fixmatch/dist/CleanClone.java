package io.fixmatch.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fresh clone of the repository, and a Maven repository to build it with, for the tests of what a person does
 * right after {@code git clone}: no build output, no fixmatch artifact in the local Maven repository.
 * <ul>
 *   <li>{@link #of}: {@code git clone} of the repository, with the working tree's changes to tracked files applied
 *   (what committing them would give; a new file counts once it is added to the index, as for a commit).</li>
 *   <li>{@link #localRepository}: a local repository of its own, linking every group of the user's but
 *   {@code io.fixmatch}: a build there finds the dependencies and plugins the user's builds fetched (so it can run
 *   offline, {@code -o}), but no fixmatch artifact except what it builds itself, and installs none where another
 *   build would see it.</li>
 * </ul>
 */
final class CleanClone {
    private CleanClone() {
    }

    /** Clones the repository into {@code clone} (which must not exist) and applies the working tree's changes. */
    static Path of(Path clone) throws IOException, InterruptedException {
        git(Processes.REPOSITORY.getParent(), null, "clone", "--quiet", "--no-hardlinks",
            Processes.REPOSITORY.toString(), clone.toString());
        Path changes = Files.createTempFile(clone.getParent(), "working-tree-", ".diff");
        git(Processes.REPOSITORY, changes, "diff", "--binary", "HEAD");
        if (Files.size(changes) > 0) {
            git(clone, null, "apply", "--binary", changes.toString());
        }
        Files.delete(changes);
        return clone;
    }

    /** Links every group of the user's local repository but io.fixmatch into {@code repository}. */
    static Path localRepository(Path repository) throws IOException {
        Files.createDirectories(repository);
        Path user = Path.of(System.getProperty("fixmatch.localRepository",
            Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
        for (Path top : folders(user)) {
            if (!top.getFileName().toString().equals("io")) {
                Files.createSymbolicLink(repository.resolve(top.getFileName().toString()), top);
                continue;
            }
            Path io = Files.createDirectories(repository.resolve("io"));
            for (Path group : folders(top)) {
                if (!group.getFileName().toString().equals("fixmatch")) {
                    Files.createSymbolicLink(io.resolve(group.getFileName().toString()), group);
                }
            }
        }
        return repository;
    }

    /** Runs git in {@code directory}, its output to {@code output} (null: kept with its errors, for the message). */
    private static void git(Path directory, Path output, String... arguments) throws IOException,
        InterruptedException {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(arguments));
        Path errors = Files.createTempFile("git-", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        if (output == null) {
            builder.redirectErrorStream(true).redirectOutput(errors.toFile());
        } else {
            builder.redirectOutput(output.toFile()).redirectError(errors.toFile());
        }
        Process git = builder.start();
        boolean ended = git.waitFor(120, TimeUnit.SECONDS);
        String log = Files.readString(errors, StandardCharsets.UTF_8);
        Files.delete(errors);
        assertTrue(ended && git.exitValue() == 0, "git " + String.join(" ", arguments) + " failed: " + log);
    }

    private static List<Path> folders(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.filter(Files::isDirectory).toList();
        }
    }
}
