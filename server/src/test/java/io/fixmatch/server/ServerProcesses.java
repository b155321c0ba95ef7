package io.fixmatch.server;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Servers run as ops run them: separate processes started through {@link ServerMain}, with the server's own
 * logging, their output in a file each. The environment's {@code FIXMATCH_...} variables are not inherited (only
 * those a test gives). {@link #close} kills whatever is still running, whatever the test's outcome.
 */
public final class ServerProcesses implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("fixmatch ready: FIX 4\\.4 on [^ ]+:(\\d+)");

    private final Path directory;
    private final Map<Process, Path> outputs = new HashMap<>();

    public ServerProcesses(Path directory) {
        this.directory = directory;
    }

    public Process start(String... args) throws IOException {
        return start(Map.of(), args);
    }

    public Process start(Map<String, String> environment, String... args) throws IOException {
        return startMain(ServerMain.class.getName(), environment, args);
    }

    /** Any main class of the test classpath, with the server's JVM flags. */
    public Process startMain(String mainClass, Map<String, String> environment, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.startsWith("-Dchronicle")) {
                command.add(argument);
            }
        }
        command.add("-Xmx256m");
        command.addAll(childJvmFlags());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        Path output = directory.resolve("process-" + System.nanoTime() + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith(ConfigKeys.ENVIRONMENT_PREFIX));
        builder.environment().putAll(environment);
        Process process = builder.start();
        outputs.put(process, output);
        return process;
    }

    /** Waits for the ready line; returns the FIX port. */
    public int awaitReady(Process server) throws IOException, InterruptedException {
        return awaitReady(server, WaitBounds.PROCESS);
    }

    /** Waits up to {@code bound} for the ready line (a cluster gateway's waits for the cluster); the FIX port. */
    public int awaitReady(Process server, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            Matcher ready = READY.matcher(output(server));
            if (ready.find()) {
                return Integer.parseInt(ready.group(1));
            }
            if (!server.isAlive()) {
                throw new AssertionError("server exited with " + server.exitValue() + ": " + output(server));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("server not ready within " + bound + ": " + output(server));
    }

    /**
     * Waits until the output contains {@code text}, looking every millisecond (a test may act on a phase the line
     * announces) but reading the file only when it has grown.
     */
    public void awaitOutput(Process process, String text) throws IOException, InterruptedException {
        awaitOutput(process, text, WaitBounds.PROCESS);
    }

    /** As {@link #awaitOutput(Process, String)}, up to {@code bound} (a cluster node's readiness, say). */
    public void awaitOutput(Process process, String text, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        long sizeRead = -1;
        while (true) {
            boolean alive = process.isAlive(); // before reading: a line written just before the exit is seen
            long size = Files.size(outputs.get(process));
            if (size != sizeRead) {
                sizeRead = size;
                if (output(process).contains(text)) {
                    return;
                }
            }
            if (!alive) {
                throw new AssertionError("exited with " + process.exitValue() + " before \"" + text + "\": "
                    + output(process));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no \"" + text + "\" within " + bound + ": " + output(process));
            }
            Thread.sleep(1);
        }
    }

    /** Waits for the process to end; returns its exit status. */
    public int awaitExit(Process process) throws IOException, InterruptedException {
        if (!process.waitFor(WaitBounds.PROCESS.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("still running after " + WaitBounds.PROCESS + ": " + output(process));
        }
        return process.exitValue();
    }

    /** SIGTERM, then the exit status. */
    public int stop(Process server) throws IOException, InterruptedException {
        server.destroy();
        return awaitExit(server);
    }

    public String output(Process process) throws IOException {
        return Files.readString(outputs.get(process), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        for (Process process : outputs.keySet()) {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(WaitBounds.PROCESS.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /** The root pom's {@code fixmatch.test.childJvmFlags}: short-lived JVMs on a 2-core machine (its comment says why). */
    public static List<String> childJvmFlags() {
        return Arrays.stream(System.getProperty("fixmatch.test.childJvmFlags", "").trim().split("\\s+"))
            .filter(flag -> !flag.isEmpty()).toList();
    }
}
