package io.fixmatch.engine.loop;

import net.openhft.affinity.AffinityLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ThreadFactory;

/**
 * Pins threads to one CPU each with Chronicle Affinity. As a {@link ThreadFactory}: a named thread that pins itself
 * before it runs and releases the CPU when it ends; {@link #pinCurrentThread} pins a thread someone else made (a
 * gateway's event loop). With no CPU configured (negative), or when pinning is impossible, the thread runs unpinned
 * and says so once in the log.
 */
public final class CpuPinning implements ThreadFactory {
    private static final Logger LOG = LoggerFactory.getLogger(CpuPinning.class);

    private final String threadName;
    private final int cpu;

    public CpuPinning(String threadName, int cpu) {
        this.threadName = threadName;
        this.cpu = cpu;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(() -> runPinned(task), threadName);
        thread.setDaemon(false);
        return thread;
    }

    private void runPinned(Runnable task) {
        AffinityLock lock = pinCurrentThread(threadName, cpu);
        try {
            task.run();
        } finally {
            if (lock != null) {
                lock.release();
            }
        }
    }

    /**
     * Pins the calling thread to {@code cpu} (negative: leaves it unpinned); returns the lock to release when the
     * thread no longer needs the CPU, or null if it is not pinned.
     */
    public static AffinityLock pinCurrentThread(String threadName, int cpu) {
        if (cpu < 0) {
            LOG.info("{} runs unpinned: no CPU configured", threadName);
            return null;
        }
        AffinityLock lock;
        try {
            lock = AffinityLock.acquireLock(cpu);
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("{} runs unpinned: pinning to CPU {} failed: {}", threadName, cpu, e.toString());
            return null;
        }
        if (lock.isBound() && lock.cpuId() == cpu) {
            LOG.info("{} pinned to CPU {}", threadName, cpu);
        } else if (lock.isBound()) {
            LOG.warn("{} pinned to CPU {}: CPU {} was not available", threadName, lock.cpuId(), cpu);
        } else {
            LOG.warn("{} runs unpinned: CPU {} could not be reserved ({} CPUs, lock {})", threadName, cpu,
                AffinityLock.PROCESSORS, lock);
        }
        return lock;
    }
}
