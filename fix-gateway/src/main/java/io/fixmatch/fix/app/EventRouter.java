package io.fixmatch.fix.app;

import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRegistry;
import org.agrona.concurrent.Agent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer of the engine's outbound ring: each event becomes an ExecutionReport or OrderCancelReject in the
 * session that owns the order (numbered, stored for resend, queued to its connection if it has one). Runs on its
 * own thread as an Agrona {@link Agent}.
 */
public final class EventRouter implements Agent, EventSink {
    private static final Logger LOG = LoggerFactory.getLogger(EventRouter.class);
    private static final int BATCH = 256;

    private final OutboundEventRing outbound;
    private final SessionRegistry sessions;
    private final ExecutionReportBody report;
    private long nowMs;
    private long eventsRouted;
    private long unroutable;

    public EventRouter(OutboundEventRing outbound, SessionRegistry sessions, SymbolTable symbols) {
        this.outbound = outbound;
        this.sessions = sessions;
        this.report = new ExecutionReportBody(symbols);
    }

    @Override
    public int doWork() {
        nowMs = System.currentTimeMillis();
        return outbound.poll(this, BATCH);
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

    /** Routes whatever is left in the ring; for shutdown, after the matching thread has stopped. */
    public void drain() {
        nowMs = System.currentTimeMillis();
        while (outbound.poll(this, BATCH) > 0) {
            nowMs = System.currentTimeMillis();
        }
    }

    public long eventsRouted() {
        return eventsRouted;
    }

    @Override
    public String roleName() {
        return "fix-router";
    }
}
