package io.fixmatch.fix.session;

/**
 * A logged-on session's timers: when a Heartbeat is due (nothing sent for HeartBtInt), when a TestRequest is due
 * (nothing received for HeartBtInt plus a fifth), when the client has not answered it (within HeartBtInt more), when
 * our Logout has gone unanswered ({@code logoutTimeoutMs}). Says what the timer tick calls for; the session acts.
 * The owning thread's only.
 */
final class HeartbeatMonitor {
    /** Nothing to do. */
    static final int NOTHING = 0;
    /** Our Logout was not answered in time: disconnect. */
    static final int LOGOUT_UNANSWERED = 1;
    /** Our TestRequest was not answered in time: log out and disconnect. */
    static final int TEST_REQUEST_UNANSWERED = 2;
    /** Nothing received for a while: send a TestRequest. */
    static final int TEST_REQUEST_DUE = 3;
    /** Nothing sent for HeartBtInt: send a Heartbeat. */
    static final int HEARTBEAT_DUE = 4;

    private final long logoutTimeoutMs;
    /** HeartBtInt in ms, as the client's Logon asked; 0: no heartbeats. */
    private long intervalMs;
    private long lastReceivedMs;
    private long testRequestSentMs;
    private long logoutSentMs;

    HeartbeatMonitor(long logoutTimeoutMs) {
        this.logoutTimeoutMs = logoutTimeoutMs;
    }

    /** The Logon's HeartBtInt. */
    void interval(long heartbeatSeconds) {
        intervalMs = heartbeatSeconds * 1000;
    }

    long intervalMs() {
        return intervalMs;
    }

    /** A message the session acts on arrived: the peer is alive, and any TestRequest answered. */
    void received(long nowMs) {
        lastReceivedMs = nowMs;
        testRequestSentMs = 0;
    }

    /** Something arrived that the session does not act on (garbled, over the rate limit): the peer is alive. */
    void heardFrom(long nowMs) {
        lastReceivedMs = nowMs;
    }

    void logoutSent(long nowMs) {
        logoutSentMs = nowMs;
    }

    void testRequestSent(long nowMs) {
        testRequestSentMs = nowMs;
    }

    /**
     * What a timer tick at {@code nowMs} calls for, our last message written at {@code lastSentMs}, with our Logout
     * sent ({@code logoutSent}) or not. One thing at most: whatever it sends counts as sent now, so no Heartbeat
     * follows it in the same tick.
     */
    int due(long nowMs, long lastSentMs, boolean logoutSent) {
        if (logoutSent) {
            return nowMs - logoutSentMs >= logoutTimeoutMs ? LOGOUT_UNANSWERED : NOTHING;
        }
        if (intervalMs == 0) {
            return NOTHING;
        }
        if (testRequestSentMs != 0) {
            if (nowMs - testRequestSentMs >= intervalMs) {
                return TEST_REQUEST_UNANSWERED;
            }
        } else if (nowMs - lastReceivedMs >= intervalMs + intervalMs / 5) {
            return TEST_REQUEST_DUE;
        }
        return nowMs - lastSentMs >= intervalMs ? HEARTBEAT_DUE : NOTHING;
    }
}
