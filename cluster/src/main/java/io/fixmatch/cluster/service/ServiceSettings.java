package io.fixmatch.cluster.service;

import io.fixmatch.engine.config.EndOfDay;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.loop.DropCopyRoutes;
import io.fixmatch.journal.JournalConfig;

import java.nio.file.Path;
import java.util.List;

/**
 * What the matching service needs to know; every node of a cluster must be given the same (the venue's symbols,
 * sessions, routes and rules), or their states would differ.
 *
 * @param engine      symbols and capacity
 * @param journal     this node's own journal (its folder, roll cycle)
 * @param owners      the session table: owner id k is the k-th client CompID
 * @param dropCopies  who gets copies of whose reports (owner ids)
 * @param marketData  whether the engine publishes market data
 * @param endOfDay    when DAY orders expire (null: never)
 * @param maxGateways the most gateways the cluster serves at once
 * @param windowBytes the most bytes of unacknowledged egress batches kept per gateway
 * @param snapshotCopies where each snapshot's bytes are also written, {@code snapshot-<log position>.bin}, the
 *                    newest few kept (for ops to inspect, and to compare nodes: every node writes the same bytes at
 *                    the same position); null: none
 * @param gatewayTimeoutMs a gateway silent this long (log time) is gone: its sessions may be taken over
 */
public record ServiceSettings(EngineConfig engine, JournalConfig journal, List<String> owners,
                              DropCopyRoutes dropCopies, boolean marketData, EndOfDay endOfDay, int maxGateways,
                              int windowBytes, Path snapshotCopies, long gatewayTimeoutMs) {
    public static final int DEFAULT_MAX_GATEWAYS = 8;
    public static final int DEFAULT_WINDOW_BYTES = 64 << 20;
    public static final long DEFAULT_GATEWAY_TIMEOUT_MS = 2_000;

    /** With the default gateway timeout. */
    public ServiceSettings(EngineConfig engine, JournalConfig journal, List<String> owners, DropCopyRoutes dropCopies,
                           boolean marketData, EndOfDay endOfDay, int maxGateways, int windowBytes,
                           Path snapshotCopies) {
        this(engine, journal, owners, dropCopies, marketData, endOfDay, maxGateways, windowBytes, snapshotCopies,
            DEFAULT_GATEWAY_TIMEOUT_MS);
    }

    public ServiceSettings {
        owners = List.copyOf(owners);
        if (maxGateways < 1 || maxGateways > 64) {
            throw new IllegalArgumentException("maxGateways must be 1..64, was " + maxGateways);
        }
        if (gatewayTimeoutMs < 1) {
            throw new IllegalArgumentException("gatewayTimeoutMs must be positive, was " + gatewayTimeoutMs);
        }
        if (windowBytes < (1 << 20)) {
            throw new IllegalArgumentException("windowBytes must be at least 1 MiB, was " + windowBytes);
        }
    }
}
