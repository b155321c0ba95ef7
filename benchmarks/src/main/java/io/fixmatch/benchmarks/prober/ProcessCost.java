package io.fixmatch.benchmarks.prober;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What one process (the server, or an echo process) spends over a phase, from its own counters: CPU time (user +
 * system of every thread, ended ones included, from {@code /proc/PID/stat}), page faults (minor and major, the same
 * way), context switches (summed over
 * {@code /proc/PID/task/}{@code *}{@code /status}) and, if asked, system calls (every {@code sys_enter} of its
 * threads, counted by {@code perf stat -e raw_syscalls:sys_enter -p PID}, which must be installed and allowed).
 */
final class ProcessCost {
    /** Linux's USER_HZ: the unit of the CPU times in /proc/PID/stat. */
    private static final double TICKS_PER_SECOND = 100.0;

    private final int pid;
    private final long cpuTicks;
    private final long faults;
    private final long switches;
    private final Process perf;
    private final Path perfOutput;

    private ProcessCost(int pid, long[] stat, long switches, Process perf, Path perfOutput) {
        this.pid = pid;
        this.cpuTicks = stat[0];
        this.faults = stat[1];
        this.switches = switches;
        this.perf = perf;
        this.perfOutput = perfOutput;
    }

    /** What the phase cost the process, per message. */
    record Spent(double cpuSeconds, long faults, long switches, long syscalls, long messages) {
        double cpuMicrosPerMessage() {
            return cpuSeconds * 1e6 / messages;
        }

        double faultsPerMessage() {
            return (double) faults / messages;
        }

        double switchesPerMessage() {
            return (double) switches / messages;
        }

        /** System calls per message, or NaN if they were not counted. */
        double syscallsPerMessage() {
            return syscalls < 0 ? Double.NaN : (double) syscalls / messages;
        }

        String describe() {
            return String.format(Locale.ROOT, "%.2f s CPU, %,d page faults, %,d context switches%s; per message: %.1f us "
                + "CPU, %.3f page faults, %.2f switches%s", cpuSeconds, faults, switches, syscalls < 0 ? ""
                : String.format(Locale.ROOT, ", %,d system calls", syscalls), cpuMicrosPerMessage(), faultsPerMessage(),
                switchesPerMessage(),
                syscalls < 0 ? "" : String.format(Locale.ROOT, ", %.2f system calls", syscallsPerMessage()));
        }
    }

    /** Starts watching {@code pid} (null if pid <= 0): reads its counters, and starts perf if system calls count. */
    static ProcessCost start(int pid, boolean countSyscalls) throws IOException {
        if (pid <= 0) {
            return null;
        }
        Process perf = null;
        Path output = null;
        if (countSyscalls) {
            output = Files.createTempFile("prober-perf-" + pid + "-", ".csv");
            perf = new ProcessBuilder("perf", "stat", "-x", ",", "-e", "raw_syscalls:sys_enter", "-o",
                output.toString(), "-p", Integer.toString(pid)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            awaitAttached(perf, output);
        }
        return new ProcessCost(pid, stat(pid), switches(pid), perf, output);
    }

    /** The counters again, and perf stopped (SIGINT: it writes its count and exits). */
    Spent stop(long messages) throws IOException, InterruptedException {
        long[] stat = stat(pid);
        long ticks = stat[0] - cpuTicks;
        long switchCount = switches(pid) - switches;
        long syscalls = -1;
        if (perf != null) {
            int status = new ProcessBuilder("kill", "-INT", Long.toString(perf.pid())).start().waitFor();
            if (status != 0 || !perf.waitFor(10, TimeUnit.SECONDS)) {
                perf.destroyForcibly();
                throw new IllegalStateException("perf stat -p " + pid + " did not stop");
            }
            syscalls = syscallCount(perfOutput);
            Files.deleteIfExists(perfOutput);
        }
        return new Spent(ticks / TICKS_PER_SECOND, stat[1] - faults, switchCount, syscalls, messages);
    }

    /**
     * perf attaches to the process's threads once started; a phase that began before it would go partly uncounted.
     * It has nothing to say until then, so wait a moment, and fail if it ended already (not installed, not allowed).
     */
    private static void awaitAttached(Process perf, Path output) throws IOException {
        try {
            if (perf.waitFor(300, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("perf stat ended at once (exit " + perf.exitValue() + "): "
                    + Files.readString(output).trim() + " (is perf installed, perf_event_paranoid low enough?)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            perf.destroyForcibly();
            throw new IllegalStateException("interrupted while starting perf", e);
        }
    }

    /** perf's CSV: "count,unit,event,..."; "<not counted>" or "<not supported>" is an error. */
    private static long syscallCount(Path output) throws IOException {
        for (String line : Files.readAllLines(output)) {
            String[] fields = line.split(",");
            if (fields.length > 2 && fields[2].startsWith("raw_syscalls:sys_enter")) {
                try {
                    return Long.parseLong(fields[0]);
                } catch (NumberFormatException e) {
                    throw new IllegalStateException("perf could not count system calls: " + line, e);
                }
            }
        }
        throw new IllegalStateException("no system call count in perf's output: " + Files.readString(output));
    }

    /** utime + stime, and minflt + majflt, of the whole process (its ended threads included). */
    private static long[] stat(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields from the 3rd (state): minflt is the 10th, majflt the 12th, utime the 14th, stime the 15th
            return new long[] {Long.parseLong(fields[11]) + Long.parseLong(fields[12]),
                Long.parseLong(fields[7]) + Long.parseLong(fields[9])};
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/" + pid + "/stat", e);
        }
    }

    /** Voluntary and involuntary context switches of the threads alive now. */
    private static long switches(int pid) {
        long total = 0;
        try (var tasks = Files.list(Path.of("/proc", Integer.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")
                            || line.startsWith("nonvoluntary_ctxt_switches:")) {
                            total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // a thread ended while we read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/" + pid + "/task", e);
        }
        return total;
    }
}
