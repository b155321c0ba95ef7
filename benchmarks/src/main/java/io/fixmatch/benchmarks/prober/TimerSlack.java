package io.fixmatch.benchmarks.prober;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Linux's timer slack of the calling thread: how late the kernel may fire its timed sleeps so as to batch wake-ups
 * (50 µs by default). A sender that parks between messages 22 µs apart needs it near zero, or every park overshoots.
 * Set through {@code /proc/<tid>/timerslack_ns} (the thread's id read from {@code /proc/thread-self}).
 */
final class TimerSlack {
    private TimerSlack() {
    }

    /** Sets the calling thread's timer slack to 1 ns; returns what it is afterwards, or why it could not be read. */
    static String setForThisThread() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self")); // "<pid>/task/<tid>"
            Path slack = Path.of("/proc", self.getFileName().toString(), "timerslack_ns");
            Files.writeString(slack, "1");
            return Files.readString(slack).trim() + " ns";
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "unchanged (" + e + ")";
        }
    }
}
