package io.fixmatch.engine.matching;

/**
 * An open-addressing hash table of entries that carry their own key (orders, price levels), with linear probing
 * and backward-shift deletion (no tombstones, so lookups never slow down with churn).
 *
 * <p>Each slot keeps the entry's hash next to it, so a probe compares ints in one array and dereferences an entry
 * only when the hash matches: with a million orders resting, passing an occupied slot costs no cache miss into the
 * order pool.
 *
 * <p>Sized once for the most entries it will ever hold, at most half full, so it never resizes and never fills.
 * Lookups are written by the owning index: start at {@link #home}, step with {@link #next}, stop at an empty slot
 * ({@link #isEmpty}), compare {@link #hashAt} before looking at {@link #at}.
 */
final class LinearProbingTable<T> {

    /** The hash of an entry's key; must equal the hash the owner computes from the key when looking it up. */
    interface KeyHash<T> {
        int of(T entry);
    }

    private final Object[] slots;
    private final int[] hashes;
    private final int mask;
    private final KeyHash<T> keyHash;

    LinearProbingTable(int maxEntries, KeyHash<T> keyHash) {
        int capacity = Integer.highestOneBit(Math.max(2, maxEntries) * 2 - 1) << 1;
        this.slots = new Object[capacity];
        this.hashes = new int[capacity];
        this.mask = capacity - 1;
        this.keyHash = keyHash;
    }

    int home(int hash) {
        int spread = hash * 0x9E3779B9;
        return (spread ^ (spread >>> 16)) & mask;
    }

    int next(int slot) {
        return (slot + 1) & mask;
    }

    boolean isEmpty(int slot) {
        return slots[slot] == null;
    }

    int hashAt(int slot) {
        return hashes[slot];
    }

    @SuppressWarnings("unchecked")
    T at(int slot) {
        return (T) slots[slot];
    }

    void insert(T entry) {
        int hash = keyHash.of(entry);
        int slot = home(hash);
        while (slots[slot] != null) {
            slot = next(slot);
        }
        slots[slot] = entry;
        hashes[slot] = hash;
    }

    /** Removes this very entry (by identity); it must be present. */
    void remove(T entry) {
        int hash = keyHash.of(entry);
        int hole = home(hash);
        while (slots[hole] != entry) {
            if (slots[hole] == null) {
                throw new IllegalStateException("entry not in table: " + entry);
            }
            hole = next(hole);
        }
        slots[hole] = null;
        // Shift back every following entry of the run that may no longer be reachable from its home slot.
        for (int slot = next(hole); slots[slot] != null; slot = next(slot)) {
            int entryHome = home(hashes[slot]);
            boolean homeBetweenHoleAndSlot = hole <= slot
                ? hole < entryHome && entryHome <= slot
                : hole < entryHome || entryHome <= slot;
            if (!homeBetweenHoleAndSlot) {
                slots[hole] = slots[slot];
                hashes[hole] = hashes[slot];
                slots[slot] = null;
                hole = slot;
            }
        }
    }
}
