package io.fixmatch.server.rules;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.matching.EngineView;
import io.fixmatch.fix.gateway.PendingCommands;

import java.util.function.LongConsumer;

/**
 * The engine's own deadlines on gateway 0's timer: the engine has no clock, so what it must do at a time (expire a GTD
 * order) it does when a journaled command stamped at or after that time arrives. When the wall clock passes the
 * engine's next deadline ({@link EngineView#nextDeadlineNanos()}, published by the matching thread) and nothing has
 * come to do it, this hands the engine a TIMER command through the gateway's pending commands (journaled, so a replay
 * does the same work at the same place). Checked once per timer tick: a volatile read and a comparison.
 *
 * <p>Once submitted for a deadline it waits for the engine to move on; if the deadline is still the same after
 * {@link #RETRY_MS} (the command was refused, the journal unavailable, say, or its stamp fell just short of the
 * deadline) it submits another.
 */
public final class EngineTimer implements LongConsumer {
    static final long RETRY_MS = 200;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final EngineView view;
    private final PendingCommands pending;
    private long submittedFor = Long.MAX_VALUE;
    private long submittedAtMs;

    public EngineTimer(EngineView view, PendingCommands pending) {
        this.view = view;
        this.pending = pending;
    }

    /** Gateway thread, once per timer tick. */
    @Override
    public void accept(long nowMs) {
        long deadline = view.nextDeadlineNanos();
        if (deadline == Long.MAX_VALUE || nowMs * NANOS_PER_MILLI < deadline) {
            return;
        }
        if (deadline == submittedFor && nowMs - submittedAtMs < RETRY_MS) {
            return;
        }
        submittedFor = deadline;
        submittedAtMs = nowMs;
        pending.submit(new Command().timer().timestampNanos(nowMs * NANOS_PER_MILLI));
    }
}
