package io.fixmatch.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a restart of a whole-server test takes the engine's state from (a second {@link TestServers#start} on the
 * same folder): the ways to try in turn for the mode of the run, and what to do to the folder before the start.
 */
enum Recovery {
    /** The newest snapshot (the clean stop wrote one), then the journal after it. */
    SNAPSHOT,
    /**
     * The journal alone: standalone, with the snapshots deleted first; a cluster's nodes replay their log from its
     * start (a node stopped takes no snapshot, and the embedded nodes take none on a schedule).
     */
    JOURNAL;

    /** Standalone: from the snapshot, then from the journal alone. Cluster mode: the nodes' log is all there is. */
    static List<Recovery> inThisMode() {
        return TestServers.clusterMode() ? List.of(JOURNAL) : List.of(SNAPSHOT, JOURNAL);
    }

    /** Before the restart on {@code data}: makes it recover this way. */
    void prepare(Path data) throws IOException {
        if (this == SNAPSHOT) {
            return;
        }
        if (TestServers.clusterMode()) {
            for (int node = 0; node < TestServers.NODES; node++) {
                Path snapshots = TestServers.nodeFolder(data, node).resolve("cluster-snapshots");
                if (Files.isDirectory(snapshots)) {
                    try (Stream<Path> files = Files.list(snapshots)) {
                        List<Path> taken = files.toList();
                        if (!taken.isEmpty()) {
                            throw new IllegalStateException("node " + node + " took a snapshot, so a restart would"
                                + " not replay the whole log: " + taken);
                        }
                    }
                }
            }
            return;
        }
        try (Stream<Path> files = Files.walk(data.resolve("journal").resolve("snapshots"))) {
            for (Path file : files.sorted(Comparator.reverseOrder()).filter(Files::isRegularFile).toList()) {
                Files.delete(file);
            }
        }
    }
}
