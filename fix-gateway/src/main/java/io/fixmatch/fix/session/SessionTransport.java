package io.fixmatch.fix.session;

/** Where a logged-on session's outgoing bytes go: its TCP connection. */
public interface SessionTransport {
    /** Queues a whole message for the connection, in order; called under the session's lock, from any thread. */
    void send(byte[] message, int offset, int length);

    /** Closes the connection (after what was queued has been written). */
    void disconnect();

    /** For logs: the remote address. */
    String remoteAddress();
}
