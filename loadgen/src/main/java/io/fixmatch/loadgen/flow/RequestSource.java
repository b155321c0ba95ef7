package io.fixmatch.loadgen.flow;

import io.fixmatch.fix.codec.MessageBody;

import java.util.Set;

/**
 * The requests a load phase sends, one at a time, each with the time since the previous one was due: the seeded
 * flow at a fixed rate, or a recorded flow at its recorded (or rescaled) pacing. Single-threaded: the sending thread.
 */
public interface RequestSource {
    /** Moves to the next request; returns the nanoseconds from the previous request's due time to this one's. */
    long advance();

    RequestKind kind();

    /** The request's ClOrdID number (sent as "L" + number). */
    long id();

    int msgType();

    /** Writes the current request's body. */
    MessageBody body();

    /** Our own resting orders the current request is about to fill (the seeded flow's aggressive orders). */
    default int consumedCount() {
        return 0;
    }

    default long consumedId(int index) {
        throw new IndexOutOfBoundsException(index);
    }

    /**
     * How many price levels the current request changes, as the source knows them (0: it does not know: a recorded
     * flow's effect depends on the market it meets); see {@link OrderFlow#changedLevels()}.
     */
    default int changedLevels() {
        return 0;
    }

    /** The {@code index}-th level the current request changes ({@link LevelKey}); the first answers it. */
    default long changedLevel(int index) {
        throw new IndexOutOfBoundsException(index);
    }

    /** The mean rate of the schedule, requests per second. */
    double meanRate();

    /** The kinds of request this source sends (each has its probe). */
    Set<RequestKind> kinds();
}
