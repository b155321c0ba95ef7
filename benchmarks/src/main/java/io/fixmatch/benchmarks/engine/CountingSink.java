package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;

/**
 * The benchmarks' event sink: counts events by type and folds a few fields of each into a checksum that the
 * benchmark methods return (so JMH consumes it and nothing the engine reports can be optimised away). Allocates
 * nothing. An optional tap sees every event too; only setup code uses it (to learn what the engine did).
 */
final class CountingSink implements EventSink {
    private final long[] countByType = new long[EventType.count()];
    private long events;
    private long checksum;
    private EventSink tap;

    @Override
    public void onEvent(ExecutionEvent event) {
        events++;
        countByType[event.type().ordinal()]++;
        checksum += event.execId() ^ event.leavesQuantity() ^ event.orderId();
        EventSink t = tap;
        if (t != null) {
            t.onEvent(event);
        }
    }

    long events() {
        return events;
    }

    long count(EventType type) {
        return countByType[type.ordinal()];
    }

    long checksum() {
        return checksum;
    }

    void tap(EventSink value) {
        tap = value;
    }

    void reset() {
        events = 0;
        checksum = 0;
        java.util.Arrays.fill(countByType, 0);
    }

    /** Events by type since the last reset, e.g. {@code ACCEPTED=3 FILL=6}; allocates, for setup checks only. */
    String describe() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < countByType.length; i++) {
            if (countByType[i] != 0) {
                text.append(text.length() == 0 ? "" : " ").append(EventType.fromOrdinal(i)).append('=')
                    .append(countByType[i]);
            }
        }
        return text.toString();
    }
}
