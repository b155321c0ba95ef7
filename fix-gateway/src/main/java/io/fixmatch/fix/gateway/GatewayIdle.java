package io.fixmatch.fix.gateway;

/**
 * What a gateway thread does when a duty cycle finds nothing to do, chosen by name ({@code gateway.idleStrategy}):
 * <ul>
 *   <li>{@code backoff} (default): keeps cycling (and polling the sockets without blocking) for {@link #SPIN_NANOS}
 *       after the last work, then blocks in the transport's wait (io_uring_enter, epoll_wait) until a socket, a timer
 *       or the matching thread wakes it. No yields: costs no CPU when idle.</li>
 *   <li>{@code busy-spin}: never blocks: a dedicated core.</li>
 * </ul>
 */
public enum GatewayIdle {
    BACKOFF("backoff"),
    BUSY_SPIN("busy-spin");

    /**
     * Cycling flat out after the last work before blocking: covers the matching thread's answer (two-threads) and
     * the rest of a burst already on its way. Short, because every microsecond spun is CPU taken from the other
     * threads of a small machine at every message (docs/PERFORMANCE.md, "Cost per order").
     */
    public static final long SPIN_NANOS = Long.getLong("fixmatch.gateway.spinNanos", 20_000);

    private final String configName;

    GatewayIdle(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
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
