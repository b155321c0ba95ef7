package io.fixmatch.server.admin;

import io.fixmatch.engine.loop.EngineLink;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.journal.ChroniclePersistence;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The path of a command through the server: readiness, the inbound ring's and each gateway's outbound ring's
 * occupancy, the commands gateways still owe the engine, the journal's size and last index, and what recovery took.
 */
final class PipelineMetrics {
    private PipelineMetrics() {
    }

    static void register(PrometheusRegistry registry, Readiness readiness, EngineLink runtime,
                         Gateways gateways, ChroniclePersistence journal) {
        gauge(registry, "fixmatch_ready", "1 once recovery is done and the FIX port is open, 0 while starting or"
            + " stopping", () -> readiness.isReady() ? 1 : 0);
        gauge(registry, "fixmatch_inbound_ring_used_bytes", "Bytes of commands waiting for the matching thread",
            () -> runtime.inbound().size());
        gauge(registry, "fixmatch_inbound_ring_capacity_bytes",
            "Capacity of the inbound ring (engine.inboundRingBytes)", () -> runtime.inbound().capacity());
        GaugeWithCallback.builder().name("fixmatch_outbound_ring_used_bytes")
            .help("Bytes of events waiting for the gateway thread, by gateway")
            .labelNames("gateway")
            .callback(callback -> forEachRing(runtime, gateways, (ring, name) -> callback.call(ring.size(), name)))
            .register(registry);
        GaugeWithCallback.builder().name("fixmatch_outbound_ring_capacity_bytes")
            .help("Capacity of each gateway's outbound ring (engine.outboundRingBytes)")
            .labelNames("gateway")
            .callback(callback -> forEachRing(runtime, gateways, (ring, name) -> callback.call(ring.capacity(),
                name)))
            .register(registry);
        CounterWithCallback.builder().name("fixmatch_outbound_ring_full_waits_total")
            .help("Times the matching thread found a gateway's outbound ring full and waited (a stalled gateway)")
            .labelNames("gateway")
            .callback(callback -> forEachRing(runtime, gateways, (ring, name) -> callback.call(ring.fullRingWaits(),
                name)))
            .register(registry);
        GaugeWithCallback.builder().name("fixmatch_pending_commands")
            .help("Commands a gateway keeps for the engine until the inbound ring has room (cancel-on-disconnect,"
                + " operator commands)")
            .labelNames("gateway")
            .callback(callback -> gateways.all().forEach(gateway ->
                callback.call(gateway.pendingCommands().size(), gateway.name())))
            .register(registry);
        if (journal != null) { // a cluster gateway has none: each node keeps its own
            gauge(registry, "fixmatch_journal_size_bytes", "Bytes of the journal's queue files on disk",
                journal::sizeBytes);
            gauge(registry, "fixmatch_journal_last_index", "Chronicle index of the journal's last record (roll cycle"
                + " in the high bits, sequence in the low bits); -1 while empty", () -> lastIndex(journal));
        }
        gauge(registry, "fixmatch_recovery_seconds", "How long the start's recovery (snapshot and journal replay)"
            + " took", () -> runtime.recoveryNanos() / 1e9);
        gauge(registry, "fixmatch_recovery_replayed_commands", "Commands the start replayed from the journal",
            runtime::recoveredCommands);
    }

    private interface RingVisitor {
        void visit(OutboundEventRing ring, String gateway);
    }

    private static void forEachRing(EngineLink runtime, Gateways gateways, RingVisitor visitor) {
        for (Gateway gateway : gateways.all()) {
            visitor.visit(runtime.outbound(gateway.index()), gateway.name());
        }
    }

    /** The journal closes at shutdown, while a scrape may still run. */
    private static double lastIndex(ChroniclePersistence journal) {
        try {
            long index = journal.lastIndex();
            return index < 0 ? -1 : index;
        } catch (RuntimeException closed) {
            return Double.NaN;
        }
    }

    private static void gauge(PrometheusRegistry registry, String name, String help,
                              java.util.function.DoubleSupplier value) {
        GaugeWithCallback.builder().name(name).help(help)
            .callback(callback -> callback.call(value.getAsDouble()))
            .register(registry);
    }
}
