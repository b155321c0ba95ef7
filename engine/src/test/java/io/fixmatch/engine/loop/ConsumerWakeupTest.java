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
 * sleep, never one per item.
 */
class ConsumerWakeupTest {
    private static final int ITEMS = 200_000;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void noWakeupIsLostAndEachSleepIsWokenOnce() throws Exception {
        Semaphore blocked = new Semaphore(0); // the consumer's "epoll_wait": released by the wake action only
        ConsumerWakeup wakeup = new ConsumerWakeup(blocked::release);
        AtomicLong published = new AtomicLong(); // the "ring": what the producer made visible
        long[] sleeps = {0};
        Thread consumer = new Thread(() -> {
            long taken = 0;
            while (taken < ITEMS) {
                long available = published.get();
                if (available > taken) {
                    taken = available;
                    continue;
                }
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
        assertTrue(wakeup.wakeups() <= sleeps[0] + 1, "one wake per sleep at most: " + wakeup.wakeups()
            + " wake-ups for " + sleeps[0] + " sleeps");
        assertTrue(blocked.availablePermits() <= 1, "no pile of unconsumed wake-ups: " + blocked.availablePermits());
    }
}
