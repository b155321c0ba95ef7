package io.fixmatch.server.admin;

import java.util.Map;

/** {@code GET /health}: 200 once recovery is done and the FIX port is open, else 503; the body names the phase. */
final class HealthEndpoint implements Endpoint {
    private final Readiness readiness;

    HealthEndpoint(Readiness readiness) {
        this.readiness = readiness;
    }

    @Override
    public AdminResponse handle(AdminRequest request) {
        Readiness.State state = readiness.state();
        return AdminResponse.json(state == Readiness.State.READY ? 200 : 503, Map.of("status", state.text()));
    }
}
