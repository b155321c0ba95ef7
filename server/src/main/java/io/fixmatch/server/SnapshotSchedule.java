package io.fixmatch.server;

import io.aeron.cluster.service.Cluster;
import io.fixmatch.cluster.node.ClusterNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Periodic snapshots of the replicated venue ({@code cluster.snapshotEveryCommands}): once a second the node checks
 * whether it leads and the service has applied that many commands since the last snapshot it saw, and if so asks the
 * cluster for one (every node then snapshots at the same log position), so a restart replays a bounded log. Which
 * node asks, and when, changes nothing in the state: the snapshot is an event in the log.
 */
final class SnapshotSchedule implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotSchedule.class);

    private final ClusterNode node;
    private final long everyCommands;
    private final ScheduledExecutorService timer;
    private long lastSnapshotCount = -1;
    private long commandsAtLastSnapshot;

    private SnapshotSchedule(ClusterNode node, long everyCommands) {
        this.node = node;
        this.everyCommands = everyCommands;
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "snapshot-schedule");
            thread.setDaemon(true);
            return thread;
        });
    }

    static SnapshotSchedule start(ClusterNode node, long everyCommands) {
        SnapshotSchedule schedule = new SnapshotSchedule(node, everyCommands);
        if (everyCommands > 0) {
            schedule.timer.scheduleWithFixedDelay(schedule::check, 1, 1, TimeUnit.SECONDS);
        }
        return schedule;
    }

    private void check() {
        long snapshots = node.status().snapshots();
        long commands = node.status().commandSequence();
        if (snapshots != lastSnapshotCount) {
            lastSnapshotCount = snapshots;
            commandsAtLastSnapshot = commands;
        }
        if (node.role() == Cluster.Role.LEADER && commands - commandsAtLastSnapshot >= everyCommands
            && node.requestSnapshot()) {
            LOG.info("{} commands since the last snapshot: asked the cluster for one",
                commands - commandsAtLastSnapshot);
            commandsAtLastSnapshot = commands;
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
