package io.fixmatch.server.admin;

import io.fixmatch.fix.security.UnauthenticatedConnections;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Connections that have not logged on: how many are open, and how many were closed, as the oldest over a cap, to let
 * a newer one in (a flood of idle sockets, or a scan).
 */
final class ConnectionMetrics {
    private ConnectionMetrics() {
    }

    static void register(PrometheusRegistry registry, UnauthenticatedConnections unauthenticated) {
        GaugeWithCallback.builder().name("fixmatch_unauthenticated_connections")
            .help("Open connections that have not sent their Logon yet")
            .callback(callback -> callback.call(unauthenticated.count()))
            .register(registry);
        CounterWithCallback.builder().name("fixmatch_unauthenticated_connections_closed_total")
            .help("Connections not logged on closed as the oldest over a cap, to let a newer one in, by cap "
                + "(server: fix.maxUnauthenticatedConnections, address: fix.maxUnauthenticatedConnectionsPerAddress)")
            .labelNames("cap")
            .callback(callback -> {
                callback.call(unauthenticated.closedForServerCap(), "server");
                callback.call(unauthenticated.closedForAddressCap(), "address");
            })
            .register(registry);
    }
}
