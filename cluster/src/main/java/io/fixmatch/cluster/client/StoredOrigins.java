package io.fixmatch.cluster.client;

/**
 * What the gateway's session stores hold, asked about the events the cluster sends again after a restart: whether the
 * store of {@code owner} (the session, or the drop-copy session a copy is for) already holds the report of the event
 * with this origin. Answered from what the stores held at start, so any thread may ask.
 */
@FunctionalInterface
public interface StoredOrigins {
    boolean holds(int owner, long originPosition, int originOrdinal);

    StoredOrigins NONE = (owner, position, ordinal) -> false;
}
