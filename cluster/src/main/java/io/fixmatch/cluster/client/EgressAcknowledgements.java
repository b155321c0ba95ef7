package io.fixmatch.cluster.client;

/**
 * Which egress batches the gateway thread has consumed: each batch published into the outbound ring is noted with
 * the ring's producer position after it; once the ring's consumer has passed that position, every report of the
 * batch is in the sessions' stores and the batch may be acknowledged to the cluster. A fixed ring of pairs; when it
 * is full the newest pair is extended (acknowledgements then come a little later, never too early). One thread.
 */
final class EgressAcknowledgements {
    private static final int CAPACITY = 1 << 14;
    private static final int MASK = CAPACITY - 1;

    private final long[] sequences = new long[CAPACITY];
    private final long[] positions = new long[CAPACITY];
    private long head;
    private long tail;
    private long storedThrough;

    /** Batch {@code sequence} is in the ring up to {@code ringPosition}. */
    void published(long sequence, long ringPosition) {
        if (tail - head == CAPACITY) {
            int newest = (int) ((tail - 1) & MASK);
            sequences[newest] = sequence;
            positions[newest] = ringPosition;
            return;
        }
        int at = (int) (tail & MASK);
        sequences[at] = sequence;
        positions[at] = ringPosition;
        tail++;
    }

    /** The last batch every record of which the consumer has passed ({@code consumerPosition}). */
    long storedThrough(long consumerPosition) {
        while (head < tail && positions[(int) (head & MASK)] <= consumerPosition) {
            storedThrough = sequences[(int) (head & MASK)];
            head++;
        }
        return storedThrough;
    }

    /** Before the first batch (a restart): batches up to {@code sequence} count as stored. */
    void startAfter(long sequence) {
        storedThrough = sequence;
    }
}
