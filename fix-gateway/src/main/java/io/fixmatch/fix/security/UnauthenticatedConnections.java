package io.fixmatch.fix.security;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many open connections have not logged on yet, across every gateway thread, and the cap on them: a connection
 * beyond it is closed as soon as it is accepted, so that connections that never log on (a scan, a flood of idle
 * sockets) cannot exhaust the server's descriptors and buffers before the logon timeout closes them. Touched when a
 * connection opens, logs on or closes; never on the order path.
 */
public final class UnauthenticatedConnections {
    private final int max;
    private final AtomicInteger open = new AtomicInteger();

    public UnauthenticatedConnections(int max) {
        this.max = max;
    }

    /** Counts a new connection in, unless the cap is reached (then it must be closed, and is not counted). */
    public boolean tryAdmit() {
        while (true) {
            int current = open.get();
            if (current >= max) {
                return false;
            }
            if (open.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** An admitted connection logged on or closed: it no longer counts. Once per admitted connection. */
    public void release() {
        open.decrementAndGet();
    }

    /** Any thread: how many there are now. */
    public int count() {
        return open.get();
    }

    public int max() {
        return max;
    }
}
