package io.fixmatch.server.admin;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/** Prometheus series read at scrape time from a value some thread keeps (nothing is written here). */
final class CallbackMetrics {
    private CallbackMetrics() {
    }

    static void gauge(PrometheusRegistry registry, String name, String help, DoubleSupplier value) {
        GaugeWithCallback.builder().name(name).help(help)
            .callback(callback -> callback.call(value.getAsDouble()))
            .register(registry);
    }

    static void counter(PrometheusRegistry registry, String name, String help, LongSupplier value) {
        CounterWithCallback.builder().name(name).help(help)
            .callback(callback -> callback.call(value.getAsLong()))
            .register(registry);
    }
}
