package io.fixmatch.server.admin;

import io.fixmatch.cluster.client.LinkStatus;
import io.fixmatch.cluster.node.ClusterMembers;

/**
 * What a cluster gateway's admin endpoint knows of the cluster: its own id, the members (their admin endpoints, asked
 * for {@code /cluster}), the link's status, and the token the nodes' endpoints want.
 */
public record ClusterGateway(int gatewayId, ClusterMembers members, LinkStatus link, String token) {
}
