package io.fixmatch.it.crash;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replicated venue under load while its nodes fail (issue #22): QuickFIX/J traders with file stores, 1,000
 * requests/s through one gateway, three node processes. A killed leader, a frozen leader and a killed follower each
 * lose nothing and double nothing, never drop a FIX session, and leave every node's journal the same.
 */
class ClusterFailoverTest {
    private static final long SEED = 22;

    @TempDir
    Path tempDirectory;
    Path directory;

    @org.junit.jupiter.api.BeforeEach
    void keepWhenAsked() throws Exception {
        String keep = System.getenv("CLUSTER_TEST_KEEP");
        directory = keep == null ? tempDirectory : java.nio.file.Files.createDirectories(Path.of(keep, "run-"
            + System.currentTimeMillis()));
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void leaderKilledUnderLoadLosesNothingAndDoublesNothing() throws Exception {
        ClusterCrashRun.Result result = ClusterCrashRun.run(ClusterCrashRun.Settings.standard(SEED, 2,
            ClusterCrashRun.Disruption.KILL_LEADER, directory));
        assertConsistent(result);
    }

    private static void assertConsistent(ClusterCrashRun.Result result) {
        System.out.println("failovers (ms): " + result.failoverMillis() + "; fills " + result.fills() + "; requests "
            + result.requests(Request.Kind.NEW_ORDER) + " new, " + result.requests(Request.Kind.CANCEL) + " cancels");
        assertTrue(result.requests(Request.Kind.NEW_ORDER) > 1_000, "load ran");
        assertTrue(result.fills() > 100, "orders traded");
        assertEquals(List.of(), result.disagreements());
        result.logons().forEach((session, logons) -> assertEquals(1, logons,
            session + " logged on again: the FIX session dropped (" + result.logons() + ")"));
        assertEquals(result.journals().get(0), result.journals().get(1), "node 0 and node 1 journals differ");
        assertEquals(result.journals().get(0), result.journals().get(2), "node 0 and node 2 journals differ");
        assertTrue(result.journals().get(0).lines().count() > 1_000, "the journals hold the flow");
    }
}
