package io.fixmatch.loadgen.report;

import org.HdrHistogram.Histogram;

/** The summary of one probe's distribution, in microseconds. */
public record ProbeStats(long count, double p50, double p90, double p99, double p999, double p9999, double worst) {

    public static ProbeStats of(Histogram nanos) {
        if (nanos.getTotalCount() == 0) {
            return new ProbeStats(0, 0, 0, 0, 0, 0, 0);
        }
        return new ProbeStats(nanos.getTotalCount(), micros(nanos, 50), micros(nanos, 90), micros(nanos, 99),
            micros(nanos, 99.9), micros(nanos, 99.99), nanos.getMaxValue() / 1000.0);
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

    private static double micros(Histogram nanos, double percentile) {
        return nanos.getValueAtPercentile(percentile) / 1000.0;
    }
}
