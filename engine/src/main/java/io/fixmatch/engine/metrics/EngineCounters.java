package io.fixmatch.engine.metrics;

import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.RejectReason;

/**
 * What the matching thread counts, for the metrics: commands processed, journaled and refused for want of a journal,
 * and the
 * events it published (orders accepted, rejected by reason, canceled (by reason), expired, replaced; cancel and replace requests refused
 * by reason; fills and filled quantity by symbol). Written by the matching thread alone ({@link CounterArray}),
 * read by any thread. Events replayed at recovery are not counted: the counts start with the process.
 */
public final class EngineCounters {
    private static final int COMMANDS = 0;
    private static final int JOURNAL_REFUSALS = 1;
    private static final int ACCEPTED = 2;
    private static final int CANCELED = 3;
    private static final int REPLACED = 4;
    private static final int JOURNALED = 5;
    private static final int EXPIRED = 6;
    private static final int REJECTED = 7;

    private final int reasons = RejectReason.count();
    private final int cancelRejected = REJECTED + reasons;
    private final int replaceRejected = cancelRejected + reasons;
    private final int fills = replaceRejected + reasons;
    private final int filledQuantity;
    private final int canceledByReason;
    private final int symbols;
    private final CounterArray counters;

    public EngineCounters(int symbols) {
        this.symbols = symbols;
        this.filledQuantity = fills + symbols;
        this.canceledByReason = filledQuantity + symbols;
        this.counters = new CounterArray(canceledByReason + reasons);
    }

    /** Matching thread: one event the engine published (not during recovery). */
    public void onEvent(ExecutionEvent event) {
        switch (event.type()) {
            case ACCEPTED -> counters.increment(ACCEPTED);
            case REJECTED -> counters.increment(REJECTED + event.rejectReason().ordinal());
            case CANCELED -> {
                counters.increment(CANCELED);
                counters.increment(canceledByReason + event.rejectReason().ordinal());
            }
            case EXPIRED -> counters.increment(EXPIRED);
            case REPLACED -> counters.increment(REPLACED);
            case CANCEL_REJECTED -> counters.increment(cancelRejected + event.rejectReason().ordinal());
            case REPLACE_REJECTED -> counters.increment(replaceRejected + event.rejectReason().ordinal());
            case FILL -> {
                if (event.symbolId() >= 0 && event.symbolId() < symbols) {
                    counters.increment(fills + event.symbolId());
                    counters.add(filledQuantity + event.symbolId(), event.lastQuantity());
                }
            }
            case STATUS -> { }
        }
    }

    /** Matching thread: a command was processed (read-only ones included). */
    public void commandProcessed() {
        counters.increment(COMMANDS);
    }

    /** Matching thread: a command that changes state was appended to the journal. */
    public void commandJournaled() {
        counters.increment(JOURNALED);
    }

    /** Matching thread: a command was refused because the journal could not take it. */
    public void journalRefusal() {
        counters.increment(JOURNAL_REFUSALS);
    }

    public long commandsProcessed() {
        return counters.get(COMMANDS);
    }

    /** Commands appended to the journal (those that change state) since start. */
    public long commandsJournaled() {
        return counters.get(JOURNALED);
    }

    public long journalRefusals() {
        return counters.get(JOURNAL_REFUSALS);
    }

    public long ordersAccepted() {
        return counters.get(ACCEPTED);
    }

    /** New orders the engine rejected for this reason. */
    public long ordersRejected(RejectReason reason) {
        return counters.get(REJECTED + reason.ordinal());
    }

    /** Orders canceled: on request, by cancel-all, or at the end of an IOC, FOK or market order. */
    public long ordersCanceled() {
        return counters.get(CANCELED);
    }

    /**
     * Orders canceled for a reason of the engine's own: self-trade prevention (SELF_TRADE_INCOMING,
     * SELF_TRADE_RESTING), the kill switch (KILL_SWITCH_ENGAGED); NONE for every other cancel.
     */
    public long ordersCanceled(RejectReason reason) {
        return counters.get(canceledByReason + reason.ordinal());
    }

    /** DAY orders expired at the end of the day. */
    public long ordersExpired() {
        return counters.get(EXPIRED);
    }

    public long ordersReplaced() {
        return counters.get(REPLACED);
    }

    public long cancelsRejected(RejectReason reason) {
        return counters.get(cancelRejected + reason.ordinal());
    }

    public long replacesRejected(RejectReason reason) {
        return counters.get(replaceRejected + reason.ordinal());
    }

    /** Trades in the symbol: each trade is reported to both sides, as two fills. */
    public long trades(int symbolId) {
        return counters.get(fills + symbolId) / 2;
    }

    /** Quantity traded in the symbol (each trade counted once). */
    public long tradedQuantity(int symbolId) {
        return counters.get(filledQuantity + symbolId) / 2;
    }

    public int symbolCount() {
        return symbols;
    }
}
