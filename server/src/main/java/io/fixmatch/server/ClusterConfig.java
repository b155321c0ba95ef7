package io.fixmatch.server;

import io.fixmatch.cluster.node.ClusterIdle;
import io.fixmatch.cluster.node.ClusterMembers;
import io.fixmatch.cluster.node.ClusterTimings;

import java.nio.file.Path;
import java.util.List;

/**
 * The replicated venue's settings (docs/CONFIG.md, "Cluster"): read in every mode, used in cluster mode by the nodes
 * ({@code fixmatch-node}) and the gateways ({@code fixmatch-gateway}), which must share the members, the name, the
 * symbols and the sessions.
 *
 * @param members             the nodes: {@code cluster.members}
 * @param name                {@code cluster.name}: a node refuses another cluster's data folder
 * @param nodeId              this node's id ({@code cluster.nodeId}, or {@code --node})
 * @param gatewayId           this gateway's id ({@code cluster.gatewayId}), 1 and up, unique among the gateways
 * @param gatewaySessions     the sessions this gateway serves (CompIDs; empty: every configured session)
 * @param timings             failure detection and elections
 * @param idle                {@code cluster.idleStrategy} and {@code cluster.maxParkMicros}: what Aeron's threads do
 *                            when idle
 * @param maxGateways         how many gateways the cluster serves at once
 * @param egressWindowBytes   unacknowledged egress kept per gateway
 * @param snapshotEveryCommands the leader takes a snapshot after this many commands (0: only when asked or at stop)
 * @param connectTimeoutMs    how long a gateway's start waits for a leader
 * @param resendAfterMs       a command unanswered this long is offered again
 * @param unavailableAfterMs  no leader (or an answer overdue) this long: new orders are refused
 * @param gatewayHost         the address the cluster reaches this gateway at (its egress)
 * @param aeronDirectory      where the media drivers' folders go (null: /dev/shm, or the temporary folder)
 * @param gatewayTimeoutMs    a gateway silent this long (log time) is gone: another may take its FIX sessions over
 */
public record ClusterConfig(ClusterMembers members, String name, int nodeId, int gatewayId,
                            List<String> gatewaySessions, ClusterTimings timings, ClusterIdle idle, int maxGateways,
                            int egressWindowBytes, long snapshotEveryCommands, long connectTimeoutMs,
                            long resendAfterMs, long unavailableAfterMs, String gatewayHost, Path aeronDirectory,
                            long gatewayTimeoutMs) {
    /** The default of {@code cluster.gatewayTimeoutMs}. */
    public static final long DEFAULT_GATEWAY_TIMEOUT_MS = 2_000;

    /** Three nodes on this machine: FIX stays on 9878 (the gateway), the nodes' admin endpoints on 9881..9883. */
    public static final String DEFAULT_MEMBERS = "0,127.0.0.1,20110,9881;1,127.0.0.1,20120,9882;"
        + "2,127.0.0.1,20130,9883";

    public ClusterConfig {
        gatewaySessions = List.copyOf(gatewaySessions);
    }

    /** Whether this gateway serves the session (every one when none are listed). */
    public boolean serves(String clientCompId) {
        return gatewaySessions.isEmpty() || gatewaySessions.contains(clientCompId);
    }

    /**
     * The media driver's folder for a process of this kind ({@code node-0}, {@code gateway-1}) on this data folder:
     * named after both, so a process killed and started again on its folder finds (and deletes) its predecessor's,
     * and two venues on one machine never share one.
     */
    public Path aeronDirectoryFor(String process, Path dataDirectory) {
        String folder = Integer.toHexString(dataDirectory.toAbsolutePath().normalize().toString().hashCode());
        String leaf = "fixmatch-" + System.getProperty("user.name") + "-" + process + "-" + folder;
        if (aeronDirectory != null) {
            return aeronDirectory.resolve(leaf);
        }
        Path shm = Path.of("/dev/shm");
        Path base = shm.toFile().isDirectory() ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return base.resolve(leaf);
    }
}
