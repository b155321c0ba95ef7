package io.fixmatch.feed.handler;

/**
 * One recovery the handler made: a gap filled by retransmission, or the books taken from a snapshot.
 *
 * @param kind  how
 * @param from  the first number missing (for a snapshot: the first applied after it)
 * @param count how many messages the gap held (for a snapshot: 0)
 */
public record Recovery(Kind kind, long from, long count) {
    public enum Kind { RETRANSMISSION, SNAPSHOT }
}
