package io.fixmatch.feed.handler;

import org.agrona.DirectBuffer;

/** Told of every message the handler applies, in sequence order, with its bytes (valid during the call). */
@FunctionalInterface
public interface MessageObserver {
    void applied(long sequence, int symbolId, DirectBuffer buffer, int offset, int length);
}
