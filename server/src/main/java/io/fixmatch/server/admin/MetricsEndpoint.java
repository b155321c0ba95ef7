package io.fixmatch.server.admin;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.ByteArrayOutputStream;

/** {@code GET /metrics}: every registered metric in the Prometheus text format (version 0.0.4). */
final class MetricsEndpoint implements Endpoint {
    private final PrometheusRegistry registry;
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    MetricsEndpoint(PrometheusRegistry registry) {
        this.registry = registry;
    }

    @Override
    public AdminResponse handle(AdminRequest request) throws Exception {
        ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
        writer.write(body, registry.scrape());
        return new AdminResponse(200, writer.getContentType(), body.toByteArray());
    }
}
