package io.fixmatch.server.admin;

import io.fixmatch.cluster.client.LinkStatus;
import io.fixmatch.cluster.node.ClusterMembers;
import io.fixmatch.cluster.protocol.GatewayDirectory;

import java.util.List;
import java.util.function.Supplier;

/**
 * What a cluster gateway's admin endpoint knows of the cluster: its own id, the members (their admin endpoints, asked
 * for {@code /cluster}), the link's status, the token the nodes' endpoints want, and the cluster's directory of
 * gateways and of who holds each session, as the cluster last said.
 */
public record ClusterGateway(int gatewayId, ClusterMembers members, LinkStatus link, String token,
                             Supplier<GatewayDirectory> directory, List<String> compIds) {
    /** The id of the gateway holding the session of {@code owner}, or null if none holds it. */
    public Integer holderOf(int owner) {
        GatewayDirectory.Gateway holder = directory.get().holderOf(owner);
        return holder == null ? null : holder.id();
    }
}
