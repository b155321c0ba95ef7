package io.fixmatch.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A client program (TraderClient, DemoMain) in its own JVM, as a person runs it: commands typed into its stdin,
 * its output lines read as they come. {@link #close} kills it if it is still running.
 */
final class ClientProcess implements AutoCloseable {
    /**
     * How long a line (or the exit) may take before the test fails: a failure deadline, not a sleep. The first line
     * comes after the JVM's start and the Logon, 10 s and more on a busy 2-core machine (docs/TESTING.md, "Waits").
     */
    static final Duration WAIT = Duration.ofSeconds(180);
    /** A test method's own bound (JUnit's {@code @Timeout}): a few client JVMs, each within {@link #WAIT}. */
    static final long TEST_SECONDS = 600;

    private final Process process;
    private final PrintWriter stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    private ClientProcess(Process process) {
        this.process = process;
        this.stdin = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("(output unreadable: " + e + ")");
            }
        }, "client-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code main} with these arguments; stdout and stderr are read together. */
    static ClientProcess start(Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-Xmx128m"));
        // The root pom's fixmatch.test.childJvmFlags: a short-lived JVM on a 2-core machine (its comment says why).
        for (String flag : System.getProperty("fixmatch.test.childJvmFlags", "").trim().split("\\s+")) {
            if (!flag.isEmpty()) {
                command.add(flag);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ClientProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** Types one line. */
    void type(String line) {
        stdin.println(line);
    }

    /** Ends the input, as Ctrl-D does. */
    void endInput() {
        stdin.close();
    }

    /** Waits for the next line matching {@code regex} (earlier lines are passed over); returns it. */
    String await(String regex) throws InterruptedException {
        Pattern pattern = Pattern.compile(regex);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("no line matching " + regex + " within " + WAIT + "; output: "
                    + String.join("\n", seen));
            }
            seen.add(line);
            if (pattern.matcher(line).find()) {
                return line;
            }
        }
    }

    /** Waits for the process to end; returns its exit status. */
    int exitStatus() throws InterruptedException {
        if (!process.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("still running; output: " + String.join("\n", seen) + "\n" + lines);
        }
        return process.exitValue();
    }

    /** Every line so far. */
    String output() {
        lines.drainTo(seen);
        return String.join("\n", seen);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
