package io.fixmatch.server;

/**
 * How the engine runs ({@code server.mode}): {@code standalone} (the default), one process holding the gateways and
 * the matching engine with its journal; {@code cluster}, the engine replicated on the nodes of an Aeron Cluster
 * ({@code fixmatch-node}) and this process a gateway, their client ({@code fixmatch-gateway}).
 */
public enum ServerMode {
    STANDALONE("standalone"),
    CLUSTER("cluster");

    private final String configName;

    ServerMode(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    static ServerMode byName(String name) {
        for (ServerMode mode : values()) {
            if (mode.configName.equals(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("must be standalone or cluster, was " + name);
    }
}
