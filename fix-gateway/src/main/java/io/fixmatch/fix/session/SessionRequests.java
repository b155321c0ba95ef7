package io.fixmatch.fix.session;

import org.agrona.DirectBuffer;

/**
 * Where a session's requests to a cluster that owns the sessions go ({@code SessionCodec}'s request records: a
 * Logon's claim, a release, a message of its own to number, a resend): to the engine link's inbound ring, in order,
 * never dropped. Called on the session's gateway thread.
 */
public interface SessionRequests {
    void submit(int type, DirectBuffer buffer, int offset, int length);
}
