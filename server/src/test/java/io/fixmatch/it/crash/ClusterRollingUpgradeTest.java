package io.fixmatch.it.crash;

import io.fixmatch.it.crash.ClusterCrashRun.Disruption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A rolling upgrade within one protocol version (docs/OPERATIONS.md, "Upgrade a cluster"), as ops would run it:
 * QuickFIX/J traders trade through a gateway at 400 requests/s while the three node processes are restarted one at a
 * time on their disks, followers first and the leader last, each after a snapshot SIGTERM'd, started again and caught
 * up with the leader before the next ({@link Disruption#ROLLING_RESTART}). The gateway keeps trading: no FIX session
 * drops, nothing acknowledged is lost or doubled and every order's status is what its client was told
 * ({@link CrashChecker}), every node's journal holds the same records, and every node speaks this release's protocol
 * version.
 */
@WholeVenue
@Tag("long") // ~60 s: -Dfixmatch.test.long=true (docs/TESTING.md)
class ClusterRollingUpgradeTest {
    private static final long SEED = 29;

    @TempDir
    Path tempDirectory;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void nodesRestartedOneByOneUnderLoadWhileTheGatewayKeepsTrading() throws Exception {
        Path directory = ClusterVenue.testFolder(tempDirectory);
        // 400 requests/s: the three restarts take most of the run, and every request is checked at its end
        ClusterFailoverTest.assertConsistent(ClusterCrashRun.run(ClusterCrashRun.Settings.standard(SEED,
            List.of(Disruption.ROLLING_RESTART), directory).withRatePerSession(100)));
    }
}
