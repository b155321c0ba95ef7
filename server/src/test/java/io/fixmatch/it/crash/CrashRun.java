package io.fixmatch.it.crash;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One crash-consistency run: the server as a child process, the traders' QuickFIX/J sessions sending orders,
 * cancels and replaces continuously; {@code cycles} times the server is killed with SIGKILL after a random spell
 * of load (seeded) and started again on the same data folder and port; the clients reconnect by themselves, the
 * resends both ways settle, and the load goes on. Then a quiet phase: the load stops, every gap is filled, the
 * server is asked the status of every ClOrdID, and {@link CrashChecker} gives the verdict. Every wait is bounded.
 *
 * <p>The load pauses from each kill until the resends after the restart have settled (a TestRequest answered on
 * every session): today's server answers every message that arrives during a gap with another ResendRequest for
 * everything from the gap on, so a client that kept sending through the resend would be asked for the same
 * messages hundreds of times, and the sessions would never settle. The kill itself always comes under load.
 */
final class CrashRun {
    private static final Duration RECONNECT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration QUIET_TIMEOUT = Duration.ofSeconds(60);

    /**
     * What to run. Loads last between {@code minLoadMillis} and {@code maxLoadMillis} before each stop; the server
     * is stopped with SIGKILL, or with SIGTERM (a clean stop) when {@code cleanStops}.
     */
    record Settings(long seed, int cycles, boolean cleanStops, List<String> sessions, List<String> symbols,
                    int ratePerSession, int minLoadMillis, int maxLoadMillis, Path directory) {

        /**
         * Kills; four sessions, two symbols, 500 requests/s a session (2,000/s in all), each kill after 1 to 3 s of
         * load.
         */
        static Settings standard(long seed, int cycles, Path directory) {
            return new Settings(seed, cycles, false, List.of("CLIENT1", "CLIENT2", "CLIENT3", "CLIENT4"),
                List.of("AAPL", "MSFT"), 500, 1_000, 3_000, directory);
        }

        Settings withCleanStops() {
            return new Settings(seed, cycles, true, sessions, symbols, ratePerSession, minLoadMillis, maxLoadMillis,
                directory);
        }

        Settings withRate(int perSession) {
            return new Settings(seed, cycles, cleanStops, sessions, symbols, perSession, minLoadMillis,
                maxLoadMillis, directory);
        }

        Settings withLoadMillis(int min, int max) {
            return new Settings(seed, cycles, cleanStops, sessions, symbols, ratePerSession, min, max, directory);
        }

        Settings withSessions(List<String> compIds) {
            return new Settings(seed, cycles, cleanStops, compIds, symbols, ratePerSession, minLoadMillis,
                maxLoadMillis, directory);
        }
    }

    private CrashRun() {
    }

    static CrashRunReport run(Settings settings) throws Exception {
        long startNanos = System.nanoTime();
        SplittableRandom random = new SplittableRandom(settings.seed());
        List<Long> loadMillis = new ArrayList<>();
        List<Map<String, Integer>> requestsAtStops = new ArrayList<>();
        try (CrashServer server = new CrashServer(settings.directory().resolve("server"), settings.sessions(),
            settings.symbols())) {
            server.start();
            Traders traders = new Traders(settings.sessions(), server.port(), settings.directory().resolve("clients"));
            try {
                traders.start();
                traders.awaitLogons(1, RECONNECT_TIMEOUT);
                traders.startLoad(settings.symbols(), settings.seed(), settings.ratePerSession());
                for (int cycle = 1; cycle <= settings.cycles(); cycle++) {
                    long millis = random.nextLong(settings.minLoadMillis(), settings.maxLoadMillis() + 1L);
                    loadMillis.add(millis);
                    TimeUnit.MILLISECONDS.sleep(millis);
                    if (settings.cleanStops()) {
                        server.stop();
                    } else {
                        server.kill();
                    }
                    traders.pauseLoad();
                    requestsAtStops.add(traders.requestCounts());
                    server.start();
                    try {
                        traders.awaitLogons(cycle + 1, RECONNECT_TIMEOUT);
                        traders.awaitQuiet(QUIET_TIMEOUT);
                        traders.resumeLoad();
                    } catch (AssertionError e) {
                        throw new AssertionError("cycle " + cycle + ": " + e.getMessage() + "\nserver output:\n"
                            + OutputTail.of(server.output(), 30), e);
                    }
                }
                traders.stopLoad();
                traders.awaitQuiet(QUIET_TIMEOUT);
                int requests = TraderLog.total(traders.logs(), log -> log.requests().size());
                traders.queryStatus(QUIET_TIMEOUT.plusSeconds(requests / 1_000));
                traders.finish();
            } finally {
                traders.close();
            }
            List<Disagreement> disagreements = CrashChecker.check(traders.logs());
            server.stop();
            disagreements = JournalDiagnosis.annotate(disagreements, server.config(), server.journalDirectory(),
                settings.directory());
            return new CrashRunReport(settings, loadMillis, requestsAtStops, traders.logs(), disagreements,
                Duration.ofNanos(System.nanoTime() - startNanos));
        }
    }
}
