package io.fixmatch.feed.handler;

import io.fixmatch.feed.codec.SymbolBook;
import org.agrona.DirectBuffer;

/** What a {@link FeedHandler} does with the stream, told on the handler's thread, in sequence order. */
@FunctionalInterface
public interface MessageObserver {
    /** A message applied to the books, with its bytes (valid during the call). */
    void applied(long sequence, int symbolId, DirectBuffer buffer, int offset, int length);

    /**
     * The books were taken from a snapshot as of {@code lastSequence} (the join, or a recovery); the next message
     * applied is the one after it. {@code books} by symbol id, valid during the call (copy what you keep).
     */
    default void installed(long lastSequence, SymbolBook[] books) {
    }
}
