package io.fixmatch.loadgen.report;

import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Map;

/** The summary of one probe's distribution, in microseconds. */
public record ProbeStats(long count, double mean, double p50, double p90, double p99, double p999, double p9999,
                         double worst) {
    public static final ProbeStats EMPTY = new ProbeStats(0, 0, 0, 0, 0, 0, 0, 0);

    /** HdrHistogram's percentiles of a histogram of nanoseconds. */
    public static ProbeStats of(Histogram nanos) {
        if (nanos.getTotalCount() == 0) {
            return EMPTY;
        }
        return new ProbeStats(nanos.getTotalCount(), nanos.getMean() / 1000.0, micros(nanos, 50), micros(nanos, 90),
            micros(nanos, 99), micros(nanos, 99.9), micros(nanos, 99.99), nanos.getMaxValue() / 1000.0);
    }

    /** The value of a named percentile: p50, p90, p99, p999, p9999 or worst. */
    public double get(String percentile) {
        return switch (percentile) {
            case "p50" -> p50;
            case "p90" -> p90;
            case "p99" -> p99;
            case "p999" -> p999;
            case "p9999" -> p9999;
            case "worst" -> worst;
            default -> throw new IllegalArgumentException("unknown percentile " + percentile);
        };
    }

    /** The summary.json form: count and each percentile as {@code pNN_us}. */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("count", count);
        json.put("p50_us", p50);
        json.put("p90_us", p90);
        json.put("p99_us", p99);
        json.put("p999_us", p999);
        json.put("p9999_us", p9999);
        json.put("worst_us", worst);
        json.put("mean_us", mean);
        return json;
    }

    private static double micros(Histogram nanos, double percentile) {
        return nanos.getValueAtPercentile(percentile) / 1000.0;
    }
}
