package io.fixmatch.loadgen;

import io.fixmatch.loadgen.report.ProbeStats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The release gate's verdict on a run, and its exit status:
 * <ul>
 *   <li>errors (missing, unexpected or rejected answers): FAIL, exit 1 — a server that lost or refused requests has
 *       failed, however late the generator was;</li>
 *   <li>INVALID, exit 4: the generator did not keep its schedule in either phase (send-lag p99 above the larger of
 *       {@code --max-send-lag} and 10% of that phase's round-trip p99), or the floor phase fell under 99% of its
 *       rate: its latencies measure the generator, not the server;</li>
 *   <li>FAIL, exit 3: the achieved rate under 99% of the schedule, new_ack p99 above {@code --floor-ratio} times
 *       the floor's p99, a {@code --threshold} or the {@code --baseline} breached;</li>
 *   <li>PASS, exit 0.</li>
 * </ul>
 */
record Verdict(String verdict, List<String> reasons, int exitCode) {
    static final String PASS = "PASS";
    static final String FAIL = "FAIL";
    static final String INVALID = "INVALID";

    static final int EXIT_OK = 0;
    static final int EXIT_ERRORS = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_FAIL = 3;
    static final int EXIT_INVALID = 4;

    /**
     * @param errors   errors in the run
     * @param breaches thresholds and baseline breached (see {@link Thresholds})
     */
    static Verdict judge(LoadgenOptions options, Report report, long errors, List<String> breaches) {
        List<String> invalid = new ArrayList<>();
        lag(invalid, "server", report.sendLag(), report.stats(Report.END_TO_END), options.maxSendLagMicros());
        lag(invalid, "floor", report.floorSendLag(), report.stats(Report.LOOPBACK_ECHO), options.maxSendLagMicros());
        List<String> failures = new ArrayList<>();
        double scheduled = report.server().scheduledRate();
        double achieved = report.server().achievedRate();
        if (achieved < LoadgenOptions.MIN_RATE_SHARE * scheduled) {
            failures.add(String.format(Locale.ROOT, "achieved %,.0f requests/s, under %.0f%% of the scheduled %,.0f",
                achieved, LoadgenOptions.MIN_RATE_SHARE * 100, scheduled));
        }
        double floorAchieved = report.floor().achievedRate();
        double floorScheduled = report.floor().scheduledRate();
        if (floorAchieved < LoadgenOptions.MIN_RATE_SHARE * floorScheduled) {
            invalid.add(String.format(Locale.ROOT, "the floor phase achieved %,.0f requests/s, under %.0f%% of the "
                + "scheduled %,.0f: the generator could not keep up even with a bare echo", floorAchieved,
                LoadgenOptions.MIN_RATE_SHARE * 100, floorScheduled));
        }
        ProbeStats ack = report.stats("new_ack");
        ProbeStats floor = report.stats(Report.LOOPBACK_ECHO);
        if (options.floorRatio() > 0) {
            if (ack.count() == 0 || floor.count() == 0) {
                failures.add("the floor gate needs new_ack and loopback_echo samples; new_ack has " + ack.count()
                    + ", loopback_echo " + floor.count());
            } else if (ack.p99() > options.floorRatio() * floor.p99()) {
                failures.add(String.format(Locale.ROOT, "new_ack p99 %.1f µs is %.1fx the floor's p99 %.1f µs "
                    + "(gate: %.1fx)", ack.p99(), ack.p99() / floor.p99(), floor.p99(), options.floorRatio()));
            }
        }
        failures.addAll(breaches);

        List<String> reasons = new ArrayList<>();
        if (errors > 0) {
            reasons.add(errors + " errors (missing, unexpected or rejected answers)");
        }
        reasons.addAll(invalid);
        reasons.addAll(failures);
        if (errors > 0) {
            return new Verdict(FAIL, reasons, EXIT_ERRORS);
        }
        if (!invalid.isEmpty()) {
            return new Verdict(INVALID, reasons, EXIT_INVALID);
        }
        if (!failures.isEmpty()) {
            return new Verdict(FAIL, reasons, EXIT_FAIL);
        }
        return new Verdict(PASS, reasons, EXIT_OK);
    }

    /**
     * The generator kept its schedule in a phase when its send-lag p99 is under {@code --max-send-lag} or under
     * {@link LoadgenOptions#SEND_LAG_SHARE} of the phase's own round-trip p99: a send late by that much inflates the
     * p99 it reports by at most that much, so its verdict stands.
     */
    private static void lag(List<String> invalid, String phase, ProbeStats lag, ProbeStats roundTrips,
                            double maxMicros) {
        double bound = Math.max(maxMicros, LoadgenOptions.SEND_LAG_SHARE * roundTrips.p99());
        if (lag.count() == 0) {
            invalid.add("no send lag recorded in the " + phase + " phase: nothing was measured");
        } else if (lag.p99() > bound) {
            invalid.add(String.format(Locale.ROOT, "the generator's send-lag p99 in the %s phase is %.1f µs, above "
                + "its bound of %.1f µs (the larger of --max-send-lag and %.0f%% of the phase's round-trip p99): it "
                + "fell behind its schedule, so its latencies measure itself", phase, lag.p99(), bound,
                LoadgenOptions.SEND_LAG_SHARE * 100));
        }
    }

    /** The report's first line. */
    String headline() {
        return switch (verdict) {
            case INVALID -> "INVALID: the generator did not keep its schedule; these numbers measure the generator, "
                + "not the server";
            case FAIL -> exitCode == EXIT_ERRORS ? "FAIL: errors in the run" : "FAIL: the release gate was breached";
            default -> "PASS";
        };
    }
}
