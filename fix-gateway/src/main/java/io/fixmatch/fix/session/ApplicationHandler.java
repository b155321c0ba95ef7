package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;

/** What a session does with application messages (orders) and with its log-on state. */
public interface ApplicationHandler {
    /** An in-sequence application message; called under the session's lock on the connection's I/O thread. */
    void onApplicationMessage(FixSession session, FixMessage message);

    /** The session's connection went away, after a Logout or not (cancel-on-disconnect hooks here). */
    void onDisconnected(FixSession session);
}
