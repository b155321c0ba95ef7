package io.fixmatch.loadgen.phase;

import io.fixmatch.loadgen.flow.RequestSource;

/** Told, on the sending thread, of each request just before its bytes are written. */
@FunctionalInterface
public interface SendListener {
    SendListener NONE = (source, dueNanos) -> { };

    /** The source's current request, due at {@code dueNanos}, is being sent. Allocation-free. */
    void sending(RequestSource source, long dueNanos);
}
