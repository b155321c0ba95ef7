package io.fixmatch.cluster.protocol;

/**
 * Who a gateway is, as its HELLO says: the incarnation of its process (a new one is a restart: whatever sessions the
 * gateway held, their connections are gone), its pid and its FIX and admin ports (for ops: {@code GET /cluster}).
 */
public record GatewayProcess(long incarnation, long pid, int fixPort, int adminPort) {
    /** A gateway of a release before versions: it said nothing of its process. */
    public static final GatewayProcess UNKNOWN = new GatewayProcess(0, 0, 0, 0);
}
