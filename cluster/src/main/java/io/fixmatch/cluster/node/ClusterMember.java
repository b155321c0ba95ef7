package io.fixmatch.cluster.node;

/**
 * One node of the cluster as configured ({@code cluster.members}): its id, host, the five consecutive UDP ports it
 * listens on from {@code basePort} (gateways' ingress, consensus, log, catch-up, archive control), and its admin
 * endpoint's HTTP port.
 */
public record ClusterMember(int id, String host, int basePort, int adminPort) {
    public static final int PORTS = 5;

    public String ingressEndpoint() {
        return host + ":" + basePort;
    }

    public String consensusEndpoint() {
        return host + ":" + (basePort + 1);
    }

    public String logEndpoint() {
        return host + ":" + (basePort + 2);
    }

    public String catchupEndpoint() {
        return host + ":" + (basePort + 3);
    }

    public String archiveEndpoint() {
        return host + ":" + (basePort + 4);
    }
}
