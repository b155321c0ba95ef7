package io.fixmatch.dist;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commands people run (the distribution's bin/, the repository's scripts/), run as they run them: bash, a
 * working folder, an environment without the caller's FIXMATCH_ variables, output to a file. Scripts never build
 * here (FIXMATCH_SKIP_BUILD): the reactor has built every jar before these tests. {@link #close} kills what is left.
 */
final class Processes implements AutoCloseable {
    static final Path REPOSITORY = Path.of(System.getProperty("fixmatch.repository", "..")).toAbsolutePath()
        .normalize();
    /**
     * How long a command may take to print an awaited line or to end before the test fails: a failure deadline, not
     * a sleep. A script's JVM starts in 10 s and more on a busy 2-core machine (docs/TESTING.md, "Waits").
     */
    static final Duration WAIT = Duration.ofSeconds(180);
    /** A test method's own bound (JUnit's {@code @Timeout}): a few commands, each within {@link #WAIT}. */
    static final long TEST_SECONDS = 600;
    /**
     * The JVM flags (FIXMATCH_JAVA_OPTS and the like) of what the tests start: a small heap, and C1 alone, since a JVM
     * that lives seconds does not pay back C2's compilations on a 2-core machine (the root pom's
     * {@code fixmatch.test.childJvmFlags} says the same for the other modules' tests; the scripts pick the collector).
     */
    static final String SMALL_JVM = "-Xms256m -Xmx256m -XX:TieredStopAtLevel=1";

    private final Path directory;
    private final List<Process> started = new ArrayList<>();
    private final Map<Process, Path> outputs = new java.util.HashMap<>();

    Processes(Path directory) {
        this.directory = directory;
    }

    /** Starts {@code command} (its first word a script) in {@code workingDirectory}, with {@code environment} added. */
    Process start(Path workingDirectory, Map<String, String> environment, String... command) throws IOException {
        List<String> words = new ArrayList<>(List.of("bash"));
        words.addAll(List.of(command));
        Path output = Files.createTempFile(directory, "output-", ".log");
        ProcessBuilder builder = new ProcessBuilder(words).directory(workingDirectory.toFile())
            .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("FIXMATCH_"));
        builder.environment().put("FIXMATCH_SKIP_BUILD", "1");
        builder.environment().putAll(environment);
        Process process = builder.start();
        started.add(process);
        outputs.put(process, output);
        return process;
    }

    /** Runs a command with stdin closed after {@code input}; the process, ended. */
    Process runWithInput(String input, Map<String, String> environment, String... command)
        throws IOException, InterruptedException {
        Process process = start(REPOSITORY, environment, command);
        process.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        exitStatus(process);
        return process;
    }

    int exitStatus(Process process) throws IOException, InterruptedException {
        return exitStatus(process, WAIT);
    }

    /** The exit status of a command that may take longer than the others (a build). */
    int exitStatus(Process process, Duration bound) throws IOException, InterruptedException {
        if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("still running after " + bound + ": " + output(process));
        }
        return process.exitValue();
    }

    /** Waits for a line of output matching {@code regex}; returns its first group. */
    String await(Process process, String regex) throws IOException, InterruptedException {
        Pattern pattern = Pattern.compile(regex);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Matcher matcher = pattern.matcher(output(process));
            if (matcher.find()) {
                return matcher.groupCount() > 0 ? matcher.group(1) : matcher.group();
            }
            if (!process.isAlive()) {
                throw new AssertionError("ended with " + process.exitValue() + " before " + regex + ": "
                    + output(process));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no " + regex + " within " + WAIT + ": " + output(process));
    }

    /** A loopback TCP port free now. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** A loopback TCP port free now whose port {@code offset} above is free too (gateway K's, from gateway 0's). */
    static int freePortWithOneAbove(int offset) throws IOException {
        while (true) {
            int port = freePort();
            try (ServerSocket above = new ServerSocket(port + offset, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // another try
            }
        }
    }

    String output(Process process) throws IOException {
        return Files.readString(outputs.get(process), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        for (Process process : started) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }
}
