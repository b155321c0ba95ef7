package io.fixmatch.engine.loop;

import net.openhft.affinity.AffinityLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ThreadFactory;

/**
 * Creates a named thread that pins itself to one CPU with Chronicle Affinity before it runs, and releases the CPU
 * when it ends. With no CPU configured (negative), or when pinning is impossible, the thread runs unpinned and
 * says so once in the log.
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
        if (cpu < 0) {
            LOG.info("{} runs unpinned: no CPU configured", threadName);
            task.run();
            return;
        }
        AffinityLock lock = null;
        try {
            lock = AffinityLock.acquireLock(cpu);
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("{} runs unpinned: pinning to CPU {} failed: {}", threadName, cpu, e.toString());
        }
        try {
            if (lock != null && lock.isBound() && lock.cpuId() == cpu) {
                LOG.info("{} pinned to CPU {}", threadName, cpu);
            } else if (lock != null && lock.isBound()) {
                LOG.warn("{} pinned to CPU {}: CPU {} was not available", threadName, lock.cpuId(), cpu);
            } else if (lock != null) {
                LOG.warn("{} runs unpinned: CPU {} could not be reserved ({} CPUs, lock {})", threadName, cpu,
                    AffinityLock.PROCESSORS, lock);
            }
            task.run();
        } finally {
            if (lock != null) {
                lock.release();
            }
        }
    }
}
