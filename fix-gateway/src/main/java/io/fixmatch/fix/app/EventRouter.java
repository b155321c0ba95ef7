package io.fixmatch.fix.app;

import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The consumer of the engine's outbound ring: each event becomes an ExecutionReport or OrderCancelReject in the
 * session that owns the order (numbered, stored for resend, queued to its connection if it has one).
 *
 * <p>It runs on a Netty I/O thread: after each batch of commands the matching thread schedules one drain task on
 * that event loop (only if none is pending), so no thread polls and the wake-up is Netty's own.
 */
public final class EventRouter implements EventSink {
    private static final Logger LOG = LoggerFactory.getLogger(EventRouter.class);
    private static final int BATCH = 1024;

    private final OutboundEventRing outbound;
    private final SessionRegistry sessions;
    private final ExecutionReportBody report;
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drainBatch;
    private Executor eventLoop;
    private long nowMs;
    private long eventsRouted;
    private long unroutable;

    public EventRouter(OutboundEventRing outbound, SessionRegistry sessions, SymbolTable symbols) {
        this.outbound = outbound;
        this.sessions = sessions;
        this.report = new ExecutionReportBody(symbols);
    }

    /** Starts consuming on {@code loop}: from now on the matching thread schedules the drains there. */
    public void consumeOn(Executor loop) {
        eventLoop = loop;
        outbound.consumerWaker(this::scheduleDrain);
        scheduleDrain();
    }

    /** Stops scheduling drains (the event loops are shutting down); {@link #drainRemaining()} takes the rest. */
    public void stopConsuming() {
        outbound.consumerWaker(null);
    }

    @Override
    public void onEvent(ExecutionEvent event) {
        FixSession session = sessions.byOwner(event.owner());
        if (session == null) {
            if (unroutable++ == 0) {
                LOG.error("event for owner {} which is no configured session: {}", event.owner(), event);
            }
            return;
        }
        report.of(event);
        session.sendApplication(report.msgType(), report, nowMs);
        eventsRouted++;
    }

    /** Routes whatever is left in the ring, on the caller's thread; for shutdown, after the matching thread stopped. */
    public void drainRemaining() {
        do {
            nowMs = System.currentTimeMillis();
        } while (outbound.poll(this, BATCH) > 0);
    }

    public long eventsRouted() {
        return eventsRouted;
    }

    private void scheduleDrain() {
        if (!drainScheduled.getAndSet(true)) {
            eventLoop.execute(drainTask);
        }
    }

    /** Event loop: clear the flag first, so events published while we drain schedule another drain. */
    private void drainBatch() {
        drainScheduled.set(false);
        nowMs = System.currentTimeMillis();
        if (outbound.poll(this, BATCH) == BATCH) {
            scheduleDrain();
        }
    }
}
