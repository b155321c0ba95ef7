package io.fixmatch.it.crash;

/**
 * What a {@link ClusterCrashRun} tells whoever watches more of the venue than its checks do (its binary feed, say),
 * at the moments that matter to them. Each does nothing unless overridden.
 */
interface RunObserver {
    RunObserver NONE = new RunObserver() {
    };

    /** The traders' gateway, made and not yet started: its settings may be changed. */
    default void gatewayMade(ClusterVenue.Gateway gateway) {
    }

    /** The traders are logged on and their flow runs; no disruption yet. */
    default void flowStarted(ClusterVenue venue) throws Exception {
    }

    /** A node is about to be disrupted. */
    default void disrupting() {
    }

    /** The disrupted node is back. */
    default void disrupted() {
    }

    /**
     * The flow has ended ({@code stoppedNanos}: when, on {@link System#nanoTime}), every request is answered, and the
     * nodes have caught up and hold the same books; the venue still runs.
     */
    default void flowEnded(ClusterVenue venue, long stoppedNanos) throws Exception {
    }
}
