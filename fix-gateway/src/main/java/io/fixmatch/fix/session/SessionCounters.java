package io.fixmatch.fix.session;

import io.fixmatch.engine.metrics.CounterArray;

/**
 * The messages of one session, counted by its owning gateway thread and read by any thread (the metrics): every
 * message received on the session's connection once it is logged on (the Logon included) and every message written
 * to its connection (resends included; reports numbered and stored while it is disconnected count when resent).
 */
public final class SessionCounters {
    private static final int RECEIVED = 0;
    private static final int SENT = 1;

    private final CounterArray counters = new CounterArray(2);

    void received() {
        counters.increment(RECEIVED);
    }

    void sent() {
        counters.increment(SENT);
    }

    public long messagesReceived() {
        return counters.get(RECEIVED);
    }

    public long messagesSent() {
        return counters.get(SENT);
    }
}
