package io.fixmatch.fix.gateway;

import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.fix.session.SessionTransport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The server's own histograms of where the time of traced round trips goes, stage by stage, in nanoseconds. The
 * owning gateway thread records each traced report after the socket write that carried it ({@link #written} while
 * encoding, {@link #recordWritten} after the write), into single-writer recorders: no lock, no allocation, nothing on
 * the matching thread. Readers on any thread ({@link #snapshot}: the operations endpoint) get totals since start.
 */
public final class LatencyStages {
    /** The stages of a traced round trip inside the server. */
    public enum Stage {
        /** Socket read to inbound ring offer: framing, parsing, session and order checks. */
        GATEWAY_IN,
        /** Waiting in the inbound ring until the matching thread takes the command. */
        INBOUND_QUEUE,
        /**
         * Cluster mode, instead of INBOUND_QUEUE: from the gateway's inbound ring to the node's matching step: the
         * cluster link, Aeron's ingress, the log replicated to a majority and committed (one machine's clock: the
         * nodes and the gateway must share it for this stage to mean anything).
         */
        REPLICATION,
        /** The journal append. */
        JOURNAL,
        /** The engine's work on the command, events published. */
        MATCH,
        /** Waiting in the outbound ring until the gateway takes the event. */
        OUTBOUND_QUEUE,
        /** Encoding the report (and, for the first events of a batch, the rest of the batch's encoding). */
        ENCODE,
        /** From the end of encoding until the socket write returned. */
        WRITE,
        /** Socket read to socket write returned. */
        TOTAL
    }

    private static final Stage[] STAGES = Stage.values();
    private static final long HIGHEST = TimeUnit.SECONDS.toNanos(60);
    private static final int DIGITS = 3;

    private final SingleWriterRecorder[] recorders = new SingleWriterRecorder[STAGES.length];
    private final Map<Stage, Histogram> totals = new EnumMap<>(Stage.class);
    /**
     * Reports encoded but not yet recorded, one row each (owner thread): stamps socket read .. write, then the time
     * the write of its connection returned; and that connection.
     */
    private long[] pending = new long[64 * ROW];
    /** Whether the engine is a cluster's (the command's way to it is a replication, not a queue). */
    private boolean replicated;
    private SessionTransport[] pendingTransports = new SessionTransport[64];
    private int pendingCount;
    private static final int ROW = 8;

    public LatencyStages() {
        for (Stage stage : STAGES) {
            recorders[stage.ordinal()] = new SingleWriterRecorder(1, HIGHEST, DIGITS);
            totals.put(stage, new Histogram(1, HIGHEST, DIGITS));
        }
    }

    /** Before start: the engine is a cluster's: the way in is recorded as {@link Stage#REPLICATION}. */
    public void replicated() {
        replicated = true;
    }

    /**
     * Owner thread: a traced report was encoded and queued to {@code transport} (null: the session is not
     * connected); its stages are recorded at the next {@link #recordWritten}.
     */
    public void written(CommandTrace trace, long ringTakenNanos, long writeNanos, SessionTransport transport) {
        int at = pendingCount * ROW;
        if (pendingCount == pendingTransports.length) { // grows to the largest batch, then stays
            pending = java.util.Arrays.copyOf(pending, pending.length * 2);
            pendingTransports = java.util.Arrays.copyOf(pendingTransports, pendingTransports.length * 2);
        }
        pendingTransports[pendingCount] = transport;
        pending[at + 7] = 0;
        pending[at] = trace.socketReadNanos();
        pending[at + 1] = trace.ringOfferNanos();
        pending[at + 2] = trace.matchStartNanos();
        pending[at + 3] = trace.journalDoneNanos();
        pending[at + 4] = trace.matchDoneNanos();
        pending[at + 5] = ringTakenNanos;
        pending[at + 6] = writeNanos;
        pendingCount++;
    }

    /** Owner thread: the socket write of {@code transport} returned at {@code writtenNanos}. */
    public void flushed(SessionTransport transport, long writtenNanos) {
        for (int row = 0; row < pendingCount; row++) {
            if (pendingTransports[row] == transport && pending[row * ROW + 7] == 0) {
                pending[row * ROW + 7] = writtenNanos;
            }
        }
    }

    /**
     * Owner thread, after the socket writes of a duty cycle: records every pending report (those whose connection
     * was not written, gone say, count as written at {@code nowNanos}).
     */
    public void recordWritten(long nowNanos) {
        for (int row = 0; row < pendingCount; row++) {
            int at = row * ROW;
            long writtenNanos = pending[at + 7] != 0 ? pending[at + 7] : nowNanos;
            pendingTransports[row] = null;
            record(Stage.GATEWAY_IN, pending[at + 1] - pending[at]);
            record(replicated ? Stage.REPLICATION : Stage.INBOUND_QUEUE, pending[at + 2] - pending[at + 1]);
            record(Stage.JOURNAL, pending[at + 3] - pending[at + 2]);
            record(Stage.MATCH, pending[at + 4] - pending[at + 3]);
            record(Stage.OUTBOUND_QUEUE, pending[at + 5] - pending[at + 4]);
            record(Stage.ENCODE, pending[at + 6] - pending[at + 5]);
            record(Stage.WRITE, writtenNanos - pending[at + 6]);
            record(Stage.TOTAL, writtenNanos - pending[at]);
        }
        pendingCount = 0;
    }

    /** Owner thread: whether traced reports wait for {@link #recordWritten}. */
    public boolean hasPending() {
        return pendingCount > 0;
    }

    private void record(Stage stage, long nanos) {
        recorders[stage.ordinal()].recordValue(Math.max(0, Math.min(nanos, HIGHEST)));
    }

    /** Any thread: a copy of every stage's histogram since start (ns). */
    public synchronized Map<Stage, Histogram> snapshot() {
        Map<Stage, Histogram> copy = new EnumMap<>(Stage.class);
        for (Stage stage : STAGES) {
            Histogram total = totals.get(stage);
            total.add(recorders[stage.ordinal()].getIntervalHistogram());
            copy.put(stage, total.copy());
        }
        return copy;
    }

    /** Any thread: the stages of several gateways added up. */
    public static Map<Stage, Histogram> merged(List<LatencyStages> all) {
        Map<Stage, Histogram> merged = new EnumMap<>(Stage.class);
        for (Stage stage : STAGES) {
            merged.put(stage, new Histogram(1, HIGHEST, DIGITS));
        }
        for (LatencyStages stages : all) {
            stages.snapshot().forEach((stage, histogram) -> merged.get(stage).add(histogram));
        }
        return merged;
    }
}
