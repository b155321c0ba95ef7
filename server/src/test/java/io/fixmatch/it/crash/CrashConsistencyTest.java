package io.fixmatch.it.crash;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The crash-consistency test under load, short (issue #14): QuickFIX/J traders with file stores send orders,
 * cancels and replaces on four sessions while the server, a child process, is stopped three times at seeded random
 * moments and started again; then every ClOrdID's last report must agree with the server's status answer, no
 * ExecID may carry two contents, sequence numbers must continue and fills must balance. Stopped with SIGKILL (the
 * point of the test), and with SIGTERM (a clean stop, which must lose nothing either; it also shows the harness
 * raises no false alarm). The long run (hundreds of kills) is {@link CrashConsistencyLongRun}.
 */
@WholeVenue
class CrashConsistencyTest {
    private static final long SEED = 14;

    @TempDir
    Path directory;

    @Tag("long") // ~20 s
    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void cleanlyStoppedUnderLoadLosesNothingAndDoublesNothing() throws Exception {
        assertConsistent(CrashRun.run(CrashRun.Settings.standard(SEED, 3, directory).withLoadMillis(1_000, 2_000)
            .withCleanStops()));
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void killedUnderLoadLosesNothingAndDoublesNothing() throws Exception {
        assertConsistent(CrashRun.run(CrashRun.Settings.standard(SEED, 3, directory).withLoadMillis(1_000, 2_000)));
    }

    private static void assertConsistent(CrashRunReport report) {
        System.out.println(report.text(5));

        assertEquals(3, report.cycles());
        assertTrue(report.requests(Request.Kind.NEW_ORDER) > 1_000, "load ran: " + report.text(0));
        assertTrue(report.requests(Request.Kind.CANCEL) > 100 && report.requests(Request.Kind.REPLACE) > 100,
            "cancels and replaces ran: " + report.text(0));
        assertTrue(report.fills() > 100, "orders traded: " + report.text(0));
        assertEquals(List.of(), report.disagreements(), report.text(20));
    }
}
