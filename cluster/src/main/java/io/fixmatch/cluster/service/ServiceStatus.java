package io.fixmatch.cluster.service;

import io.fixmatch.cluster.protocol.ProtocolVersion;

/**
 * What the matching service shows other threads of its node (the admin endpoint, metrics): one writer, the service
 * thread; plain volatile reads. Nothing here is replicated state.
 */
public final class ServiceStatus {
    volatile String role = "FOLLOWER";
    volatile long commandSequence;
    volatile long journalHeldThrough;
    volatile long logPosition;
    volatile long ignoredCommands;
    volatile long refusedHellos;
    volatile long droppedEgress;
    volatile long resentBatches;
    volatile long windowBytes;
    volatile long lostBatches;
    volatile long snapshots;
    volatile boolean started;
    volatile String startFailure;
    volatile String journalFailure;
    volatile int leaderMemberId = -1;
    volatile long leadershipTermId = -1;
    volatile int termProtocolVersion = -1;

    /** The node's role as the service last heard it: LEADER, FOLLOWER or CANDIDATE. */
    public String role() {
        return role;
    }

    /** Commands applied (the last command sequence). */
    public long commandSequence() {
        return commandSequence;
    }

    /** The last command this node's own journal holds. */
    public long journalHeldThrough() {
        return journalHeldThrough;
    }

    /** The log position of the last message applied. */
    public long logPosition() {
        return logPosition;
    }

    /** Gateway commands not applied: repeats of applied ones (re-offers after a leader change), or malformed. */
    public long ignoredCommands() {
        return ignoredCommands;
    }

    public long refusedHellos() {
        return refusedHellos;
    }

    /** Egress batches this node, as leader, could not hand to a gateway (it asks for them again). */
    public long droppedEgress() {
        return droppedEgress;
    }

    /** Egress batches sent again (a gateway resuming after a leader change, or saying hello after a restart). */
    public long resentBatches() {
        return resentBatches;
    }

    /** Bytes of unacknowledged egress held for all gateways. */
    public long windowBytes() {
        return windowBytes;
    }

    /** Egress batches dropped unacknowledged because a gateway stayed away longer than its window holds. */
    public long lostBatches() {
        return lostBatches;
    }

    /** Snapshots this node's service has written. */
    public long snapshots() {
        return snapshots;
    }

    /** Why the service could not start (its state from another configuration, say), or null. */
    public String startFailure() {
        return startFailure;
    }

    /** Why this node's own journal stopped taking commands (a full disk, say): the node must stop; or null. */
    public String journalFailure() {
        return journalFailure;
    }

    /** The leader of the current term as the log announced it (-1: none yet). */
    public int leaderMemberId() {
        return leaderMemberId;
    }

    public long leadershipTermId() {
        return leadershipTermId;
    }

    /** Whether the service has started (its state restored). */
    public boolean started() {
        return started;
    }

    /** The protocol version this node speaks to gateways ({@code ProtocolVersion.CURRENT}). */
    public int protocolVersion() {
        return ProtocolVersion.CURRENT;
    }

    /**
     * The protocol version of the node that began the current leadership term, as the log's term event says it
     * (-1: none seen since this node started).
     */
    public int termProtocolVersion() {
        return termProtocolVersion;
    }
}
