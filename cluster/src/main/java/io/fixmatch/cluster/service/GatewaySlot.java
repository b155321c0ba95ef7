package io.fixmatch.cluster.service;

/**
 * What the service knows of one gateway: its id, the cluster session it speaks through (the latest that said hello),
 * whether that session is open, when it was last heard from (log time), the process (incarnation, pid, ports) that
 * said hello, the owners (FIX sessions) it may serve, the last of its commands applied (gateway sequence), the last
 * egress batch numbered for it, and the batches it has not acknowledged yet. Which sessions it holds is the
 * {@link SessionLedger}'s. Replicated state: changed only by log messages, written into snapshots.
 */
final class GatewaySlot {
    static final long NO_SESSION = -1;

    final int index;
    final EgressWindow window;
    int gatewayId;
    long sessionId = NO_SESSION;
    boolean open;
    /** The log time of the last message from this gateway (or of the leadership term that began after it). */
    long lastHeardNs;
    long incarnation;
    long pid;
    int fixPort;
    int adminPort;
    int[] owners = new int[0];
    long lastApplied;
    long egressSequence;
    /** Commands from this gateway ignored: repeats of applied ones (re-offers), out-of-order or malformed ones. */
    long ignoredCommands;

    GatewaySlot(int index, int windowBytes) {
        this.index = index;
        this.window = new EgressWindow(windowBytes);
    }

    /** Whether the gateway counts as alive at log time {@code nowNs}: connected, and heard from within the timeout. */
    boolean alive(long nowNs, long timeoutNs) {
        return open && nowNs < lastHeardNs + timeoutNs;
    }

    boolean isFree() {
        return gatewayId == 0;
    }

    boolean serves(int owner) {
        for (int served : owners) {
            if (served == owner) {
                return true;
            }
        }
        return false;
    }
}
