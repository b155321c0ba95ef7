package io.fixmatch.engine.metrics;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A fixed number of counters, each written by one thread only (a plain read and a release store: no lock, no
 * compare-and-set, no allocation) and read by any thread (a volatile read). They live off-heap in cache lines of
 * their own, so the writer shares no line with what other threads write.
 */
public final class CounterArray {
    private final AtomicBuffer buffer;
    private final int length;

    public CounterArray(int length) {
        this.length = length;
        int bytes = Math.max(BitUtil.CACHE_LINE_LENGTH,
            BitUtil.align(length * Long.BYTES, BitUtil.CACHE_LINE_LENGTH));
        this.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(bytes, BitUtil.CACHE_LINE_LENGTH));
    }

    /** The writer thread only. */
    public void increment(int index) {
        add(index, 1);
    }

    /**
     * The writer thread only: a plain read and a release store (on x86 two plain moves). Not an atomic add: that is a
     * locked instruction, a cost the one writer does not need.
     */
    public void add(int index, long delta) {
        int offset = offset(index);
        buffer.putLongRelease(offset, buffer.getLong(offset) + delta);
    }

    /** Any thread. */
    public long get(int index) {
        return buffer.getLongVolatile(offset(index));
    }

    public int length() {
        return length;
    }

    private int offset(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("counter " + index + " of " + length);
        }
        return index * Long.BYTES;
    }
}
