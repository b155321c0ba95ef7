package io.fixmatch.loadgen.phase;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SendLogTest {
    @Test
    void lagCountsFromTheDueTimeButNotTheServersBackPressure() {
        SendLog log = new SendLog();
        log.record(0, 5_000, 6_000, 0); // 5 µs late on its own
        log.record(10_000, 10_000, 50_000_000, 49_000_000); // on time, then the socket held it 49 ms
        log.record(20_000, 50_001_000, 50_002_000, 0); // due during the stall: 1 µs after the previous send ended
        log.record(50_010_000, 50_010_000, 50_011_000, 0); // caught up: counted from due again
        log.record(50_020_000, 50_030_000, 50_031_000, 0); // late on its own: 10 µs
        assertEquals(1, log.backpressureSends());
        assertEquals(49_000_000, log.backpressureNanos());
        Histogram lag = log.endRun();
        assertEquals(5, lag.getTotalCount());
        assertEquals(10_000, lag.getMaxValue(), 10);
        assertEquals(1, lag.getCountBetweenValues(900, 1_100), "the catch-up request: 1 µs");
    }

    @Test
    void theAchievedRateIsTheSchedulesWhenOnTimeAndLowerWhenLate() {
        SendLog log = new SendLog();
        for (int i = 0; i < 101; i++) {
            log.record(i * 1_000_000L, i * 1_000_000L + 100, i * 1_000_000L + 200, 0);
        }
        assertEquals(1000, log.achievedRate(), 1);
        assertEquals(1000, log.scheduledRate(), 0.001);
        log.endRun();
        for (int i = 0; i < 101; i++) {
            log.record(i * 1_000_000L, i * 1_100_000L, i * 1_100_000L + 100, 0);
        }
        assertEquals(1000 / 1.1, log.achievedRate(), 1);
    }
}
