package io.fixmatch.engine.api;

/** Receives the engine's events, on the matching thread, in the order they happen. */
@FunctionalInterface
public interface EventSink {
    /** The event is reused after this returns: copy what must be kept. Must not block. */
    void onEvent(ExecutionEvent event);
}
