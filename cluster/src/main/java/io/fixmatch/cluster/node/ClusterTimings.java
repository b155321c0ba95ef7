package io.fixmatch.cluster.node;

/**
 * The timeouts that decide how fast a dead or frozen leader is replaced, and how patient the cluster is with a quiet
 * gateway. Aeron's defaults (a 10 s heartbeat timeout) take about ten seconds to notice a dead leader; fixmatch's
 * defaults notice in under a second on loopback while leaving a loaded 2-core machine room for scheduling delays.
 *
 * @param heartbeatIntervalMs how often the leader tells the followers it lives
 * @param heartbeatTimeoutMs  a leader silent this long is replaced (an election starts)
 * @param electionTimeoutMs   how long an election's steps wait for votes
 * @param sessionTimeoutMs    a gateway silent this long is disconnected from the cluster
 * @param startupCanvassMs    at start, how long a node waits to hear from every member before electing with a
 *                            majority
 */
public record ClusterTimings(long heartbeatIntervalMs, long heartbeatTimeoutMs, long electionTimeoutMs,
                             long sessionTimeoutMs, long startupCanvassMs) {

    public static ClusterTimings defaults() {
        return new ClusterTimings(100, 800, 300, 10_000, 5_000);
    }

    public ClusterTimings {
        if (heartbeatIntervalMs <= 0 || heartbeatTimeoutMs <= heartbeatIntervalMs) {
            throw new IllegalArgumentException("the heartbeat timeout (" + heartbeatTimeoutMs + " ms) must exceed the"
                + " heartbeat interval (" + heartbeatIntervalMs + " ms)");
        }
        if (electionTimeoutMs <= 0 || sessionTimeoutMs <= 0 || startupCanvassMs <= 0) {
            throw new IllegalArgumentException("cluster timeouts must be positive");
        }
    }
}
