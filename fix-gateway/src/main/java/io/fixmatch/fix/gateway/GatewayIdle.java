package io.fixmatch.fix.gateway;

/**
 * What a gateway thread does when a duty cycle finds nothing to do, chosen by name ({@code gateway.idleStrategy}):
 * <ul>
 *   <li>{@code backoff} (default): keeps cycling (and polling the sockets without blocking) for {@link #SPIN_NANOS}
 *       after the last work, then cycles with Thread.yield() until {@link #YIELD_NANOS}, then blocks in
 *       epoll_wait until a socket, a timer or the matching thread wakes it. Costs no CPU when idle.</li>
 *   <li>{@code busy-spin}: never blocks: a dedicated core.</li>
 * </ul>
 */
public enum GatewayIdle {
    BACKOFF("backoff"),
    BUSY_SPIN("busy-spin");

    /** Cycling flat out after the last work: covers the matching thread's answer and the next message of a burst. */
    public static final long SPIN_NANOS = Long.getLong("fixmatch.gateway.spinNanos", 20_000);
    /** Then cycling with yields, giving the CPU to whoever else wants it, before blocking. */
    public static final long YIELD_NANOS = Long.getLong("fixmatch.gateway.yieldNanos", 50_000);

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
