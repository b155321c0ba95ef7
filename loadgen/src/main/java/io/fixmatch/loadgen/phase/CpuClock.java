package io.fixmatch.loadgen.phase;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** The generator's own CPU time: the whole process's, and the calling thread's. */
final class CpuClock {
    private CpuClock() {
    }

    /** CPU time of this process so far, ns; -1 where the JVM cannot tell. */
    static long processNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    /** CPU time of the calling thread so far, ns; -1 where the JVM cannot tell. */
    static long threadNanos() {
        var threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
    }
}
