package io.fixmatch.fix.gateway;

import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.loop.TracedEventSink;
import io.fixmatch.fix.app.EventReportBody;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.marketdata.MarketDataFeed;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRegistry;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gateway's consumer of its outbound ring: each event becomes an ExecutionReport or OrderCancelReject in the
 * session that owns the order (numbered, stored for resend, queued to its connection if it has one; the duty cycle
 * writes the queued bytes). Reports of traced sessions carry the causing command's stamps, if it was traced. A copy
 * for a drop-copy session becomes the same report marked as a copy (see {@link EventReportBody#copyOf}), numbered
 * and stored in the drop-copy session with the event's origin, like any report.
 */
final class ReportWriter implements TracedEventSink {
    private static final Logger LOG = LoggerFactory.getLogger(ReportWriter.class);

    private final OutboundEventRing outbound;
    private final SessionRegistry sessions;
    private final EventReportBody report;
    private final LatencyStages stages;
    private final java.util.List<FixSession> ownSessions;
    private final MarketDataFeed marketData;
    /** Cluster-owned sessions: their records (null: standalone). */
    private ClusterSessionRecords clusterRecords;
    /** The cluster's MsgSeqNum for the next record (0: none). */
    private long numbered;
    private long nowMs;
    private long eventsRouted;
    private long unroutable;

    /** @param ownSessions the sessions of this ring's gateway (the list it fills before it starts) */
    ReportWriter(OutboundEventRing outbound, SessionRegistry sessions, SymbolTable symbols, LatencyStages stages,
                 java.util.List<FixSession> ownSessions, MarketDataFeed marketData) {
        this.marketData = marketData;
        this.ownSessions = ownSessions;
        this.outbound = outbound;
        this.sessions = sessions;
        this.report = new EventReportBody(symbols);
        this.stages = stages;
    }

    /** Before start, a gateway of a cluster that owns the sessions: where their records go. */
    void clusterRecords(ClusterSessionRecords records) {
        clusterRecords = records;
    }

    /** Routes up to {@code limit} events; returns how many. */
    int drain(int limit, long wallClockMs) {
        nowMs = wallClockMs;
        return outbound.poll(this, limit);
    }

    @Override
    public void onNumber(long seqNum) {
        numbered = seqNum;
    }

    @Override
    public void onEvent(ExecutionEvent event, CommandTrace trace) {
        long seqNum = takeNumber();
        FixSession session = sessions.byOwner(event.owner());
        if (session == null) {
            if (unroutable++ == 0) {
                LOG.error("event for owner {} which is no configured session: {}", event.owner(), event);
            }
            return;
        }
        report.of(event);
        session.seenClientOrderIds().reported(report.clientOrderIdHash());
        boolean traced = trace != null && session.config().latencyTrace();
        long takenNanos = 0;
        if (traced) {
            takenNanos = System.nanoTime();
            report.traced(trace, takenNanos);
        }
        if (seqNum != 0) {
            session.sendNumberedReport(seqNum, report.msgType(), report, event.answeredInbound(), nowMs);
        } else {
            session.sendEventReport(report.msgType(), report, event.journalPosition(), event.ordinal(),
                event.answeredInbound(), nowMs);
        }
        if (traced) {
            stages.written(trace, takenNanos, report.writeNanos(), session.transport());
        }
        eventsRouted++;
    }

    @Override
    public void onCopy(int recipientOwner, ExecutionEvent event) {
        long seqNum = takeNumber();
        FixSession dropCopy = sessions.byOwner(recipientOwner);
        byte[] original = sessions.clientCompIdOf(event.owner()); // served here or by another gateway of a cluster
        if (dropCopy == null || original == null) {
            if (unroutable++ == 0) {
                LOG.error("copy for owner {} of an event of owner {}: no such configured session", recipientOwner,
                    event.owner());
            }
            return;
        }
        report.of(event).copyOf(original);
        if (seqNum != 0) {
            dropCopy.sendNumberedReport(seqNum, report.msgType(), report, 0, nowMs);
        } else {
            dropCopy.sendEventReport(report.msgType(), report, event.journalPosition(), event.ordinal(), 0, nowMs);
        }
        eventsRouted++;
    }

    /** The cluster's number for the record being handed over (0: the session numbers it itself). */
    private long takeNumber() {
        long seqNum = numbered;
        numbered = 0;
        return seqNum;
    }

    /** The sessions' records of a cluster that owns them: see {@link ClusterSessionRecords}. */
    @Override
    public void onSessionRecord(int type, DirectBuffer buffer, int offset, int length) {
        if (clusterRecords != null) {
            clusterRecords.onRecord(type, takeNumber(), buffer, offset, length, nowMs);
        }
    }

    /** After a snapshot: every event it covers is stored now (they came before this mark), in every own session. */
    @Override
    public void onStoredThrough(long journalPosition) {
        for (int i = 0; i < ownSessions.size(); i++) {
            ownSessions.get(i).journalPositions().markEventsStoredThrough(journalPosition);
        }
    }

    /** A command's market data, after its reports: to the gateway's feed (none: the venue offers no market data). */
    @Override
    public void onMarketData(DirectBuffer buffer, int offset, int length) {
        if (marketData != null) {
            marketData.onMarketData(buffer, offset, length, nowMs);
        }
    }

    long eventsRouted() {
        return eventsRouted;
    }
}
