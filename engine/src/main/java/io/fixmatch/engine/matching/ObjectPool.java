package io.fixmatch.engine.matching;

import java.util.function.Supplier;

/**
 * A fixed set of objects created at start and recycled: the book takes orders and price levels from here so the
 * steady state allocates nothing. Running dry is reported ({@code null}), never fixed by allocating.
 */
final class ObjectPool<T> {
    private final Object[] free;
    private int available;

    ObjectPool(int capacity, Supplier<T> factory) {
        free = new Object[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = factory.get();
        }
        available = capacity;
    }

    /** An object to use, or null when all are in use. */
    @SuppressWarnings("unchecked")
    T acquire() {
        if (available == 0) {
            return null;
        }
        T object = (T) free[--available];
        free[available] = null;
        return object;
    }

    void release(T object) {
        free[available++] = object;
    }

    int available() {
        return available;
    }

    int inUse() {
        return free.length - available;
    }
}
