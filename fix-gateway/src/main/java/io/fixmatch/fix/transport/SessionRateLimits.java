package io.fixmatch.fix.transport;

import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRegistry;

/**
 * Each session's inbound {@link MessageRateLimit}, kept across its connections, so that logging on again does not
 * refill the allowance (a flooder that reconnects gets no more than one that stays). A session's entry is created
 * and used only by the gateway thread that owns the session (connections move there before their Logon is
 * handled): one writer per entry, no lock.
 */
final class SessionRateLimits {
    private final MessageRateLimit[] byOwner;

    SessionRateLimits(SessionRegistry registry) {
        // by owner id: a cluster gateway serves some of the sessions, whose owner ids may run past their count
        this.byOwner = new MessageRateLimit[registry.maxOwnerId()];
    }

    /** The session's limit (created at its first Logon). Its gateway thread only. */
    MessageRateLimit of(FixSession session, long nowMs) {
        int index = session.ownerId() - 1;
        MessageRateLimit limit = byOwner[index];
        if (limit == null) {
            limit = new MessageRateLimit(session.config().maxMessagesPerSecond(), nowMs);
            byOwner[index] = limit;
        }
        return limit;
    }
}
