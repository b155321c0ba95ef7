package io.fixmatch.fix.gateway;

import io.netty.channel.SelectStrategy;
import io.netty.util.IntSupplier;

/**
 * Turns a Netty event loop into a gateway's strict duty cycle. Netty's epoll (and NIO) event loop calls
 * {@link #calculateStrategy} at the top of every iteration, on the loop thread, and then, by its answer, polls the
 * sockets without blocking ({@code selectNow}, a count of ready sockets), or blocks in epoll_wait ({@code SELECT})
 * until a socket, a scheduled task or a submitted task wakes it; it then reads the ready sockets (our
 * {@code channelRead}: frame, session, inbound ring) and runs its task queue, and comes back here. So one thread, with
 * no lock, does everything for its sessions: this method runs the gateway's {@link Gateway#doWork() cycle}, and
 * blocks only after the {@link GatewayIdle idle} phase, having announced the sleep to the matching thread.
 */
public final class DutyCycle implements SelectStrategy {
    private final Gateway gateway;
    private final GatewayIdle idle;
    private long lastWorkNanos;

    public DutyCycle(Gateway gateway, GatewayIdle idle) {
        this.gateway = gateway;
        this.idle = idle;
    }

    @Override
    public int calculateStrategy(IntSupplier selectSupplier, boolean hasTasks) throws Exception {
        gateway.awake();
        int work;
        try {
            work = gateway.doWork();
        } catch (RuntimeException | AssertionError e) {
            // Netty would log it and stall the loop for a second: report it, and keep serving the other sessions.
            gateway.onCycleFailure(e);
            work = 1;
        }
        if (work > 0 || hasTasks || idle == GatewayIdle.BUSY_SPIN) {
            lastWorkNanos = 0;
            return selectSupplier.get();
        }
        long now = System.nanoTime();
        if (lastWorkNanos == 0) {
            lastWorkNanos = now;
        }
        long idleNanos = now - lastWorkNanos;
        if (idleNanos < GatewayIdle.SPIN_NANOS) {
            Thread.onSpinWait();
            return selectSupplier.get();
        }
        if (idleNanos < GatewayIdle.YIELD_NANOS) {
            Thread.yield();
            return selectSupplier.get();
        }
        gateway.announceSleep();
        if (gateway.hasWork()) {
            gateway.awake();
            return selectSupplier.get();
        }
        lastWorkNanos = 0;
        return SelectStrategy.SELECT;
    }
}
