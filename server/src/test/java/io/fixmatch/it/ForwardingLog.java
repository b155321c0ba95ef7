package io.fixmatch.it;

import quickfix.Log;

import java.util.function.Consumer;

/** A QuickFIX/J session log that hands every line to the test's own record of the session. */
public record ForwardingLog(Consumer<String> incoming, Consumer<String> outgoing, Consumer<String> events,
                            Consumer<String> errors) implements Log {
    @Override
    public void clear() {
    }

    @Override
    public void onIncoming(String message) {
        incoming.accept(message);
    }

    @Override
    public void onOutgoing(String message) {
        outgoing.accept(message);
    }

    @Override
    public void onEvent(String text) {
        events.accept(text);
    }

    @Override
    public void onErrorEvent(String text) {
        errors.accept(text);
    }
}
