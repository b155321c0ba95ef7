package io.fixmatch.fix.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MessageRateLimitTest {
    @Test
    void aBurstOfOneSecondsAllowanceThenTheRate() {
        MessageRateLimit limit = new MessageRateLimit(100, 0);
        for (int i = 0; i < 100; i++) {
            assertEquals(MessageRateLimit.ACCEPT, limit.onMessage(0), "message " + i + " of the burst");
        }
        assertEquals(MessageRateLimit.REJECT, limit.onMessage(0));
        assertTrue(limit.firstRejectInWindow());
        assertEquals(MessageRateLimit.ACCEPT, limit.onMessage(10), "10 ms later: one more message's worth");
        assertEquals(MessageRateLimit.REJECT, limit.onMessage(10));
        assertEquals(2, limit.rejectedTotal());
    }

    @Test
    void sendingAtTheRateIsNeverRejected() {
        MessageRateLimit limit = new MessageRateLimit(1000, 0);
        for (long ms = 0; ms < 10_000; ms++) {
            assertEquals(MessageRateLimit.ACCEPT, limit.onMessage(ms), "at " + ms + " ms");
        }
    }

    @Test
    void rejectsReachingTheRateWithinOneSecondDisconnect() {
        MessageRateLimit limit = new MessageRateLimit(50, 0);
        for (int i = 0; i < 50; i++) {
            limit.onMessage(0);
        }
        for (int i = 1; i < 50; i++) {
            assertEquals(MessageRateLimit.REJECT, limit.onMessage(0), "rejected " + i);
        }
        assertEquals(MessageRateLimit.DISCONNECT, limit.onMessage(0), "the 50th rejected message in one second");
    }

    @Test
    void rejectsSpreadOverSecondsDoNotDisconnect() {
        MessageRateLimit limit = new MessageRateLimit(10, 0);
        for (long second = 0; second < 20; second++) {
            long ms = second * 1000;
            for (int i = 0; i < 10; i++) {
                assertEquals(MessageRateLimit.ACCEPT, limit.onMessage(ms));
            }
            for (int i = 0; i < 9; i++) {
                assertEquals(MessageRateLimit.REJECT, limit.onMessage(ms), "second " + second);
            }
        }
    }

    @Test
    void zeroMeansNoLimit() {
        MessageRateLimit limit = new MessageRateLimit(0, 0);
        for (int i = 0; i < 1_000_000; i++) {
            assertEquals(MessageRateLimit.ACCEPT, limit.onMessage(0));
        }
    }

    @Test
    void afterADisconnectLogonsWaitTheCoolDown() {
        MessageRateLimit limit = new MessageRateLimit(10, 0);
        for (int i = 0; i < 10; i++) {
            limit.onMessage(0);
        }
        int verdict = MessageRateLimit.REJECT;
        for (int i = 0; i < 10 && verdict != MessageRateLimit.DISCONNECT; i++) {
            verdict = limit.onMessage(5);
        }
        assertEquals(MessageRateLimit.DISCONNECT, verdict);
        assertEquals(MessageRateLimit.REJECT, limit.onLogon(500), "tokens refilled, but within the cool-down");
        assertEquals(MessageRateLimit.ACCEPT, limit.onLogon(5 + MessageRateLimit.COOL_DOWN_MS));
    }
}
