package io.fixmatch.fix.transport;

import io.fixmatch.fix.gateway.DutyCycle;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.GatewayIdle;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.RejectedExecutionHandlers;
import io.netty.util.concurrent.ThreadPerTaskExecutor;
import io.netty.util.internal.PlatformDependent;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateways' event loops, one per gateway and in its order: each one the transport's handler of its sockets with
 * the gateway's {@link DutyCycle} in front ({@link DutyCycleIoHandler}), and task queues that are bounded and
 * allocated up front, so that the matching thread's wake-up task allocates nothing.
 */
final class GatewayLoops extends MultiThreadIoEventLoopGroup {
    /** Each loop's task queue. Tasks are rare (a wake-up per sleep, registrations, shutdown), never near this many. */
    private static final int TASK_QUEUE_CAPACITY = 1 << 16;
    /** Netty's tail tasks (run after each iteration's tasks): none of ours. */
    private static final int TAIL_TASK_QUEUE_CAPACITY = 1 << 10;

    private GatewayLoops(int threads, Executor executor, IoHandlerFactory handlers) {
        super(threads, executor, handlers);
    }

    /**
     * One loop per gateway. Netty creates a group's loops one after the other, and each loop asks the factory for its
     * handler as it is created, so loop {@code i} gets gateway {@code i}'s duty cycle.
     */
    static GatewayLoops start(Transport transport, List<Gateway> gateways, GatewayIdle idle) {
        IoHandlerFactory sockets = transport.ioHandlerFactory();
        AtomicInteger created = new AtomicInteger();
        IoHandlerFactory handlers = executor -> new DutyCycleIoHandler(sockets.newHandler(executor),
            new DutyCycle(gateways.get(created.getAndIncrement()), idle));
        return new GatewayLoops(gateways.size(), new ThreadPerTaskExecutor(new DefaultThreadFactory("gateway")),
            handlers);
    }

    @Override
    protected IoEventLoop newChild(Executor executor, IoHandlerFactory handlers, Object... args) {
        return new Loop(this, executor, handlers);
    }

    private static final class Loop extends SingleThreadIoEventLoop {
        Loop(IoEventLoopGroup parent, Executor executor, IoHandlerFactory handlers) {
            super(parent, executor, handlers, PlatformDependent.newFixedMpscQueue(TASK_QUEUE_CAPACITY),
                PlatformDependent.newFixedMpscQueue(TAIL_TASK_QUEUE_CAPACITY), RejectedExecutionHandlers.reject());
        }
    }
}
