package io.fixmatch.server.admin;

import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code GET /health}: 200 once recovery is done and the FIX port is open, and (a cluster gateway) while a leader
 * answers; else 503. The body names the phase, or says the cluster is unavailable.
 */
final class HealthEndpoint implements Endpoint {
    private final Readiness readiness;
    private final BooleanSupplier engineAvailable;

    HealthEndpoint(Readiness readiness, BooleanSupplier engineAvailable) {
        this.readiness = readiness;
        this.engineAvailable = engineAvailable;
    }

    @Override
    public AdminResponse handle(AdminRequest request) {
        Readiness.State state = readiness.state();
        if (state == Readiness.State.READY && !engineAvailable.getAsBoolean()) {
            return AdminResponse.json(503, Map.of("status", "cluster-unavailable"));
        }
        return AdminResponse.json(state == Readiness.State.READY ? 200 : 503, Map.of("status", state.text()));
    }
}
