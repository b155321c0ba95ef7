package io.fixmatch.server.admin;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The Prometheus buckets read from an HdrHistogram of nanoseconds: each value lands in exactly one bucket. */
class StageLatencyMetricsTest {
    @Test
    void eachValueCountsInTheFirstBucketWhoseBoundHoldsIt() {
        Histogram nanos = new Histogram(1, TimeUnit.SECONDS.toNanos(60), 3);
        nanos.recordValue(500);                         // <= 1 us
        nanos.recordValue(1_000);                       // <= 1 us (the bound is inclusive)
        nanos.recordValue(1_500);                       // <= 2 us
        nanos.recordValue(15_000);                      // <= 20 us
        nanos.recordValue(TimeUnit.MILLISECONDS.toNanos(3)); // <= 5 ms
        nanos.recordValue(TimeUnit.SECONDS.toNanos(2)); // +Inf
        long[] counts = StageLatencyMetrics.bucketCounts(nanos);
        assertEquals(StageLatencyMetrics.BOUNDS.length, counts.length);
        //                       1us 2us 5us 10 20 50 100 200 500 1ms 2ms 5ms 10 50 100 1s +Inf
        assertArrayEquals(new long[] {2, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, counts);
    }

    @Test
    void anEmptyHistogramHasEmptyBuckets() {
        long[] counts = StageLatencyMetrics.bucketCounts(new Histogram(1, 1_000_000, 3));
        assertArrayEquals(new long[StageLatencyMetrics.BOUNDS.length], counts);
    }
}
