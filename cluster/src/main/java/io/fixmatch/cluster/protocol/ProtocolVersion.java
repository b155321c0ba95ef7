package io.fixmatch.cluster.protocol;

import org.agrona.SemanticVersion;

/**
 * The versions of the wire: between gateways and nodes ({@link #CURRENT}), and among the nodes ({@link #APP_VERSION}).
 *
 * <p>Gateways and nodes: every HELLO carries the gateway's protocol version and every WELCOME the node's (a u16 at
 * offset 2 of each; a release before versions left those bytes zero, so it reads as 0). A node refuses a HELLO of a
 * version it does not accept (REFUSED, its text naming both versions; one WARN line on each node), and a gateway
 * refuses a WELCOME of a version it does not accept (one ERROR line; joining, its start fails with that reason).
 *
 * <p>When to bump {@link #CURRENT}: when a message between gateways and nodes changes so that a peer of the earlier
 * release would misread it or miss what it must not miss (a field moved, a field added where the reader does not look
 * or must not do without, a new message type, a new meaning of a value); not for a change only one side sees. Raise
 * {@link #OLDEST_ACCEPTED} with it, unless this release still reads and writes the earlier form for a peer that says
 * the earlier version. A new version is never a rolling upgrade: a node's answer to a HELLO is replicated logic (it
 * decides whether the gateway gets a slot), so nodes of two versions would disagree about a gateway; docs/OPERATIONS.md
 * ("Upgrades") says how to upgrade.
 *
 * <p>Among nodes: Aeron Cluster's appVersion, {@link #APP_VERSION}, which every leadership term event and snapshot
 * records. Aeron checks its major ({@code AppVersionValidator}: equal majors) when a follower joins a leader's term,
 * when a node replays a term event from the log and when it loads a snapshot: a node of another major stops at once
 * ("incompatible version"), and cannot read the log or the snapshots a node of another major wrote. So
 * {@link #CLUSTER_MAJOR} changes only with a release that cannot carry a cluster's log and snapshots over at all (a new
 * cluster). The protocol version is the appVersion's minor, which Aeron does not check: the service reads it from each
 * leadership term event ({@link #ofAppVersion}).
 */
public final class ProtocolVersion {
    /** This release's version of the messages between gateways and nodes ({@link Ingress}, {@link Egress}). */
    public static final int CURRENT = 2;
    /** The oldest version this release's nodes accept in a HELLO and its gateways in a WELCOME. */
    public static final int OLDEST_ACCEPTED = 2;
    /**
     * Aeron's appVersion major of this release's nodes. 0, Aeron's default (0.0.1), which the clusters of releases
     * before versions recorded: their logs and snapshots stay readable.
     */
    public static final int CLUSTER_MAJOR = 0;
    /** The nodes' Aeron Cluster appVersion: {@link #CLUSTER_MAJOR}.{@link #CURRENT}.0. */
    public static final int APP_VERSION = SemanticVersion.compose(CLUSTER_MAJOR, CURRENT, 0);

    private ProtocolVersion() {
    }

    /** Whether a peer saying {@code version} is served. */
    public static boolean accepts(int version) {
        return version >= OLDEST_ACCEPTED && version <= CURRENT;
    }

    /** The accepted versions, for log lines: "1" or "1 to 2". */
    public static String accepted() {
        return OLDEST_ACCEPTED == CURRENT ? Integer.toString(CURRENT) : OLDEST_ACCEPTED + " to " + CURRENT;
    }

    /** The protocol version a node of Aeron appVersion {@code appVersion} speaks (0: a release before versions). */
    public static int ofAppVersion(int appVersion) {
        return SemanticVersion.minor(appVersion);
    }
}
