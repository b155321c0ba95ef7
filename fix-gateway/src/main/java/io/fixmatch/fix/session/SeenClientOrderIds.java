package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.MsgTypes;
import org.agrona.collections.LongArrayQueue;

/**
 * The ClOrdIDs a session has used in its current trading session (since its last sequence reset), so that a
 * NewOrderSingle resent with PossResend(97)=Y whose ClOrdID the session already sent is ignored (FIX: "already seen
 * on this session"), even when that order is filled or canceled by now.
 *
 * <p>What counts as seen is what the session's store shows, so a restart rebuilds exactly the same record: the
 * ClOrdID(11) of each of the last {@code capacity} ExecutionReports and OrderCancelRejects the session stored (its
 * own, not drop copies), and meanwhile the ClOrdIDs of the requests handed to the engine and not answered yet (each is
 * answered by a stored report carrying its ClOrdID, or it never reached the journal and the client is asked to send
 * it again). Memory is bounded: a ClOrdID that only reports older than the last {@code capacity} carried is forgotten
 * (the window slides report by report, so the record depends on the stored sequence alone). Kept as 64-bit hashes of
 * the ClOrdID bytes: two different ClOrdIDs sharing one is a chance of about capacity / 2^64 per check.
 *
 * <p>Owned by the session's thread; allocation-free unless more requests are in flight than ever before (sized, as
 * {@link InboundSequence}, for 16,384).
 */
public final class SeenClientOrderIds {
    private final int capacity;
    /** The hashes of the last {@code capacity} reports, oldest at {@code head}. */
    private final long[] window;
    private int head;
    private int size;
    /** A multiset of the window's hashes: open addressing, linear probing, 0 = empty slot. */
    private final long[] keys;
    private final int[] counts;
    private final int mask;
    private final LongArrayQueue inFlightPositions = new LongArrayQueue(16_384, Long.MIN_VALUE);
    private final LongArrayQueue inFlightHashes = new LongArrayQueue(16_384, Long.MIN_VALUE);

    /** @param capacity how many of the latest reports' ClOrdIDs are remembered (0: only requests in flight) */
    public SeenClientOrderIds(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.capacity = capacity;
        this.window = new long[Math.max(1, capacity)];
        int slots = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) << 1; // a power of two >= 2 x capacity
        this.keys = new long[slots];
        this.counts = new int[slots];
        this.mask = slots - 1;
    }

    /**
     * The record a session had when it stopped, rebuilt from its store: the ClOrdIDs of the latest {@code capacity}
     * reports stored since the last reset (not drop copies, which carry DeliverToCompID), oldest first. {@code buffer}
     * and {@code message} are scratch, large enough for any stored message.
     */
    static SeenClientOrderIds rebuiltFrom(SessionStore store, int capacity, byte[] buffer, FixMessage message) {
        SeenClientOrderIds seen = new SeenClientOrderIds(capacity);
        long[] newestFirst = new long[capacity];
        int found = 0;
        for (long seqNum = store.previousStoredAtOrBefore(store.nextSenderSeqNum() - 1);
             seqNum > 0 && found < capacity; seqNum = store.previousStoredAtOrBefore(seqNum - 1)) {
            int length = store.readStored(seqNum, buffer);
            if (FixParser.parse(buffer, 0, length, message) != FixParser.OK) {
                continue;
            }
            int type = message.msgType();
            int clOrdId = message.indexOf(FixTags.CL_ORD_ID);
            if ((type == MsgTypes.EXECUTION_REPORT || type == MsgTypes.ORDER_CANCEL_REJECT) && clOrdId >= 0
                && !message.has(FixTags.DELIVER_TO_COMP_ID)) {
                newestFirst[found++] = hash(buffer, message.valueStartAt(clOrdId), message.valueLengthAt(clOrdId));
            }
        }
        for (int i = found - 1; i >= 0; i--) {
            seen.reported(newestFirst[i]);
        }
        return seen;
    }

    /** The hash of a ClOrdID's bytes (never 0). */
    public static long hash(byte[] bytes, int offset, int length) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < length; i++) {
            h ^= bytes[offset + i] & 0xFF;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33; // murmur3's finaliser: FNV alone mixes the high bits poorly
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h == 0 ? 1 : h;
    }

    /** A report carrying this ClOrdID was stored. */
    public void reported(long hash) {
        if (capacity == 0) {
            return;
        }
        if (size == capacity) {
            remove(window[head]);
            head = head + 1 == capacity ? 0 : head + 1;
            size--;
        }
        int tail = head + size;
        window[tail >= capacity ? tail - capacity : tail] = hash;
        size++;
        add(hash);
    }

    /** A request with this ClOrdID went to the engine at this inbound position. */
    public void submitted(long inboundPosition, long hash) {
        inFlightPositions.addLong(inboundPosition);
        inFlightHashes.addLong(hash);
    }

    /** A report answering the request at {@code inboundPosition} (and so every one before it) is stored. */
    public void answered(long inboundPosition) {
        while (!inFlightPositions.isEmpty() && inFlightPositions.peekLong() <= inboundPosition) {
            inFlightPositions.pollLong();
            inFlightHashes.pollLong();
        }
    }

    /** Whether this ClOrdID was seen in the current trading session. */
    public boolean contains(long hash) {
        if (capacity > 0 && counts[slotOf(hash)] > 0) {
            return true;
        }
        for (int i = 0, n = inFlightHashes.size(); i < n; i++) { // rare (resends only) and short: a scan is fine
            long h = inFlightHashes.pollLong();
            inFlightHashes.addLong(h);
            if (h == hash) {
                for (int j = i + 1; j < n; j++) { // restore the order
                    inFlightHashes.addLong(inFlightHashes.pollLong());
                }
                return true;
            }
        }
        return false;
    }

    /** A sequence reset: a new trading session starts with nothing seen. */
    public void clear() {
        java.util.Arrays.fill(keys, 0);
        java.util.Arrays.fill(counts, 0);
        head = 0;
        size = 0;
        inFlightPositions.clear();
        inFlightHashes.clear();
    }

    /** Requests in flight are forgotten (a restart: those the journal holds come back as stored reports). */
    void forgetInFlight() {
        inFlightPositions.clear();
        inFlightHashes.clear();
    }

    /** ClOrdIDs remembered from reports (with repeats). */
    public int size() {
        return size;
    }

    private int slotOf(long hash) {
        int slot = (int) hash & mask;
        while (keys[slot] != 0 && keys[slot] != hash) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private void add(long hash) {
        int slot = slotOf(hash);
        keys[slot] = hash;
        counts[slot]++;
    }

    private void remove(long hash) {
        int slot = slotOf(hash);
        if (keys[slot] == 0 || --counts[slot] > 0) {
            return;
        }
        // backward-shift deletion keeps every later key of the probe run reachable
        int hole = slot;
        int next = (hole + 1) & mask;
        while (keys[next] != 0) {
            int home = (int) keys[next] & mask;
            boolean movable = hole <= next ? (home <= hole || home > next) : (home <= hole && home > next);
            if (movable) {
                keys[hole] = keys[next];
                counts[hole] = counts[next];
                hole = next;
            }
            next = (next + 1) & mask;
        }
        keys[hole] = 0;
        counts[hole] = 0;
    }
}
