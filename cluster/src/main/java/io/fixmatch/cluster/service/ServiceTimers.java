package io.fixmatch.cluster.service;

import io.aeron.cluster.service.Cluster;
import io.fixmatch.engine.config.EndOfDay;

import java.util.concurrent.TimeUnit;

/**
 * The service's cluster timers, whose deadlines are replicated state (in the snapshot, set only from log events, so
 * every node schedules the same): the end of the trading day ({@code engine.endOfDay}: day orders expire), the
 * engine's own next deadline (a GTD expiry, an auction's end), and the sessions' ledger's next decision (a claim that
 * waits for a gateway to fall silent, or for its deadline). The cluster fires each as a log event; the service then
 * does what it stands for, at the log's time. Never the node's clock.
 */
final class ServiceTimers {
    static final long END_OF_DAY_TIMER = 1;
    /** The engine's own next deadline (a GTD expiry, an auction's end): see {@link #scheduleEngineTimer}. */
    static final long ENGINE_TIMER = 2;
    /** When the sessions' ledger next has a waiting claim to decide: see {@link #scheduleSessionTimer}. */
    static final long SESSION_TIMER = 3;

    /** When DAY orders expire; null: never. */
    private final EndOfDay endOfDay;
    private Cluster cluster;
    /** The deadline (epoch ns) of the scheduled end-of-day timer; 0: none scheduled. Replicated state. */
    private long endOfDayDeadline;
    /** The deadline (epoch ns) of the scheduled engine timer; 0: none scheduled. Replicated state. */
    private long engineTimerDeadline;
    /** The deadline (epoch ns) of the scheduled session timer; 0: none scheduled. Replicated state. */
    private long sessionTimerDeadline;

    ServiceTimers(EndOfDay endOfDay) {
        this.endOfDay = endOfDay;
    }

    /** At the service's start, before anything is scheduled. */
    void start(Cluster cluster) {
        this.cluster = cluster;
    }

    /** The deadlines a snapshot holds (the cluster restores its timers itself). */
    void restore(long endOfDayDeadline, long engineTimerDeadline, long sessionTimerDeadline) {
        this.endOfDayDeadline = endOfDayDeadline;
        this.engineTimerDeadline = engineTimerDeadline;
        this.sessionTimerDeadline = sessionTimerDeadline;
    }

    long sessionTimerDeadline() {
        return sessionTimerDeadline;
    }

    long endOfDayDeadline() {
        return endOfDayDeadline;
    }

    long engineTimerDeadline() {
        return engineTimerDeadline;
    }

    /** From a log event: schedules the next end of day if none is scheduled (its deadline is replicated state). */
    void scheduleEndOfDay(long timestamp) {
        if (endOfDay == null || endOfDayDeadline != 0) {
            return;
        }
        long nextMs = endOfDay.nextAfter(TimeUnit.NANOSECONDS.toMillis(timestamp));
        endOfDayDeadline = TimeUnit.MILLISECONDS.toNanos(nextMs);
        cluster.scheduleTimer(END_OF_DAY_TIMER, endOfDayDeadline);
    }

    /**
     * After every applied command: a cluster timer at the engine's next deadline ({@code deadline}, Long.MAX_VALUE:
     * none), which the engine derives from its own replicated state; the timer's firing applies a TIMER command
     * stamped with the log's time. Rescheduled (same correlation id) when the deadline moves, canceled when there is
     * none.
     */
    void scheduleEngineTimer(long deadline) {
        engineTimerDeadline = reschedule(ENGINE_TIMER, engineTimerDeadline, deadline == Long.MAX_VALUE ? 0 : deadline);
    }

    /**
     * After every log message: a cluster timer at the sessions' ledger's next deadline ({@code deadline}, 0: no claim
     * waits), derived from replicated state; rescheduled when it moves, canceled when no claim waits.
     */
    void scheduleSessionTimer(long deadline) {
        sessionTimerDeadline = reschedule(SESSION_TIMER, sessionTimerDeadline, deadline);
    }

    /** Moves a timer scheduled at {@code scheduled} to {@code wanted} (0: none, canceled); returns {@code wanted}. */
    private long reschedule(long correlationId, long scheduled, long wanted) {
        if (wanted != scheduled) {
            if (wanted == 0) {
                cluster.cancelTimer(correlationId);
            } else {
                cluster.scheduleTimer(correlationId, wanted);
            }
        }
        return wanted;
    }

    /** The session timer fired: the next is scheduled after the ledger decided. */
    void sessionTimerFired() {
        sessionTimerDeadline = 0;
    }

    /** The engine timer fired: none is scheduled until the next command's deadline is asked for. */
    void engineTimerFired() {
        engineTimerDeadline = 0;
    }

    /** The end of day fired: the next is scheduled by {@link #scheduleEndOfDay}. */
    void endOfDayFired() {
        endOfDayDeadline = 0;
    }
}
