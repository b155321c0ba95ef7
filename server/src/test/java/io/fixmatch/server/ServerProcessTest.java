package io.fixmatch.server;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server as ops run it: a separate process started through its main. SIGTERM stops it cleanly with exit
 * status 0; a taken port, a bad configuration or an unreadable journal stop it at once with a clear message and a
 * non-zero status.
 */
class ServerProcessTest {
    private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

    @TempDir
    Path dir;

    /** Every process a test starts: none may outlive it, whatever the test's outcome. */
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() throws InterruptedException {
        for (Process process : started) {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void sigtermShutsDownCleanlyWithStatusZero() throws Exception {
        Path config = config("fix.port=0");
        Process server = start("--config", config.toString());
        int port = awaitListening(server);
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
            assertTrue(client.isConnected());
        }
        server.destroy(); // SIGTERM
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not stop");
        assertEquals(0, server.exitValue(), output(server));
        assertTrue(Files.isDirectory(dir.resolve("data").resolve("journal")));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTakenPortStopsTheStartWithStatusOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Process server = start("--config", config("fix.port=" + taken.getLocalPort()).toString());
            assertTrue(server.waitFor(30, TimeUnit.SECONDS));
            String output = output(server);
            assertEquals(1, server.exitValue(), output);
            assertTrue(output.contains("cannot start") && output.contains(":" + taken.getLocalPort()), output);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aBadConfigurationStopsTheStartWithStatusTwo() throws Exception {
        Process server = start("--config", config("fix.port=not-a-number").toString());
        assertTrue(server.waitFor(30, TimeUnit.SECONDS));
        String output = output(server);
        assertEquals(2, server.exitValue(), output);
        assertTrue(output.contains("bad configuration") && output.contains("fix.port"), output);

        Process missing = start("--config", dir.resolve("nowhere.properties").toString());
        assertTrue(missing.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, missing.exitValue(), output(missing));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anUnreadableJournalStopsTheStartWithStatusOne() throws Exception {
        Path journal = dir.resolve("data").resolve("journal");
        Files.createDirectories(journal);
        Files.writeString(journal.resolve("20261123F.cq4"), "this is not a chronicle queue file");
        Process server = start("--config", config("fix.port=0").toString());
        assertTrue(server.waitFor(30, TimeUnit.SECONDS));
        String output = output(server);
        assertEquals(1, server.exitValue(), output);
        assertTrue(output.contains("cannot start"), output);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void helpListsTheOptions() throws Exception {
        Process server = start("--help");
        assertTrue(server.waitFor(20, TimeUnit.SECONDS));
        String output = output(server);
        assertEquals(0, server.exitValue(), output);
        assertTrue(output.contains("--config FILE") && output.contains("127.0.0.1:9878"), output);
    }

    private Path config(String extra) throws IOException {
        Path config = dir.resolve("server.properties");
        Files.writeString(config, "data.dir=" + dir.resolve("data") + "\n" + extra + "\nengine.maxOrders=10000\n"
            + "engine.maxPriceLevels=1000\n");
        return config;
    }

    private Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.startsWith("-Dchronicle")) {
                command.add(argument);
            }
        }
        command.add("-Xmx256m");
        command.add("-Dlogback.configurationFile=logback.xml"); // the server's own logging, not the tests'
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ServerMain.class.getName());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve("server-" + System.nanoTime() + ".log").toFile()).start();
        started.add(process);
        return process;
    }

    /** Waits for the "listening on" log line; returns the port. */
    private int awaitListening(Process server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Matcher matcher = LISTENING.matcher(output(server));
            if (matcher.find()) {
                return Integer.parseInt(matcher.group(1));
            }
            if (!server.isAlive()) {
                throw new AssertionError("server exited: " + output(server));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("server did not start listening: " + output(server));
    }

    private String output(Process server) throws IOException {
        StringBuilder all = new StringBuilder();
        try (var logs = Files.list(dir)) {
            for (Path log : logs.filter(f -> f.getFileName().toString().startsWith("server-")).sorted().toList()) {
                all.append(Files.readString(log, StandardCharsets.UTF_8));
            }
        }
        return all.toString();
    }
}
