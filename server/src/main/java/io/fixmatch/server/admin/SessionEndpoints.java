package io.fixmatch.server.admin;

import io.fixmatch.fix.session.FixSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * {@code GET /sessions}, {@code POST /sessions/{compId}/logout}, {@code POST /sessions/{compId}/cancel-all},
 * {@code POST /sessions/{compId}/kill-switch} and {@code POST /sessions/{compId}/kill-switch/release}.
 */
final class SessionEndpoints {
    private static final Logger LOG = LoggerFactory.getLogger(SessionEndpoints.class);
    static final String LOGOUT_TEXT = "logged out by the operator";

    /** The answer of {@code GET /sessions}. */
    record Sessions(List<SessionInfo> sessions) {
    }

    /** The answer of an action on a session. */
    record Done(String session, String result) {
    }

    /** The answer of a kill switch action: the switch's state once the engine applied it. */
    record KillSwitch(String session, boolean engaged) {
    }

    private final SessionOperations operations;
    private final EngineOperations engine;
    private final Readiness readiness;

    SessionEndpoints(SessionOperations operations, EngineOperations engine, Readiness readiness) {
        this.operations = operations;
        this.engine = engine;
        this.readiness = readiness;
    }

    AdminResponse killSwitch(AdminRequest request) throws Exception {
        return setKillSwitch(request, true);
    }

    AdminResponse releaseKillSwitch(AdminRequest request) throws Exception {
        return setKillSwitch(request, false);
    }

    /** Journaled through the engine like a halt; engaging cancels the session's orders (reported to it). */
    private AdminResponse setKillSwitch(AdminRequest request, boolean engaged) throws Exception {
        FixSession session = operations.byCompId(request.segment(1));
        if (session == null) {
            return unknown(request.segment(1));
        }
        if (!readiness.isReady()) {
            return SymbolEndpoints.notReady();
        }
        String action = engaged ? "kill switch" : "kill switch release";
        try {
            engine.setKillSwitch(session.ownerId(), engaged);
        } catch (java.util.concurrent.TimeoutException e) {
            LOG.error("operator's {} of {} not applied: {}", action, session.name(), e.getMessage());
            return AdminResponse.error(504, action + " of " + request.segment(1) + " not applied: " + e.getMessage()
                + " (see the log: journal failing, or the engine stalled)");
        }
        LOG.warn("operator {} the kill switch of {} (admin request from {})", engaged ? "engaged" : "released",
            session.name(), request.remoteAddress());
        return AdminResponse.json(200, new KillSwitch(request.segment(1), engaged));
    }

    AdminResponse list(AdminRequest request) throws Exception {
        if (!readiness.isReady()) {
            return SymbolEndpoints.notReady();
        }
        return AdminResponse.json(200, new Sessions(operations.list()));
    }

    AdminResponse logout(AdminRequest request) throws Exception {
        FixSession session = operations.byCompId(request.segment(1));
        if (session == null) {
            return unknown(request.segment(1));
        }
        if (!readiness.isReady()) {
            return SymbolEndpoints.notReady();
        }
        if (!operations.logout(session, LOGOUT_TEXT)) {
            return AdminResponse.json(409, Map.of("error", request.segment(1) + " is not logged on"));
        }
        LOG.warn("operator logged {} out (admin request from {})", session.name(), request.remoteAddress());
        return AdminResponse.json(200, new Done(request.segment(1), "Logout sent"));
    }

    AdminResponse cancelAll(AdminRequest request) throws Exception {
        FixSession session = operations.byCompId(request.segment(1));
        if (session == null) {
            return unknown(request.segment(1));
        }
        if (!readiness.isReady()) {
            return SymbolEndpoints.notReady();
        }
        operations.cancelAll(session);
        LOG.warn("operator canceled every order of {} (admin request from {})", session.name(),
            request.remoteAddress());
        return AdminResponse.json(202, new Done(request.segment(1), "cancel-all queued: every live order of the"
            + " session is canceled and reported to it"));
    }

    private static AdminResponse unknown(String compId) {
        return AdminResponse.error(404, "unknown session " + compId);
    }
}
