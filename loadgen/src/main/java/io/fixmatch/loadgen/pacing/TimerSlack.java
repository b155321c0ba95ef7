package io.fixmatch.loadgen.pacing;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * Sets the calling thread's timer slack (Linux {@code prctl(PR_SET_TIMERSLACK)}): how late the kernel may fire its
 * timers, parks included, to batch wake-ups; 50 µs by default. Measured on the 2-vCPU VM: a park overshoots by
 * about 76 µs at the median (p99 110 µs) with the default slack, by about 20 µs (p99 30-45 µs) with 1 µs, which lets
 * the pacer park closer to each due time and so spin or yield less. Chronicle Affinity brings JNA, used here.
 * The open-loop prober (benchmarks), otherwise apart from the load generator it cross-checks, sets its sender's here.
 */
public final class TimerSlack {
    private static final int PR_SET_TIMERSLACK = 29;
    private static final int PR_GET_TIMERSLACK = 30;

    private TimerSlack() {
    }

    /** The C library's prctl. */
    public interface C extends Library {
        int prctl(int option, long arg2, long arg3, long arg4, long arg5);
    }

    /** Sets the current thread's timer slack; returns what became of it, for the report. */
    public static String apply(long nanos) {
        if (nanos <= 0) {
            return "left as it was";
        }
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return "not set: not Linux";
        }
        try {
            C c = Native.load("c", C.class);
            if (c.prctl(PR_SET_TIMERSLACK, nanos, 0, 0, 0) != 0) {
                return "not set: prctl refused";
            }
            return "set to " + c.prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0) + " ns";
        } catch (RuntimeException | LinkageError e) {
            return "not set: " + e;
        }
    }
}
