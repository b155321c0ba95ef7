package io.fixmatch.cluster.node;

import io.fixmatch.cluster.service.MatchingService;

/** A node as one of another release starts it: another Aeron appVersion in its term events and snapshots. */
public final class OtherReleaseNode {
    private OtherReleaseNode() {
    }

    public static ClusterNode launch(NodeSettings settings, int appVersion) {
        return ClusterNode.launch(settings, new MatchingService(settings.service()), appVersion);
    }
}
