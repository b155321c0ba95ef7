package io.fixmatch.server.admin;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeoutException;

/** {@code POST /engine/expire-day-orders}: ends the trading day now (ops, tests), as the end-of-day timer does. */
final class EngineEndpoints {
    private static final Logger LOG = LoggerFactory.getLogger(EngineEndpoints.class);

    /** The answer: day orders expired (each reported to its session), and how many expiries since start. */
    record DayEnded(String result, long dayEndsSinceStart) {
    }

    private final EngineOperations engine;
    private final io.fixmatch.engine.matching.EngineView view;
    private final Readiness readiness;

    EngineEndpoints(EngineOperations engine, io.fixmatch.engine.matching.EngineView view, Readiness readiness) {
        this.engine = engine;
        this.view = view;
        this.readiness = readiness;
    }

    AdminResponse expireDayOrders(AdminRequest request) throws Exception {
        if (!readiness.isReady()) {
            return SymbolEndpoints.notReady();
        }
        try {
            engine.expireDayOrders();
        } catch (TimeoutException e) {
            LOG.error("operator's end of day not applied: {}", e.getMessage());
            return AdminResponse.error(504, "end of day not applied: " + e.getMessage()
                + " (see the log: journal failing, or the engine stalled)");
        }
        LOG.warn("operator ended the trading day: day orders expired (admin request from {})",
            request.remoteAddress());
        return AdminResponse.json(200, new DayEnded("day orders expired", view.dayEnds()));
    }
}
