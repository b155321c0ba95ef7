package io.fixmatch.engine.loop;

import org.agrona.concurrent.IdleStrategy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Back-off for a consumer thread on a machine it shares: when there is no work it spins a little, then yields,
 * then parks; a producer that adds work calls {@link #wake()}, which unparks the consumer only if it is parked, and
 * only once per park (the first producer to see the parked thread takes it with a compare-and-set).
 * So an idle consumer costs no CPU, and work arriving while it sleeps waits for one unpark (a few microseconds),
 * not for a park timeout to expire. The park is bounded ({@code maxParkNanos}) as a safety net.
 *
 * <p>Lost wake-ups cannot happen: the consumer announces it is about to park (a volatile write) and then checks
 * for work once more; a producer makes its work visible (the ring's tail CAS) before it reads the announcement.
 */
public final class WakeableBackoffIdleStrategy implements IdleStrategy {
    private static final int SPINS = 200;
    private static final int YIELDS = 20;

    private static final VarHandle PARKED_THREAD;

    static {
        try {
            PARKED_THREAD = MethodHandles.lookup().findVarHandle(WakeableBackoffIdleStrategy.class, "parkedThread",
                Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final BooleanSupplier hasWork;
    private final long maxParkNanos;
    private final int spins;
    private final int yields;
    private volatile Thread parkedThread;
    private int idleCount;

    public WakeableBackoffIdleStrategy(BooleanSupplier hasWork, long maxParkNanos) {
        this(hasWork, maxParkNanos, SPINS, YIELDS);
    }

    /**
     * With a back-off of its own: {@code spins} spins and then {@code yields} yields before each park (a thread whose
     * work is not worth a core's spinning, as the market data feed's: fewer of both).
     */
    public WakeableBackoffIdleStrategy(BooleanSupplier hasWork, long maxParkNanos, int spins, int yields) {
        this.hasWork = hasWork;
        this.maxParkNanos = maxParkNanos;
        this.spins = spins;
        this.yields = yields;
    }

    /** Producer side: called after adding work. Cheap when the consumer is awake (one volatile read). */
    public void wake() {
        Thread thread = parkedThread;
        if (thread != null && PARKED_THREAD.compareAndSet(this, thread, null)) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            idleCount = 0;
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        int count = idleCount++;
        if (count < spins) {
            Thread.onSpinWait();
        } else if (count < spins + yields) {
            Thread.yield();
        } else {
            parkedThread = Thread.currentThread();
            if (!hasWork.getAsBoolean()) {
                LockSupport.parkNanos(this, maxParkNanos);
            }
            parkedThread = null;
            idleCount = spins; // after a wake-up, yield before parking again
        }
    }

    @Override
    public void reset() {
        idleCount = 0;
    }

    @Override
    public String alias() {
        return "backoff";
    }
}
