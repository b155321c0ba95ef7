package io.fixmatch.server;

import io.fixmatch.cluster.node.ClusterIdle;
import io.fixmatch.cluster.node.ClusterMembers;
import io.fixmatch.cluster.node.ClusterTimings;
import io.fixmatch.cluster.service.ServiceSettings;
import io.fixmatch.fix.session.SessionConfig;

import java.nio.file.Path;
import java.util.List;

/** Reads the {@code cluster.*} keys (docs/CONFIG.md, "Cluster") into a {@link ClusterConfig}. */
final class ClusterKeys {
    private ClusterKeys() {
    }

    static ClusterConfig read(ConfigKeys keys, List<SessionConfig> sessions) {
        ClusterMembers members;
        try {
            members = ClusterMembers.parse(keys.text("cluster.members", ClusterConfig.DEFAULT_MEMBERS));
        } catch (IllegalArgumentException e) {
            throw keys.invalid("cluster.members", e.getMessage());
        }
        int nodeId = keys.integer("cluster.nodeId", 0, 0, 255);
        if (nodeId >= members.size()) {
            throw keys.invalid("cluster.nodeId", nodeId + " is not among the " + members.size() + " members of"
                + " cluster.members");
        }
        List<String> gatewaySessions = keys.optional("cluster.gatewaySessions") == null ? List.of()
            : keys.list("cluster.gatewaySessions", "");
        for (String session : gatewaySessions) {
            if (sessions.stream().noneMatch(configured -> configured.clientCompId().equals(session))) {
                throw keys.invalid("cluster.gatewaySessions", "lists " + session + ", which is not in sessions");
            }
        }
        ClusterTimings defaults = ClusterTimings.defaults();
        ClusterTimings timings;
        try {
            timings = new ClusterTimings(
                keys.positiveLong("cluster.heartbeatIntervalMs", defaults.heartbeatIntervalMs()),
                keys.positiveLong("cluster.heartbeatTimeoutMs", defaults.heartbeatTimeoutMs()),
                keys.positiveLong("cluster.electionTimeoutMs", defaults.electionTimeoutMs()),
                keys.positiveLong("cluster.sessionTimeoutMs", defaults.sessionTimeoutMs()),
                keys.positiveLong("cluster.startupCanvassMs", defaults.startupCanvassMs()));
        } catch (IllegalArgumentException e) {
            throw keys.invalid("cluster.heartbeatTimeoutMs", e.getMessage());
        }
        String idle = keys.text("cluster.idleStrategy", "backoff");
        if (!idle.equals("backoff") && !idle.equals("busy-spin")) {
            throw keys.invalid("cluster.idleStrategy", "must be backoff or busy-spin, was " + idle);
        }
        String aeronDir = keys.optional("cluster.aeronDir");
        return new ClusterConfig(members, keys.text("cluster.name", "fixmatch"), nodeId,
            keys.integer("cluster.gatewayId", 1, 1, 1_000_000), gatewaySessions, timings,
            new ClusterIdle(idle.equals("busy-spin"), keys.positiveLong("cluster.maxParkMicros",
                ClusterIdle.DEFAULT_MAX_PARK_MICROS)),
            keys.integer("cluster.maxGateways", ServiceSettings.DEFAULT_MAX_GATEWAYS, 1, 64),
            keys.integer("cluster.egressWindowMegabytes", ServiceSettings.DEFAULT_WINDOW_BYTES >> 20, 1, 1024) << 20,
            keys.integer("cluster.snapshotEveryCommands", 1_000_000, 0, Integer.MAX_VALUE),
            keys.positiveLong("cluster.connectTimeoutMs", 30_000), keys.positiveLong("cluster.resendAfterMs", 500),
            keys.positiveLong("cluster.unavailableAfterMs", 3_000), keys.text("cluster.gatewayHost", "127.0.0.1"),
            aeronDir == null ? null : Path.of(aeronDir),
            keys.integer("cluster.gatewayTimeoutMs", (int) ClusterConfig.DEFAULT_GATEWAY_TIMEOUT_MS, 200, 600_000));
    }
}
