package io.fixmatch.server.admin;

import io.fixmatch.fix.session.FixSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/** {@code GET /sessions}, {@code POST /sessions/{compId}/logout} and {@code POST /sessions/{compId}/cancel-all}. */
final class SessionEndpoints {
    private static final Logger LOG = LoggerFactory.getLogger(SessionEndpoints.class);
    static final String LOGOUT_TEXT = "logged out by the operator";

    /** The answer of {@code GET /sessions}. */
    record Sessions(List<SessionInfo> sessions) {
    }

    /** The answer of an action on a session. */
    record Done(String session, String result) {
    }

    private final SessionOperations operations;
    private final Readiness readiness;

    SessionEndpoints(SessionOperations operations, Readiness readiness) {
        this.operations = operations;
        this.readiness = readiness;
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
