package io.fixmatch.engine.sequence;

import org.agrona.collections.LongArrayList;

/**
 * Where each sequence number of a session's stored messages sits in an append-only queue (a Chronicle index, say),
 * kept as runs of consecutive numbers at consecutive indexes: messages appended one after another make one run, so
 * the index grows only where the numbering or the queue breaks (a reset, a number not stored, a new file), and adding
 * allocates nothing while a run goes on. Used by a gateway's session store and by a cluster node's copy of a session's
 * messages. One owner thread.
 */
public final class SequenceIndex {
    private final LongArrayList firstSeqNums = new LongArrayList();
    private final LongArrayList firstIndexes = new LongArrayList();
    private final LongArrayList counts = new LongArrayList();

    /** Number {@code seqNum} is at queue index {@code index}; numbers are added in increasing order. */
    public void add(long seqNum, long index) {
        int last = firstSeqNums.size() - 1;
        if (last >= 0) {
            long count = counts.getLong(last);
            if (firstSeqNums.getLong(last) + count == seqNum && firstIndexes.getLong(last) + count == index) {
                counts.setLong(last, count + 1);
                return;
            }
        }
        firstSeqNums.addLong(seqNum);
        firstIndexes.addLong(index);
        counts.addLong(1);
    }

    /** The queue index of number {@code seqNum}, or -1 if it is not held. */
    public long indexOf(long seqNum) {
        for (int run = firstSeqNums.size() - 1; run >= 0; run--) {
            long first = firstSeqNums.getLong(run);
            if (seqNum >= first) {
                return seqNum < first + counts.getLong(run) ? firstIndexes.getLong(run) + seqNum - first : -1;
            }
        }
        return -1;
    }

    /** The smallest number held that is {@code >= seqNum}, or -1 if there is none. */
    public long nextAtOrAfter(long seqNum) {
        int low = 0;
        int high = firstSeqNums.size();
        while (low < high) { // the first run that ends after seqNum
            int mid = (low + high) >>> 1;
            if (firstSeqNums.getLong(mid) + counts.getLong(mid) <= seqNum) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low == firstSeqNums.size() ? -1 : Math.max(seqNum, firstSeqNums.getLong(low));
    }

    /** The largest number held that is {@code <= seqNum}, or -1 if there is none. */
    public long previousAtOrBefore(long seqNum) {
        int low = 0;
        int high = firstSeqNums.size();
        while (low < high) { // the number of runs that start at or before seqNum
            int mid = (low + high) >>> 1;
            if (firstSeqNums.getLong(mid) <= seqNum) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        if (low == 0) {
            return -1;
        }
        int run = low - 1;
        return Math.min(seqNum, firstSeqNums.getLong(run) + counts.getLong(run) - 1);
    }

    /** The first number held, or -1 if none is. */
    public long first() {
        return firstSeqNums.isEmpty() ? -1 : firstSeqNums.getLong(0);
    }

    /** Runs held (the index's size). */
    public int runs() {
        return firstSeqNums.size();
    }

    public void clear() {
        firstSeqNums.clear();
        firstIndexes.clear();
        counts.clear();
    }
}
