package io.fixmatch.fix.gateway;

/**
 * Until when a gateway of a cluster that owns the sessions may write its sessions' bytes: the cluster lets another
 * gateway take a session over only after this one has been silent for the gateway timeout, so this one writes only
 * while it has heard from the cluster recently enough, counted from when it last spoke (the lease the cluster link
 * publishes, in order after everything the cluster said before, a session taken away included). A gateway frozen,
 * partitioned or cut off from the cluster so holds its bytes, and after a takeover never sends one for the session
 * it lost: it learns of the loss before its lease allows another write. Standalone gateways have none.
 *
 * <p>Read and extended on the gateway thread only.
 */
public final class WriteLease {
    private long untilNanos;
    private long heldCycles;

    /** A lease the cluster extends: nothing may be written until it first does. */
    public WriteLease() {
    }

    /** The cluster allows writes until {@code untilNanos} ({@link System#nanoTime()}); never shortens it. */
    public void extend(long untilNanos) {
        if (untilNanos > this.untilNanos) {
            this.untilNanos = untilNanos;
        }
    }

    /** Whether bytes may be written now. */
    public boolean allows(long nowNanos) {
        return nowNanos < untilNanos;
    }

    /** A cycle held its writes for want of a lease. */
    void held() {
        heldCycles++;
    }

    /** The duty cycles whose writes were held for want of a lease (the cluster silent, or this process frozen). */
    public long heldCycles() {
        return heldCycles;
    }
}
