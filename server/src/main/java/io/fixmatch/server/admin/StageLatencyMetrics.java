package io.fixmatch.server.admin;

import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.gateway.LatencyStages;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.HdrHistogram.Histogram;

import java.util.Locale;
import java.util.Map;

/**
 * The server's stage latency of traced round trips (sessions with {@code session.<ID>.latencyTrace=true}) as
 * Prometheus histograms, one series per stage, from the gateways' HdrHistograms ({@link LatencyStages}, recorded by
 * the gateway threads, copied here at scrape time). The buckets are read from the HdrHistogram, exact to its three
 * significant digits.
 */
final class StageLatencyMetrics implements Collector {
    /** Bucket upper bounds, seconds: 1 us .. 1 s. */
    static final double[] BOUNDS = {1e-6, 2e-6, 5e-6, 10e-6, 20e-6, 50e-6, 100e-6, 200e-6, 500e-6, 1e-3, 2e-3, 5e-3,
        10e-3, 50e-3, 100e-3, 1, Double.POSITIVE_INFINITY};

    private final Gateways gateways;

    StageLatencyMetrics(Gateways gateways) {
        this.gateways = gateways;
    }

    @Override
    public MetricSnapshot collect() {
        HistogramSnapshot.Builder snapshot = HistogramSnapshot.builder().name("fixmatch_stage_latency_seconds")
            .help("Where traced round trips spend their time inside the server, by stage (socket read to socket"
                + " write is stage total)");
        for (Map.Entry<LatencyStages.Stage, Histogram> stage : gateways.latencyStages().entrySet()) {
            Histogram histogram = stage.getValue();
            snapshot.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .labels(Labels.of("stage", stage.getKey().name().toLowerCase(Locale.ROOT)))
                .classicHistogramBuckets(ClassicHistogramBuckets.of(BOUNDS, bucketCounts(histogram)))
                .sum(histogram.getMean() * histogram.getTotalCount() / 1e9)
                .build());
        }
        return snapshot.build();
    }

    /** Counts per bucket (not cumulative) of a histogram of nanoseconds. */
    static long[] bucketCounts(Histogram nanos) {
        long[] counts = new long[BOUNDS.length];
        long below = 0;
        for (int i = 0; i < BOUNDS.length - 1; i++) {
            long upTo = nanos.getCountBetweenValues(0, Math.round(BOUNDS[i] * 1e9));
            counts[i] = upTo - below;
            below = upTo;
        }
        counts[BOUNDS.length - 1] = nanos.getTotalCount() - below;
        return counts;
    }
}
