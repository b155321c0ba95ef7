package io.fixmatch.cluster.client;

import io.fixmatch.cluster.node.ClusterIdle;
import io.fixmatch.cluster.node.ClusterMembers;

import java.nio.file.Path;

/**
 * A gateway's connection to the cluster.
 *
 * @param gatewayId          this gateway's id (1..): unique among the cluster's gateways, the same across restarts
 * @param owners             the owner ids (sessions) it serves
 * @param fingerprint        its configuration's {@code VenueFingerprint} (symbols and sessions)
 * @param members            the cluster's nodes (their ingress endpoints)
 * @param egressHost         the address the cluster sends this gateway's egress to
 * @param aeronDirectory     the embedded media driver's folder
 * @param connectTimeoutMs   how long a start waits for a leader before giving up
 * @param resendAfterMs      a command unanswered this long is offered again (with a resume of the egress)
 * @param unavailableAfterMs a command unanswered this long, or no leader, makes the gateway refuse new orders
 * @param unansweredBytes    the most bytes of unanswered commands kept
 * @param idle               what the link's and its media driver's threads do when idle
 */
public record LinkSettings(int gatewayId, int[] owners, long fingerprint, ClusterMembers members, String egressHost, Path aeronDirectory,
                           long connectTimeoutMs, long resendAfterMs, long unavailableAfterMs, int unansweredBytes,
                           ClusterIdle idle) {

    public LinkSettings {
        if (gatewayId < 1) {
            throw new IllegalArgumentException("gateway id must be 1 or more, was " + gatewayId);
        }
        owners = owners.clone();
    }
}
