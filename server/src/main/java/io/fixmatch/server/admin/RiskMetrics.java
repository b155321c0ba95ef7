package io.fixmatch.server.admin;

import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.metrics.EngineCounters;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.List;

/**
 * Pre-trade risk, self-trade prevention and the end of the day as the matching thread counted them: new orders and
 * replaces refused by each limit, kill switches engaged (per session), orders self-trade prevention canceled,
 * orders expired. Read at scrape time; nothing here writes.
 */
final class RiskMetrics {
    private RiskMetrics() {
    }

    /** @param sessions each session's CompID, owner k + 1 being the k-th */
    static void register(PrometheusRegistry registry, EngineCounters engine, List<String> sessions,
                         EngineOperations operations) {
        CounterWithCallback.builder().name("fixmatch_risk_rejects_total")
            .help("New orders and replaces refused by a session's pre-trade risk limit or kill switch, by limit")
            .labelNames("limit")
            .callback(callback -> {
                for (int i = 0; i < RejectReason.count(); i++) {
                    RejectReason reason = RejectReason.fromOrdinal(i);
                    if (reason.isPreTradeRisk()) {
                        callback.call(engine.ordersRejected(reason) + engine.replacesRejected(reason), reason.name());
                    }
                }
            })
            .register(registry);
        GaugeWithCallback.builder().name("fixmatch_kill_switch_engaged")
            .help("1 while the session's kill switch is engaged (its new orders refused)")
            .labelNames("session")
            .callback(callback -> {
                for (int i = 0; i < sessions.size(); i++) {
                    callback.call(operations.isKillSwitchEngaged(i + 1) ? 1 : 0, sessions.get(i));
                }
            })
            .register(registry);
        CounterWithCallback.builder().name("fixmatch_orders_canceled_by_engine_total")
            .help("Orders the engine canceled on its own, by reason: self-trade prevention (incoming or resting order),"
                + " a kill switch")
            .labelNames("reason")
            .callback(callback -> {
                for (RejectReason reason : List.of(RejectReason.SELF_TRADE_INCOMING, RejectReason.SELF_TRADE_RESTING,
                    RejectReason.KILL_SWITCH_ENGAGED)) {
                    callback.call(engine.ordersCanceled(reason), reason.name());
                }
            })
            .register(registry);
        CounterWithCallback.builder().name("fixmatch_orders_expired_total")
            .help("DAY orders expired at the end of the trading day")
            .callback(callback -> callback.call(engine.ordersExpired()))
            .register(registry);
    }
}
