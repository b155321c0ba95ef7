package io.fixmatch.it.crash;

import io.fixmatch.server.ServerProcesses;
import io.fixmatch.server.WaitBounds;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The server under test as ops run it: a child JVM started through its main with a configuration file, on a data
 * folder and a fixed loopback port that outlive it, killed with SIGKILL and started again on both.
 */
final class CrashServer implements AutoCloseable {
    private final ServerProcesses processes;
    private final Path config;
    private final Path dataDirectory;
    private final int port;
    private Process process;
    private int starts;

    CrashServer(Path directory, List<String> sessions, List<String> symbols) throws IOException {
        this(directory, sessions, symbols, List.of());
    }

    /** @param extraLines further lines of the configuration file (a key set twice: the later line applies) */
    CrashServer(Path directory, List<String> sessions, List<String> symbols, List<String> extraLines)
        throws IOException {
        Files.createDirectories(directory);
        processes = new ServerProcesses(directory);
        dataDirectory = directory.resolve("data");
        config = directory.resolve("server.properties");
        port = freePort();
        Files.writeString(config, String.join("\n",
            "fix.host=127.0.0.1",
            "fix.port=" + port,
            "data.dir=" + dataDirectory,
            "admin.port=0",
            "sessions=" + String.join(",", sessions),
            "symbols=" + String.join(",", symbols),
            "engine.maxOrders=500000",
            "engine.maxPriceLevels=10000",
            // the long run may choose the thread layout (-Dfixmatch.crash.layout=two-threads: a matching thread
            // of its own, so more events are in flight between the journal and the session stores at a kill)
            "server.layout=" + System.getProperty("fixmatch.crash.layout", "one-thread"),
            String.join("\n", extraLines),
            ""));
    }

    /** A port free now; the server binds it with SO_REUSEADDR, so it can take it again right after a kill. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    Path config() {
        return config;
    }

    Path journalDirectory() {
        return dataDirectory.resolve("journal");
    }

    int starts() {
        return starts;
    }

    /** Starts the server and waits for its ready line. */
    void start() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("already running");
        }
        process = processes.start("--config", config.toString());
        starts++;
        processes.awaitReady(process);
    }

    /** SIGKILL: no shutdown hook, no flush, no logout. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(WaitBounds.PROCESS.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the server did not die within " + WaitBounds.PROCESS + " of SIGKILL");
        }
    }

    /** SIGTERM, a clean stop; returns the exit status. */
    int stop() throws IOException, InterruptedException {
        return processes.stop(process);
    }

    /** The output of the running (or last) server process. */
    String output() throws IOException {
        return process == null ? "" : processes.output(process);
    }

    @Override
    public void close() throws InterruptedException {
        processes.close();
    }
}
