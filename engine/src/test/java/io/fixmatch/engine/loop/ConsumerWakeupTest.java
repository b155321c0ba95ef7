package io.fixmatch.engine.loop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The announce-sleep protocol between a producer and a consumer that blocks elsewhere: no wake-up is ever lost (the
 * consumer, blocking without a timeout, always gets every item), and there is at most one wake-up per announced
 * sleep, never one per item. A wake-up may land after the consumer's second look already found work (the producer
 * took the announcement first); then the consumer's next block returns at once, as epoll_wait does after an eventfd
 * write, so the wake here coalesces like an eventfd: at most one pending.
 */
class ConsumerWakeupTest {
    private static final int ITEMS = 200_000;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void noWakeupIsLostAndEachSleepIsWokenOnce() throws Exception {
        Semaphore blocked = new Semaphore(0); // the consumer's "epoll_wait": released by the wake action only
        ConsumerWakeup wakeup = new ConsumerWakeup(() -> {
            if (blocked.availablePermits() == 0) { // only this (producer) thread releases: at most one pending
                blocked.release();
            }
        });
        AtomicLong published = new AtomicLong(); // the "ring": what the producer made visible
        long[] announcements = {0};
        long[] sleeps = {0};
        Thread consumer = new Thread(() -> {
            long taken = 0;
            while (taken < ITEMS) {
                long available = published.get();
                if (available > taken) {
                    taken = available;
                    continue;
                }
                announcements[0]++;
                wakeup.announceSleep();
                if (published.get() > taken) { // the second look, after the announcement
                    wakeup.awake();
                    continue;
                }
                sleeps[0]++;
                blocked.acquireUninterruptibly(); // no timeout: a lost wake-up hangs the test
                wakeup.awake();
            }
        }, "consumer");
        consumer.start();
        for (int i = 1; i <= ITEMS; i++) {
            published.lazySet(i); // a release store, like the ring's commit
            wakeup.wakeIfSleeping();
            if (i % 64 == 0) {
                Thread.yield(); // let the consumer fall asleep now and then
            }
        }
        consumer.join(TimeUnit.SECONDS.toMillis(50));
        assertTrue(!consumer.isAlive(), "the consumer got every item (a lost wake-up would leave it blocked)");
        assertTrue(sleeps[0] > 0, "the consumer did sleep: the test exercised the wake path");
        assertTrue(wakeup.wakeups() <= announcements[0], "one wake per announced sleep at most: " + wakeup.wakeups()
            + " wake-ups for " + announcements[0] + " announcements (" + sleeps[0] + " real blocks)");
        assertTrue(wakeup.wakeups() < ITEMS / 2, "never one wake per item: " + wakeup.wakeups());
    }
}
