package io.fixmatch.loadgen.phase;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;

/**
 * What one phase (the floor or the server) measured, per measured run.
 *
 * @param probes            per probe name, each run's round trips (ns, from due)
 * @param stages            per stage name of the latency trace, each run's durations (ns); empty without a trace
 * @param sendLag           each run's send lag (ns), see {@link SendLog}
 * @param achievedRates     each run's achieved rate, requests/s
 * @param scheduledRates    each run's scheduled rate, requests/s
 * @param backpressureSends sends that waited for the socket (the acceptor's back-pressure)
 * @param backpressureNanos total time they waited
 * @param orders            measured requests sent
 * @param processCpuNanos   the generator process's CPU time over the measured runs (-1: unknown)
 * @param senderCpuNanos    the sending thread's CPU time over the measured runs (-1: unknown)
 * @param wallNanos         wall time of the measured runs
 * @param timerSlack        what became of the sending thread's timer slack
 * @param aborted           the phase was aborted (no answers for the timeout)
 */
public record PhaseResult(Map<String, List<Histogram>> probes, Map<String, List<Histogram>> stages,
                          List<Histogram> sendLag, List<Double> achievedRates, List<Double> scheduledRates,
                          long backpressureSends, long backpressureNanos, long orders, long processCpuNanos,
                          long senderCpuNanos, long wallNanos, String timerSlack, boolean aborted) {

    public double achievedRate() {
        return achievedRates.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    public double scheduledRate() {
        return scheduledRates.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /** All runs' send lag in one histogram. */
    public Histogram totalSendLag() {
        Histogram total = SendLog.newHistogram();
        sendLag.forEach(total::add);
        return total;
    }
}
