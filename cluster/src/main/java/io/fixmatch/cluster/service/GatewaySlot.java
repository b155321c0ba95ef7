package io.fixmatch.cluster.service;

/**
 * What the service knows of one gateway: its id, the cluster session it speaks through (the latest that said hello),
 * whether that session is open, the owners (FIX sessions) it serves, the last of its commands applied (gateway
 * sequence), the last egress batch numbered for it, and the batches it has not acknowledged yet. Replicated state:
 * changed only by log messages, written into snapshots.
 */
final class GatewaySlot {
    static final long NO_SESSION = -1;

    final int index;
    final EgressWindow window;
    int gatewayId;
    long sessionId = NO_SESSION;
    boolean open;
    int[] owners = new int[0];
    long lastApplied;
    long egressSequence;
    /** Commands from this gateway ignored: repeats of applied ones (re-offers), out-of-order or malformed ones. */
    long ignoredCommands;

    GatewaySlot(int index, int windowBytes) {
        this.index = index;
        this.window = new EgressWindow(windowBytes);
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
