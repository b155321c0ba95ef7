package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.metrics.EngineCounters;
import org.agrona.DirectBuffer;

import java.util.function.IntUnaryOperator;

/**
 * The engine's event sink on the matching thread: sends each event to the outbound ring of the gateway that owns
 * the event's owner (sessions are sharded over gateway threads, each with its own ring), carrying the trace of the
 * command being processed if it is traced, and counting it for the metrics; a copy of it (untraced) to the ring of
 * each drop-copy session that covers its owner ({@link DropCopyRoutes}), right behind it, so every copy reaches its
 * drop-copy session in the same origin order as the events reach their own sessions; after a batch of commands,
 * wakes the consumers of the rings it touched.
 */
final class OutboundRouting implements EventSink {
    private final OutboundEventRing[] rings;
    private final IntUnaryOperator ringOfOwner;
    private final boolean[] touched;
    private final EngineCounters counters;
    private CommandTrace trace;
    private boolean replaying;
    private EventSink replayed;
    private DropCopyRoutes dropCopies = DropCopyRoutes.NONE;
    /** The binary feed's ring (market data only), or null: no feed in this process. */
    private OutboundEventRing feed;

    /** @param ringOfOwner the ring index (0 .. rings - 1) of an owner id; out-of-range results go to ring 0 */
    OutboundRouting(OutboundEventRing[] rings, IntUnaryOperator ringOfOwner, EngineCounters counters) {
        this.rings = rings;
        this.counters = counters;
        this.ringOfOwner = ringOfOwner;
        this.touched = new boolean[rings.length];
    }

    /** Before the matching step runs: who gets copies of whose events. */
    void dropCopies(DropCopyRoutes routes) {
        dropCopies = routes;
    }

    /**
     * While replaying (journal recovery) events go to {@code sink} instead of the rings (null: dropped), which keeps
     * those the sessions' stores lack (see {@code ExecutionEvent#journalPosition}).
     */
    void replaying(boolean value, EventSink sink) {
        replaying = value;
        replayed = value ? sink : null;
    }

    /** The command about to be processed is traced with these stamps (null: not traced). */
    void startCommand(CommandTrace commandTrace) {
        trace = commandTrace;
    }

    /** The command is done: its traced events get the match-done stamp and become visible. */
    void commandDone() {
        if (trace != null) {
            long now = System.nanoTime();
            trace.matchDone(now);
            for (int i = 0; i < rings.length; i++) {
                if (touched[i]) {
                    rings[i].commitTraced(now);
                }
            }
            trace = null;
        }
    }

    /** After a snapshot covering the journal up to {@code journalPosition}: a mark in every ring, after its events. */
    void storedThrough(long journalPosition) {
        for (int i = 0; i < rings.length; i++) {
            rings[i].publishStoredThrough(journalPosition);
            touched[i] = true;
        }
    }

    /**
     * Before the matching step runs: one more ring that gets the market data, and nothing else. It is as large as the
     * others ({@link MatchingRuntime#addMarketDataRing}), so it takes the records {@link #maxMarketDataBytes} allows.
     */
    void feed(OutboundEventRing ring) {
        feed = ring;
    }

    /** The largest market data record every ring takes (its largest record: an eighth of its capacity). */
    int maxMarketDataBytes() {
        int bytes = Integer.MAX_VALUE;
        for (OutboundEventRing ring : rings) {
            bytes = Math.min(bytes, ring.maxRecordBytes());
        }
        return bytes;
    }

    /**
     * One command's market data ({@link MarketDataPublisher}): to every ring, as every gateway keeps the books, and to
     * the feed's ring.
     */
    void publishMarketData(DirectBuffer record, int length) {
        for (int i = 0; i < rings.length; i++) {
            rings[i].publishMarketData(record, length);
            touched[i] = true;
        }
        if (feed != null) {
            feed.publishMarketData(record, length);
            feed.wakeConsumer();
        }
    }

    /** After a batch of commands: wakes the consumers that were given events and may be asleep. */
    void batchDone() {
        for (int i = 0; i < rings.length; i++) {
            if (touched[i]) {
                touched[i] = false;
                rings[i].wakeConsumer();
            }
        }
    }

    @Override
    public void onEvent(ExecutionEvent event) {
        if (replaying) {
            if (replayed != null) {
                replayed.onEvent(event);
            }
            return;
        }
        counters.onEvent(event);
        int ring = ringOf(event.owner());
        touched[ring] = true;
        if (trace == null) {
            rings[ring].publish(event);
        } else {
            rings[ring].publishTraced(event, trace);
        }
        int[] recipients = dropCopies.recipientsOf(event);
        for (int i = 0; i < recipients.length; i++) {
            int copyRing = ringOf(recipients[i]);
            touched[copyRing] = true;
            rings[copyRing].publishCopy(recipients[i], event);
        }
    }

    private int ringOf(int owner) {
        if (rings.length == 1) {
            return 0;
        }
        int ring = ringOfOwner.applyAsInt(owner);
        return ring >= 0 && ring < rings.length ? ring : 0;
    }
}
