package io.fixmatch.engine.loop;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * How a producer wakes the consumer of a ring that may block elsewhere (the gateway, which sleeps in epoll_wait so
 * that sockets and the ring both wake it). The consumer announces it is about to block and then checks the ring once
 * more before it does; a producer, after publishing, wakes it only if it announced so, and only once per announced
 * sleep: the first producer to see the announcement takes it (a compare-and-set) and runs the wake action; the
 * others, and every event published while the consumer is awake, cost one fence and one volatile read.
 *
 * <p>No wake-up is lost: the consumer writes the announcement (volatile) before it reads the ring; the producer
 * makes its records visible, then a full fence, then reads the announcement. One of the two sees the other.
 */
public final class ConsumerWakeup {
    private static final VarHandle SLEEPING;

    static {
        try {
            SLEEPING = MethodHandles.lookup().findVarHandle(ConsumerWakeup.class, "sleeping", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Runnable wakeAction;
    private volatile int sleeping;
    private long wakeups;

    /** @param wakeAction what interrupts the consumer's blocking wait; run on the producer's thread */
    public ConsumerWakeup(Runnable wakeAction) {
        this.wakeAction = wakeAction;
    }

    /** Consumer: about to block. It must look for work once more after this call, and block only if it finds none. */
    public void announceSleep() {
        sleeping = 1;
    }

    /** Consumer: not (or no longer) blocking. */
    public void awake() {
        if (sleeping != 0) {
            sleeping = 0;
        }
    }

    /** Producer, after publishing: wakes the consumer if it announced a sleep nobody has ended yet. */
    public void wakeIfSleeping() {
        VarHandle.fullFence();
        if (sleeping != 0 && SLEEPING.compareAndSet(this, 1, 0)) {
            wakeups++;
            wakeAction.run();
        }
    }

    /** Wake actions run so far; read by the producer's thread (or after it stopped). */
    public long wakeups() {
        return wakeups;
    }
}
