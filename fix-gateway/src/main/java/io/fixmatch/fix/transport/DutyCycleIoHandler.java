package io.fixmatch.fix.transport;

import io.fixmatch.fix.gateway.DutyCycle;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoRegistration;

/**
 * A gateway's event loop: the transport's own {@link IoHandler} (io_uring, epoll or NIO) with the gateway's
 * {@link DutyCycle} in front. Netty's event loop calls {@link #run} once per iteration, then runs its tasks; here the
 * cycle runs first and decides whether the transport may block waiting for its sockets (and the loop's wake-ups and
 * timers) or only looks at what is ready without blocking. Everything else is the transport's.
 */
final class DutyCycleIoHandler implements IoHandler {
    private final IoHandler transport;
    private final DutyCycle cycle;
    private final PollOnly pollOnly = new PollOnly();

    DutyCycleIoHandler(IoHandler transport, DutyCycle cycle) {
        this.transport = transport;
        this.cycle = cycle;
    }

    @Override
    public int run(IoHandlerContext context) {
        if (cycle.runAndMayBlock(!context.canBlock())) {
            return transport.run(context);
        }
        pollOnly.loop = context;
        return transport.run(pollOnly);
    }

    @Override
    public void initialize() {
        transport.initialize();
    }

    @Override
    public void prepareToDestroy() {
        transport.prepareToDestroy();
    }

    @Override
    public void destroy() {
        transport.destroy();
    }

    @Override
    public IoRegistration register(IoHandle handle) throws Exception {
        return transport.register(handle);
    }

    @Override
    public void wakeup() {
        transport.wakeup();
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return transport.isCompatible(handleType);
    }

    /** The loop's context, but the transport must not block: it polls what is ready and returns. */
    private static final class PollOnly implements IoHandlerContext {
        private IoHandlerContext loop;

        @Override
        public boolean canBlock() {
            return false;
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return loop.delayNanos(currentTimeNanos);
        }

        @Override
        public long deadlineNanos() {
            return loop.deadlineNanos();
        }

        @Override
        public void reportActiveIoTime(long activeNanos) {
            loop.reportActiveIoTime(activeNanos);
        }

        @Override
        public boolean shouldReportActiveIoTime() {
            return loop.shouldReportActiveIoTime();
        }
    }
}
