package io.fixmatch.engine.matching;

/**
 * Per owner, the inbound position (session epoch and MsgSeqNum, see {@code Command}) of the last command the engine
 * acted on: part of the engine's state, so recovery (journal replay, snapshot) tells each session which of its
 * client's messages the journal already holds; they are not asked for again after a crash. Allocated once.
 */
final class InboundPositions {
    private final long[] positions = new long[OwnerOrders.MAX_OWNERS];

    void record(int owner, long position) {
        if (position != 0 && OwnerOrders.isValidOwner(owner)) {
            positions[owner] = position;
        }
    }

    long of(int owner) {
        return OwnerOrders.isValidOwner(owner) ? positions[owner] : 0;
    }
}
