package io.fixmatch.cluster.client;

import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.cluster.protocol.GatewayDirectory;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.codec.EventCodec;
import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.matching.EngineView;
import io.fixmatch.engine.metrics.EngineCounters;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The cluster's egress BATCHes into the gateway's outbound ring, in number order: a batch seen before is dropped, one
 * after a gap is not published (the link asks the cluster to resume); each record goes into the ring as the service's
 * matching step wrote it, except the engine's view (applied to the gateway's mirror of it) and, in a batch sent again
 * after a restart (history), market data and the reports the sessions' stores hold already ({@link StoredOrigins}).
 * Counts the events the gateway's sessions get, notes each batch for acknowledgement once the gateway thread has
 * consumed it ({@link EgressAcknowledgements}), and marks the commands the batch answers. One thread: the link's.
 */
final class BatchPublisher {
    private final OutboundEventRing outbound;
    private final EngineView view;
    private final EngineCounters counters;
    private final UnansweredCommands unanswered;
    private final LinkStatus status;
    private final EgressAcknowledgements acks = new EgressAcknowledgements();
    private final ExecutionEvent historyEvent = new ExecutionEvent();
    private final ExecutionEvent countedEvent = new ExecutionEvent();
    private StoredOrigins origins = StoredOrigins.NONE;
    /** The binary feed's ring (every market data record, history included: it passes over numbers it has), or null. */
    private OutboundEventRing marketData;
    /** The last batch published (or passed over as lost). */
    private long lastEgress;
    /** Batches up to this one were numbered before this gateway joined: history. */
    private long historyThrough;
    /** The last gateway sequence a batch answered. */
    private long lastAnswered;
    private volatile long historyBatches;
    /** How long after it last spoke (a command taken, answered since) the gateway may write for its sessions. */
    private final long leaseNanos;
    private final UnsafeBuffer leaseRecord = new UnsafeBuffer(new byte[SessionCodec.LEASE_LENGTH]);
    /** When a batch last answered a command (System.nanoTime). */
    private long answeredAtNanos;
    /** The cluster's gateways and who holds each session, as it last said (the admin endpoint reads it). */
    private volatile GatewayDirectory directory = GatewayDirectory.EMPTY;

    /** @param leaseNanos see {@link io.fixmatch.cluster.client.LinkSettings#gatewayTimeoutMs} */
    BatchPublisher(OutboundEventRing outbound, EngineView view, EngineCounters counters,
                   UnansweredCommands unanswered, LinkStatus status, long leaseNanos) {
        this.leaseNanos = leaseNanos;
        this.outbound = outbound;
        this.view = view;
        this.counters = counters;
        this.unanswered = unanswered;
        this.status = status;
    }

    /** Before joining: a ring that gets every batch's market data records too (the binary feed's publisher). */
    void marketData(OutboundEventRing ring) {
        marketData = ring;
    }

    /** Before joining: the last event each session's store holds, by which history is judged. */
    void origins(StoredOrigins origins) {
        this.origins = origins;
    }

    /**
     * The joining welcome: {@code lastApplied} of this gateway's commands applied, batches from {@code oldestHeld} to
     * {@code lastNumbered} not acknowledged (they come next, as history); those before count as stored.
     */
    void startAfter(long lastApplied, long oldestHeld, long lastNumbered) {
        lastAnswered = lastApplied;
        lastEgress = oldestHeld - 1;
        historyThrough = lastNumbered;
        acks.startAfter(oldestHeld - 1);
    }

    /**
     * A later welcome: batches before {@code oldestHeld} the cluster no longer holds count as received. Returns whether
     * some of them were never published (lost: reports in them are missing).
     */
    boolean passOverLost(long oldestHeld) {
        if (oldestHeld <= lastEgress + 1) {
            return false;
        }
        lastEgress = oldestHeld - 1;
        return true;
    }

    /** The last batch published or passed over. */
    long lastEgress() {
        return lastEgress;
    }

    /** The last batch whose every record the gateway thread has consumed (its reports stored). */
    long storedThrough() {
        return acks.storedThrough(outbound.consumerPosition());
    }

    /** When a batch last answered a command (System.nanoTime; 0: never). */
    long answeredAtNanos() {
        return answeredAtNanos;
    }

    /** Any thread: the cluster's gateways and who holds each session, as it last said. */
    GatewayDirectory directory() {
        return directory;
    }

