package io.fixmatch.fix.gateway;

/**
 * A gateway's strict duty cycle, run by its event loop (the transport's {@code DutyCycleIoHandler}) at the top of every
 * iteration, on the loop thread, before the loop looks at its sockets: this runs the gateway's {@link Gateway#doWork()
 * cycle} and answers whether the loop may then block (until a socket, a task or a timer wakes it) or must only poll its
 * sockets without blocking and come back. The loop then reads what is ready (our {@code channelRead}: frame, session,
 * inbound ring), runs its tasks, and comes back here. So one thread, with no lock, does everything for its sessions,
 * and blocks only after the {@link GatewayIdle idle} phase, having announced the sleep to the matching thread.
 */
public final class DutyCycle {
    private final Gateway gateway;
    private final GatewayIdle idle;
    private final long spinNanos;
    private long lastWorkNanos;

    public DutyCycle(Gateway gateway, GatewayIdle idle) {
        this.gateway = gateway;
        this.idle = idle;
        this.spinNanos = GatewayIdle.spinNanos(gateway.matchesInline());
    }

    /**
     * Runs one cycle. {@code tasksPending}: the event loop has tasks (or timers) due, so it must not block anyway.
     * Returns true if the loop may block now, false if it must only poll.
     */
    public boolean runAndMayBlock(boolean tasksPending) {
        gateway.awake();
        int work;
        try {
            work = gateway.doWork();
        } catch (RuntimeException | AssertionError e) {
            // Netty would log it and stall the loop: report it, and keep serving the other sessions.
            gateway.onCycleFailure(e);
            work = 1;
        }
        if (work > 0 || tasksPending || idle == GatewayIdle.BUSY_SPIN) {
            lastWorkNanos = 0;
            return false;
        }
        long now = System.nanoTime();
        if (lastWorkNanos == 0) {
            lastWorkNanos = now;
        }
        if (now - lastWorkNanos < spinNanos) {
            // No yield here: a yield is a system call that gives nothing back on a machine whose other core is
            // busy, and the sockets may already hold the next message (the loop polls them right after this).
            Thread.onSpinWait();
            return false;
        }
        gateway.announceSleep();
        if (gateway.hasWork()) {
            gateway.awake();
            return false;
        }
        lastWorkNanos = 0;
        return true;
    }
}
