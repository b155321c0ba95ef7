package io.fixmatch.server.admin;

/**
 * Where the server is in its life, for {@code GET /health}: ready only once recovery is done and the FIX port is
 * open, and no longer once a shutdown has begun. Written by the thread that starts or stops the server, read by
 * the admin endpoint's thread.
 */
public final class Readiness {
    /** The server's phases, in order. */
    public enum State {
        /** Opening the journal and the session stores. */
        STARTING,
        /** Replaying the journal into the books; the FIX port is not open yet. */
        RECOVERING,
        /** The FIX port is open and the books are whole. */
        READY,
        /** Shutting down: sessions are logged out, the engine finishes, the journal closes. */
        STOPPING;

        /** The name {@code /health} reports. */
        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private volatile State state = State.STARTING;

    public void set(State next) {
        state = next;
    }

    public State state() {
        return state;
    }

    public boolean isReady() {
        return state == State.READY;
    }
}
