package io.fixmatch.fix.gateway;

import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.loop.DropCopyRoutes;
import io.fixmatch.fix.app.EventReportBody;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.TreeMap;

/**
 * Exactly-once reports across a crash: during journal recovery the engine re-derives the events of every replayed
 * command (the same events, ExecIDs included: the engine is deterministic); the reports of those its session's store
 * lacks (the process died after the journal append, before the report was stored) are stored now, numbered after the
 * session's last message, to be sent when the client asks for them after its Logon. Those the store holds are passed
 * over, so no report is stored twice. The same holds for the copies of drop-copy sessions ({@link DropCopyRoutes}):
 * each copy a drop-copy session's store lacks is stored now, with the same origin. Runs on the recovering thread,
 * before any gateway thread owns the sessions.
 */
public final class RecoveredReports implements EventSink {
    private static final Logger LOG = LoggerFactory.getLogger(RecoveredReports.class);

    private final SessionRegistry sessions;
    private final DropCopyRoutes dropCopies;
    private final EventReportBody report;
    private final Map<String, Long> rederived = new TreeMap<>();
    private long held;
    private long unroutable;

    public RecoveredReports(SessionRegistry sessions, SymbolTable symbols) {
        this(sessions, symbols, DropCopyRoutes.NONE);
    }

    public RecoveredReports(SessionRegistry sessions, SymbolTable symbols, DropCopyRoutes dropCopies) {
        this.sessions = sessions;
        this.dropCopies = dropCopies;
        this.report = new EventReportBody(symbols);
    }

    @Override
    public void onEvent(ExecutionEvent event) {
        if (event.journalPosition() == 0) {
            return; // not from a journaled command: nothing to re-derive
        }
        FixSession session = sessions.byOwner(event.owner());
        if (session == null) {
            unroutable++;
            return;
        }
        if (session.journalPositions().holdsEvent(event.journalPosition(), event.ordinal())) {
            held++;
        } else {
            report.of(event);
            session.seenClientOrderIds().reported(report.clientOrderIdHash());
            session.sendEventReport(report.msgType(), report, event.journalPosition(), event.ordinal(),
                event.answeredInbound(), System.currentTimeMillis());
            rederived.merge(session.name(), 1L, Long::sum);
        }
        int[] recipients = dropCopies.recipientsOf(event);
        for (int recipient : recipients) {
            copy(event, session, sessions.byOwner(recipient));
        }
    }

    private void copy(ExecutionEvent event, FixSession original, FixSession dropCopy) {
        if (dropCopy == null) {
            unroutable++;
        } else if (dropCopy.journalPositions().holdsEvent(event.journalPosition(), event.ordinal())) {
            held++;
        } else {
            report.of(event).copyOf(original.clientCompId());
            dropCopy.sendEventReport(report.msgType(), report, event.journalPosition(), event.ordinal(), 0,
                System.currentTimeMillis());
            rederived.merge(dropCopy.name(), 1L, Long::sum);
        }
    }

    /** Reports stored by this recovery (re-derived), per session name. */
    public Map<String, Long> rederived() {
        return rederived;
    }

    /** One line: what recovery found missing from the session stores and stored again. */
    public void logSummary() {
        long total = rederived.values().stream().mapToLong(Long::longValue).sum();
        LOG.info("recovery: {} reports re-derived from the journal and stored (the stores lacked them){}; {} replayed"
                + " events were already stored{}", total, total == 0 ? "" : " " + rederived, held,
            unroutable == 0 ? "" : "; " + unroutable + " events for owners that are no configured session");
    }
}
