package io.fixmatch.server.admin;

import io.fixmatch.fix.session.FixSession;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.List;

/** The FIX sessions: how many are connected, and each one's messages in and out (counted by its gateway thread). */
final class SessionMetrics {
    private SessionMetrics() {
    }

    static void register(PrometheusRegistry registry, List<FixSession> sessions) {
        GaugeWithCallback.builder().name("fixmatch_sessions_connected")
            .help("Sessions logged on now")
            .callback(callback -> callback.call(sessions.stream().filter(FixSession::isLoggedOn).count()))
            .register(registry);
        GaugeWithCallback.builder().name("fixmatch_session_logged_on")
            .help("1 while the session is logged on")
            .labelNames("session")
            .callback(callback -> sessions.forEach(session ->
                callback.call(session.isLoggedOn() ? 1 : 0, session.config().clientCompId())))
            .register(registry);
        CounterWithCallback.builder().name("fixmatch_fix_messages_received_total")
            .help("FIX messages received from logged-on sessions (Logon included), by session")
            .labelNames("session")
            .callback(callback -> sessions.forEach(session ->
                callback.call(session.counters().messagesReceived(), session.config().clientCompId())))
            .register(registry);
        CounterWithCallback.builder().name("fixmatch_fix_messages_sent_total")
            .help("FIX messages written to sessions' connections (resends included), by session")
            .labelNames("session")
            .callback(callback -> sessions.forEach(session ->
                callback.call(session.counters().messagesSent(), session.config().clientCompId())))
            .register(registry);
    }
}
