package io.fixmatch.fix.session;

/**
 * Where a logged-on session's outgoing bytes go: its TCP connection. Used only by the gateway thread that owns the
 * session and the connection.
 */
public interface SessionTransport {
    /** Queues a whole message for the connection, in order; written at the next {@link #flush()}. */
    void send(byte[] message, int offset, int length);

    /** Writes what was queued to the socket; returns the number of bytes handed to it. */
    int flush();

    /** Closes the connection (after what was queued has been written). */
    void disconnect();

    /**
     * The connection carries a session a cluster owns: its bytes are written only under the gateway's write lease
     * (the gateway's own refusals before any session, a Logout numbered 1, are not).
     */
    default void fence() {
    }

    /** Whether {@link #fence} was called. */
    default boolean fenced() {
        return false;
    }

    /**
     * Closes the connection without writing what is queued: the session is no longer this gateway's (a cluster gave
     * it to another), so not one more byte may leave in its name.
     */
    default void abort() {
        disconnect();
    }

    /**
     * Bytes queued for the client and not yet taken by its socket (this cycle's and those the socket refused so far):
     * how far behind a reader is. 0 if unknown.
     */
    default long queuedBytes() {
        return 0;
    }

    /** For logs: the remote address. */
    String remoteAddress();
}
