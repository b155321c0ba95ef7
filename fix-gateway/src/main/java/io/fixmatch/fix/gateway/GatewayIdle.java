package io.fixmatch.fix.gateway;

/**
 * What a gateway thread does when a duty cycle finds nothing to do, chosen by name ({@code gateway.idleStrategy}):
 * <ul>
 *   <li>{@code backoff} (default): keeps cycling (and polling the sockets without blocking) for a while after the
 *       last work ({@link #spinNanos}), then blocks in the transport's wait (epoll_wait, io_uring_enter) until a
 *       socket, a timer or the matching thread wakes it. No yields: costs no CPU when idle.</li>
 *   <li>{@code busy-spin}: never blocks: a dedicated core.</li>
 * </ul>
 */
public enum GatewayIdle {
    BACKOFF("backoff"),
    BUSY_SPIN("busy-spin");

    /** {@code -Dfixmatch.gateway.spinNanos}: the spin below for every layout, if set. */
    private static final long SPIN_NANOS_SET = Long.getLong("fixmatch.gateway.spinNanos", -1);

    private final String configName;

    GatewayIdle(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    /**
     * How long a {@code backoff} gateway keeps cycling after its last work before it blocks. When it runs the matching
     * step itself (one-thread) nothing can arrive but through its sockets, whose wait returns at once when one is
     * ready, so it blocks at once: a spin between messages is CPU the rest of a small machine needs, at every message
     * (docs/PERFORMANCE.md, "Cost per order": 42 -> 25 µs per message at 5,000/s). With a matching thread of its own
     * (two-threads) it spins 20 µs, which covers the matching thread's answer without a wake-up per message.
     * {@code -Dfixmatch.gateway.spinNanos=N} sets it for both.
     */
    public static long spinNanos(boolean matchesInline) {
        if (SPIN_NANOS_SET >= 0) {
            return SPIN_NANOS_SET;
        }
        return matchesInline ? 0 : 20_000;
    }

    public static GatewayIdle byName(String name) {
        for (GatewayIdle idle : values()) {
            if (idle.configName.equals(name)) {
                return idle;
            }
        }
        throw new IllegalArgumentException("unknown gateway idle strategy '" + name + "' (backoff, busy-spin)");
    }
}
