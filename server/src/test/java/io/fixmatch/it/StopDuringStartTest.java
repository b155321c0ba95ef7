package io.fixmatch.it;

import io.fixmatch.server.ServerProcesses;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM in each phase of the start (issue 21: `docker compose stop` or a supervisor's restart while the server
 * starts): real server processes, each signalled as soon as the log line that opens a phase appears
 * (docs/OPERATIONS.md, "Start"): before recovery (on the first line: the folder being locked, the port bound, the
 * journal opened), during recovery (a journal of twenty thousand commands and no snapshot: the replay lasts a tenth
 * of a second or more), after recovery but before ready, and while serving a client. Where each signal landed is read
 * off the timestamps of those lines, and every phase must have been hit (a signal that missed its phase is sent again
 * at the next start, a few times at most). Each stop exits 0, and the next start on the same folder recovers the
 * same books: the folder is left as a clean stop leaves it.
 */
@Tag("long") // ~40 s: -Dfixmatch.test.long=true (docs/TESTING.md)
class StopDuringStartTest {
    /** The journal's length: crossing pairs that leave nothing resting (the replay's time grows with it). */
    private static final int CROSSING_PAIRS = 10_000;
    private static final int PAIRS_PER_BATCH = 5_000;
    /** Starts at most per phase until a signal lands in it. */
    private static final int ATTEMPTS = 5;
    /** How long a signal may take to reach the server's handler after kill(2) returned (a loaded machine). */
    private static final long DELIVERY_MS = 20;
    private static final Pattern RECOVERED = Pattern.compile(
        "recovered: (\\d+ resting orders in \\d+ books), (\\d+) commands replayed from the journal, in ([0-9.]+) s");
    /** A log line's time: the line's first word (fixmatch-logback.xml, ISO-8601 UTC to the millisecond). */
    private static final Pattern LINE_TIME = Pattern.compile("^(\\S+Z) ", Pattern.MULTILINE);

    /** The phases of a start, each opened by a line of the server's log. */
    private enum Phase {
        BEFORE_RECOVERY("starting: FIX"),
        DURING_RECOVERY("recovering: "),
        AFTER_RECOVERY("recovered: "), // the books' line comes first; the sessions' "recovered:" lines follow it
        SERVING("fixmatch ready: ");

        final String line;

        Phase(String line) {
            this.line = line;
        }

        /** When this phase began (epoch ms of its line), or -1 if the output does not reach it. */
        long openedAt(String output) {
            int at = output.indexOf(line);
            if (at < 0) {
                return -1;
            }
            Matcher time = LINE_TIME.matcher(output.substring(output.lastIndexOf('\n', at) + 1, at));
            assertTrue(time.find(), "a timestamp before \"" + line + "\": " + output);
            return Instant.parse(time.group(1)).toEpochMilli();
        }
    }

    /** What a start on the folder recovers. */
    private record Recovered(String books, long commands, double seconds) {
    }

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void sigtermInEachPhaseOfTheStartExitsZeroAndTheNextStartRecoversTheSameBooks() throws Exception {
        Path config = dir.resolve("server.properties");
        Files.writeString(config, "data.dir=" + dir.resolve("data") + "\nfix.port=0\nadmin.port=0\n"
            + "engine.maxOrders=10000\nengine.maxPriceLevels=1000\n");
        try (ServerProcesses processes = new ServerProcesses(dir)) {
            Recovered seeded = seed(processes, config);
            Set<Phase> hit = EnumSet.noneOf(Phase.class);
            List<String> landings = new ArrayList<>();
            for (Phase target : EnumSet.range(Phase.BEFORE_RECOVERY, Phase.AFTER_RECOVERY)) {
                for (int attempt = 0; attempt < ATTEMPTS && !hit.contains(target); attempt++) {
                    forgetSnapshots(); // the whole journal is replayed: a recovery that lasts
                    Process server = processes.start("--config", config.toString());
                    processes.awaitOutput(server, target.line); // a few ms late: async logging, polling
                    Phase landed = sigterm(processes, server, landings);
                    if (landed != null) {
                        hit.add(landed);
                    }
                    if (landed == Phase.DURING_RECOVERY) {
                        String output = processes.output(server);
                        assertTrue(output.contains("stop requested during the start: stopping after recovery, before "
                            + "accepting") && !output.contains(Phase.SERVING.line), "a stop asked for during recovery"
                            + " is carried out once it is done, before accepting: " + output);
                    }
                    assertEquals(seeded.books(), restartAndStop(processes, config).books(), "after " + landings);
                }
            }
            Process serving = processes.start("--config", config.toString());
            int port = processes.awaitReady(serving);
            RawFixClient client = RawFixClient.loggedOn(port, "CLIENT2", 30);
            Phase landed = sigterm(processes, serving, landings);
            if (landed != null) {
                hit.add(landed);
            }
            assertTrue(processes.output(serving).contains("SIGTERM: stopping"), processes.output(serving));
            client.close();
            assertEquals(seeded.books(), restartAndStop(processes, config).books(), "after " + landings);
            System.out.println("StopDuringStartTest: a replay of " + seeded.commands() + " commands takes "
                + seeded.seconds() + " s; the SIGTERMs landed " + landings);
            assertEquals(EnumSet.allOf(Phase.class), hit, "every phase of the start got a SIGTERM: " + landings);
        }
    }

