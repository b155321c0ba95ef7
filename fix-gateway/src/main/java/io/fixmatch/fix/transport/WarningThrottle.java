package io.fixmatch.fix.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * At most one log line per interval for a warning that an attacker can repeat at will (refused connections): the
 * line that is allowed says how many were not logged since the last one. WARN lines are never dropped by the
 * logging queue (they wait for room), so without this a flood of connections would make the gateway threads wait
 * on the log. Any thread.
 */
final class WarningThrottle {
    private final long intervalMs;
    private final AtomicLong nextAllowedMs = new AtomicLong();
    private final AtomicLong suppressed = new AtomicLong();

    WarningThrottle(long intervalMs) {
        this.intervalMs = intervalMs;
    }

    /**
     * Whether to log now; if so, {@link #takeSuppressed()} gives the count of the occurrences not logged since the
     * last line.
     */
    boolean allow(long nowMs) {
        long next = nextAllowedMs.get();
        if (nowMs >= next && nextAllowedMs.compareAndSet(next, nowMs + intervalMs)) {
            return true;
        }
        suppressed.incrementAndGet();
        return false;
    }

    long takeSuppressed() {
        return suppressed.getAndSet(0);
    }
}
