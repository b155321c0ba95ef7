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
 * @param gatewayTimeoutMs   the cluster gives this gateway's sessions to another after this much silence: the link
 *                           speaks at least every eighth of it, and its write lease runs for three quarters of it
 * @param fixPort            this gateway's FIX port (for ops, in the cluster's directory of gateways)
 * @param adminPort          its admin port (0: none)
 * @param maxMessageBytes    the largest FIX message its sessions write: the largest of their own messages the link
 *                           carries to the cluster to be numbered
 */
public record LinkSettings(int gatewayId, int[] owners, long fingerprint, ClusterMembers members, String egressHost, Path aeronDirectory,
                           long connectTimeoutMs, long resendAfterMs, long unavailableAfterMs, int unansweredBytes,
                           ClusterIdle idle, long gatewayTimeoutMs, int fixPort, int adminPort,
                           int maxMessageBytes) {

    public LinkSettings {
        if (gatewayId < 1) {
            throw new IllegalArgumentException("gateway id must be 1 or more, was " + gatewayId);
        }
        owners = owners.clone();
    }
}
