package io.fixmatch.server.admin;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmGarbageCollectorMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmRuntimeInfoMetric;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM: every garbage collection's duration as a histogram (from the JVM's GC notifications, on the JMX
 * notification thread, never on the order path) beside the client library's JVM metrics: memory, GC totals,
 * runtime. Not its thread metrics: reading thread states and looking for deadlocks stops the JVM at a safepoint,
 * every thread with it, at every scrape. With the stop-the-world collectors the duration is the pause; for a
 * concurrent collector's cycle ({@code gc} names it) most of it runs beside the application.
 */
final class GcPauseMetrics implements AutoCloseable {
    private final Histogram pauses;
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onNotification;

    GcPauseMetrics(PrometheusRegistry registry) {
        pauses = Histogram.builder().name("fixmatch_gc_pause_seconds")
            .help("Duration of each garbage collection, by collector and action")
            .labelNames("gc", "action")
            .classicUpperBounds(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5)
            .classicOnly()
            .register(registry);
        JvmMemoryMetrics.builder().register(registry);
        JvmGarbageCollectorMetrics.builder().register(registry);
        JvmRuntimeInfoMetric.builder().register(registry);
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                emitters.add(emitter);
            }
        }
    }

    private void onNotification(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
            (CompositeData) notification.getUserData());
        pauses.labelValues(info.getGcName(), info.getGcAction()).observe(info.getGcInfo().getDuration() / 1e3);
    }

    /** Stops listening (a server stopped in a JVM that goes on: tests). */
    @Override
    public void close() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                // already gone
            }
        }
        emitters.clear();
    }
}