    /**
     * SIGTERM to {@code server}, which must exit 0 without a stack trace; the phase it landed in (null: too close to
     * a phase's first line to tell), also added to {@code landings}.
     */
    private static Phase sigterm(ServerProcesses processes, Process server, List<String> landings)
        throws IOException, InterruptedException {
        long sent = System.currentTimeMillis();
        server.destroy();
        long returned = System.currentTimeMillis();
        assertEquals(0, processes.awaitExit(server), "SIGTERM: " + processes.output(server));
        String output = processes.output(server);
        assertFalse(output.contains("\tat "), "no stack trace: " + output);
        Phase landed = landedIn(output, sent, returned);
        if (landed != null) {
            landings.add(landed.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " ("
                + (sent - landed.openedAt(output)) + " ms into it)");
        } else {
            StringBuilder unclear = new StringBuilder("unclear (ms from the signal:");
            for (Phase phase : Phase.values()) {
                long opened = phase.openedAt(output);
                unclear.append(' ').append(phase).append(' ').append(opened < 0 ? "never" : opened - sent);
            }
            landings.add(unclear.append(')').toString());
        }
        return landed;
    }

    /**
     * The phase a signal sent between {@code sent} and {@code returned} (epoch ms) reached the server in: the last to
     * open before it was sent, if the next one (if any) opened well after it returned; null if too close to tell.
     */
    private static Phase landedIn(String output, long sent, long returned) {
        Phase landed = null;
        for (Phase phase : Phase.values()) {
            long opened = phase.openedAt(output);
            if (opened < 0 || opened > sent) {
                if (landed == null || (opened >= 0 && opened <= returned + DELIVERY_MS)) {
                    return null;
                }
                return landed;
            }
            landed = phase;
        }
        return landed;
    }

    /**
     * The books to recover: three resting orders, entered through a served session after {@link #CROSSING_PAIRS}
     * orders that trade with each other (nothing of them rests, but the journal holds them all).
     */
    private Recovered seed(ServerProcesses processes, Path config) throws Exception {
        Process server = processes.start("--config", config.toString());
        int port = processes.awaitReady(server);
        RawFixClient client = RawFixClient.loggedOn(port, "CLIENT1", 30);
        for (int pair = 0; pair < CROSSING_PAIRS; pair += PAIRS_PER_BATCH) {
            List<byte[]> batch = new ArrayList<>();
            for (int i = pair; i < pair + PAIRS_PER_BATCH; i++) {
                batch.add(client.newOrder("P" + i + "B", "GOOG", "1", 1, "100.00").bytes());
                batch.add(client.newOrder("P" + i + "S", "GOOG", "2", 1, "100.00").bytes());
            }
            client.send(RawFixClient.concat(batch.toArray(byte[][]::new)));
            String lastSell = "P" + (pair + PAIRS_PER_BATCH - 1) + "S";
            client.nextMatching(m -> lastSell.equals(m.get(11)) && "2".equals(m.get(39)), 5 * PAIRS_PER_BATCH);
        }
        client.send(client.newOrder("B1", "AAPL", "1", 10, "100.00"));
        client.send(client.newOrder("B2", "AAPL", "1", 20, "99.00"));
        client.send(client.newOrder("S1", "MSFT", "2", 30, "300.00"));
        client.nextMatching(m -> "S1".equals(m.get(11)) && "0".equals(m.get(150)), 10);
        client.close();
        assertEquals(0, processes.stop(server), processes.output(server));
        forgetSnapshots();
        Recovered recovered = restartAndStop(processes, config);
        assertEquals("3 resting orders in 2 books", recovered.books());
        assertTrue(recovered.commands() >= 2L * CROSSING_PAIRS + 3, "every order journaled, none refused: "
            + recovered);
        return recovered;
    }

    /**
     * Removes the books' snapshots (a clean stop writes one), as if the server had crashed with snapshots off: the
     * next start replays the whole journal.
     */
    private void forgetSnapshots() throws IOException {
        Path snapshots = dir.resolve("data").resolve("journal").resolve("snapshots");
        if (!Files.isDirectory(snapshots)) {
            return;
        }
        try (Stream<Path> files = Files.list(snapshots)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
    }

    /** Starts on the same folder until ready (the lock free, the journal readable), stops it; what it recovered. */
    private static Recovered restartAndStop(ServerProcesses processes, Path config) throws Exception {
        Process server = processes.start("--config", config.toString());
        processes.awaitReady(server);
        String output = processes.output(server);
        assertEquals(0, processes.stop(server), processes.output(server));
        Matcher recovered = RECOVERED.matcher(output);
        assertTrue(recovered.find(), output);
        return new Recovered(recovered.group(1), Long.parseLong(recovered.group(2)),
            Double.parseDouble(recovered.group(3)));
    }
}
