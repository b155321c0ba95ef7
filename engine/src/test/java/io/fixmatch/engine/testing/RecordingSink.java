package io.fixmatch.engine.testing;

import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.ExecutionEvent;

import java.util.ArrayList;
import java.util.List;

/** Keeps every event as its full text (every field, fixed order), so tests can compare exact event streams. */
public final class RecordingSink implements EventSink {
    private final List<String> events = new ArrayList<>();

    @Override
    public void onEvent(ExecutionEvent event) {
        events.add(event.toString());
    }

    /** The events recorded since the last call, which are then forgotten. */
    public List<String> drain() {
        List<String> copy = List.copyOf(events);
        events.clear();
        return copy;
    }
}
