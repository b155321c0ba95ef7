package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;

/** What a session does with application messages (orders) and with its log-on state; on the session's thread. */
public interface ApplicationHandler {
    /** An in-sequence application message; {@code nowMs} is the gateway cycle's wall clock. */
    void onApplicationMessage(FixSession session, FixMessage message, long nowMs);

    /** The session's connection went away, after a Logout or not (cancel-on-disconnect hooks here). */
    void onDisconnected(FixSession session);

    /**
     * A cluster that owns the sessions gave this session to another gateway (this one was silent too long): its
     * connection here is dropped without a word, and it goes on elsewhere, so nothing is canceled for it.
     */
    default void onMoved(FixSession session) {
    }
}
