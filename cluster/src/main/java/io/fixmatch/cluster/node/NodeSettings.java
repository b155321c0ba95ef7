package io.fixmatch.cluster.node;

import io.fixmatch.cluster.service.ServiceSettings;

import java.nio.file.Path;

/**
 * One cluster node's settings.
 *
 * @param memberId             this node's id among the members
 * @param members              every node of the cluster
 * @param clusterName          the cluster's name: recorded in the data folder at first start, refused if it differs
 *                             later (a node started on another cluster's data)
 * @param dataDirectory        the node's folder: Aeron's archive (the replicated log), the consensus state, the
 *                             cluster's snapshots, and the node's own journal
 * @param aeronDirectory       the media driver's folder (its memory-mapped buffers: /dev/shm where there is one)
 * @param timings              failure detection and elections
 * @param idle                 what Aeron's threads do when idle
 * @param snapshotEveryCommands the leader asks for a snapshot after this many commands (0: only when asked)
 * @param service              the matching service's settings
 */
public record NodeSettings(int memberId, ClusterMembers members, String clusterName, Path dataDirectory,
                           Path aeronDirectory, ClusterTimings timings, ClusterIdle idle, long snapshotEveryCommands,
                           ServiceSettings service) {

    public NodeSettings {
        if (memberId < 0 || memberId >= members.size()) {
            throw new IllegalArgumentException("this node's id " + memberId + " is not among the "
                + members.size() + " members");
        }
    }

    public ClusterMember self() {
        return members.get(memberId);
    }
}