    /** Batches received again on joining (unacknowledged before this gateway's start). */
    long historyBatches() {
        return historyBatches;
    }

    /**
     * One BATCH, arrived at {@code nowNanos}. Returns false if a batch before it is missing: it is not published, and
     * the cluster must be asked to resume after {@link #lastEgress()}.
     */
    boolean publish(DirectBuffer buffer, int offset, int length, long nowNanos) {
        long sequence = Egress.batchEgressSequence(buffer, offset);
        if (sequence <= lastEgress) {
            status.duplicateBatches++;
            return true;
        }
        if (sequence > lastEgress + 1) {
            status.gaps++;
            return false;
        }
        boolean history = sequence <= historyThrough;
        if (history) {
            historyBatches++;
        }
        int end = offset + length;
        for (int at = offset + Egress.BATCH_HEADER_LENGTH; at < end; ) {
            int type = Egress.recordType(buffer, at);
            int recordLength = Egress.recordLength(buffer, at);
            int record = at + Egress.RECORD_HEADER_LENGTH;
            if (type == OutboundEventRing.MARKET_DATA && marketData != null) {
                // Every one, history too: the feed's publisher passes over the numbers it has published.
                marketData.publishRecord(type, buffer, record, recordLength);
            }
            if (type == Egress.VIEW_RECORD) {
                view.apply(buffer, record);
            } else if (type == Egress.DIRECTORY_RECORD) {
                directory = GatewayDirectory.decode(buffer, record);
            } else if (!history || storesLack(type, buffer, record)) {
                count(type, buffer, record);
                outbound.publishRecord(type, buffer, record, recordLength);
            }
            at = record + recordLength;
        }
        if (marketData != null) {
            marketData.wakeConsumer();
        }
        lastEgress = sequence;
        status.lastEgress = sequence;
        acks.published(sequence, outbound.producerPosition());
        outbound.wakeConsumer();
        long answered = Egress.batchAnswered(buffer, offset);
        if (answered > lastAnswered) {
            for (long i = lastAnswered; i < answered; i++) {
                counters.commandProcessed();
            }
            lastAnswered = answered;
            answeredAtNanos = nowNanos;
            long spokeNanos = unanswered.answeredThrough(answered);
            status.unanswered = unanswered.count();
            if (spokeNanos != 0) {
                // After this batch's records (a session taken away among them), in the ring's order: the gateway
                // thread writes for its sessions until then, and not after unless the cluster answers again.
                SessionCodec.encodeLease(leaseRecord, 0, spokeNanos + leaseNanos);
                outbound.publishRecord(SessionCodec.LEASE, leaseRecord, 0, SessionCodec.LEASE_LENGTH);
            }
        }
        return true;
    }

    private void count(int type, DirectBuffer buffer, int record) {
        if (type == SessionCodec.NUMBERED) {
            count(SessionCodec.numberedInnerType(buffer, record), buffer, record + SessionCodec.NUMBERED_HEADER_LENGTH);
        } else if (type == OutboundEventRing.EVENT) {
            EventCodec.decode(buffer, record, countedEvent);
            counters.onEvent(countedEvent);
        } else if (type == OutboundEventRing.TRACED_EVENT) {
            EventCodec.decode(buffer, record + CommandTrace.OUTBOUND_LENGTH, countedEvent);
            counters.onEvent(countedEvent);
        }
    }

    /** A batch sent again after a restart: its market data is older than the books just seeded; its reports may be
     * in the stores already. */
    private boolean storesLack(int type, DirectBuffer buffer, int record) {
        switch (type) {
            case OutboundEventRing.EVENT -> EventCodec.decode(buffer, record, historyEvent);
            case OutboundEventRing.TRACED_EVENT -> EventCodec.decode(buffer, record + CommandTrace.OUTBOUND_LENGTH,
                historyEvent);
            case OutboundEventRing.COPY -> {
                EventCodec.decode(buffer, record + Long.BYTES, historyEvent);
                return !origins.holds((int) buffer.getLong(record), historyEvent.journalPosition(),
                    historyEvent.ordinal());
            }
            default -> {
                return false;
            }
        }
        return !origins.holds(historyEvent.owner(), historyEvent.journalPosition(), historyEvent.ordinal());
    }
}
