package io.fixmatch.loadgen.phase;

import io.fixmatch.loadgen.pacing.Pacer;

/**
 * How a phase runs: JLBH's warm-up and measured runs, and how the sender waits for each due time.
 *
 * @param rate             the schedule's mean rate, requests/s (JLBH's throughput: only printed, the source paces)
 * @param warmupIterations requests sent before measuring
 * @param iterationsPerRun requests per measured run
 * @param runs             measured runs
 * @param cpu              CPU to pin the sending thread to, or -1
 * @param timeoutSeconds   abort when no answer arrives for this long
 * @param parkMarginNanos  park until this long before each due time
 * @param waitMode         how the rest is waited out
 * @param timerSlackNanos  the sending thread's timer slack (0: leave it)
 */
public record PhasePlan(int rate, int warmupIterations, long iterationsPerRun, int runs, int cpu, int timeoutSeconds,
                        long parkMarginNanos, Pacer.Wait waitMode, long timerSlackNanos) {
}
