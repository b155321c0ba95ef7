package io.fixmatch.server.admin;

import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.marketdata.MarketDataCounters;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.function.ToLongFunction;

/** Market data over FIX, all gateways together: subscribers, messages sent, conflation of slow subscribers. */
final class MarketDataMetrics {
    private MarketDataMetrics() {
    }

    static void register(PrometheusRegistry registry, Gateways gateways) {
        gauge(registry, gateways, "fixmatch_marketdata_subscribers",
            "Sessions with at least one live market data subscription", MarketDataCounters::subscribers);
        gauge(registry, gateways, "fixmatch_marketdata_subscriptions",
            "Live market data subscriptions (MDReqIDs)", MarketDataCounters::subscriptions);
        counter(registry, gateways, "fixmatch_marketdata_snapshots_total",
            "MarketDataSnapshotFullRefresh (35=W) messages sent", MarketDataCounters::snapshots);
        counter(registry, gateways, "fixmatch_marketdata_updates_total",
            "MarketDataIncrementalRefresh (35=X) messages sent", MarketDataCounters::updates);
        counter(registry, gateways, "fixmatch_marketdata_rejects_total",
            "MarketDataRequestReject (35=Y) messages sent", MarketDataCounters::rejects);
        counter(registry, gateways, "fixmatch_marketdata_conflated_updates_total",
            "Updates held back because the subscriber's connection was behind (sent later, one per changed symbol)",
            MarketDataCounters::conflatedUpdates);
        counter(registry, gateways, "fixmatch_marketdata_trades_not_sent_total",
            "Trades not sent to subscribers whose connection was behind", MarketDataCounters::tradesNotSent);
        counter(registry, gateways, "fixmatch_marketdata_catch_ups_total",
            "Times a subscriber that was behind caught up", MarketDataCounters::catchUps);
    }

    private static void gauge(PrometheusRegistry registry, Gateways gateways, String name, String help,
                              ToLongFunction<MarketDataCounters> value) {
        GaugeWithCallback.builder().name(name).help(help)
            .callback(callback -> callback.call(sum(gateways, value)))
            .register(registry);
    }

    private static void counter(PrometheusRegistry registry, Gateways gateways, String name, String help,
                                ToLongFunction<MarketDataCounters> value) {
        CounterWithCallback.builder().name(name).help(help)
            .callback(callback -> callback.call(sum(gateways, value)))
            .register(registry);
    }

    private static long sum(Gateways gateways, ToLongFunction<MarketDataCounters> value) {
        long total = 0;
        for (Gateway gateway : gateways.all()) {
            if (gateway.marketData() != null) {
                total += value.applyAsLong(gateway.marketData().counters());
            }
        }
        return total;
    }
}
