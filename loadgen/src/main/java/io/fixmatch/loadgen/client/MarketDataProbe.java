package io.fixmatch.loadgen.client;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.codec.MessageBody;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The loadgen's own session subscribed to market data (35=V for the flow's symbols, the full book the venue offers,
 * bids, offers and trades), measuring how late the book's changes reach a subscriber: the {@value #PROBE} probe.
 *
 * <p>What is measured: the venue sends a command's market data to a session right after that command's execution
 * reports, in the same gateway order, so the first MarketDataIncrementalRefresh (35=X) that follows the report
 * answering one of our requests reports that request's change. Its sample is the time from when that request was
 * due (as every probe: coordinated omission corrected) to the X's arrival. A request whose change is not visible
 * (behind the depth, or an order status) has no X: the next answer takes its place, so no X is charged to the wrong
 * request. Everything else goes to the {@link RequestTracker}. Reader thread only.
 */
public final class MarketDataProbe implements FixClient.Listener, RequestTracker.AnswerListener {
    public static final String PROBE = "md_update";
    public static final String MD_REQ_ID = "LOADGEN-MD";

    private final RequestTracker tracker;
    private final Probes probes;
    /** When the last request answered was due; 0 once its X came (or none yet). */
    private long pendingDueNanos;
    private volatile long snapshots;
    private volatile long updates;
    private volatile long samples;
    private volatile String refusal;

    public MarketDataProbe(RequestTracker tracker, Probes probes) {
        this.tracker = tracker;
        this.probes = probes;
        tracker.answerListener(this);
    }

    /** The MarketDataRequest to send after Logon: snapshot + updates of {@code symbols}, full depth, 0/1/2. */
    public static MessageBody request(List<String> symbols) {
        return w -> {
            w.field(FixTags.MD_REQ_ID, MD_REQ_ID).field(FixTags.SUBSCRIPTION_REQUEST_TYPE, '1')
                .field(FixTags.MARKET_DEPTH, 0L).field(FixTags.MD_UPDATE_TYPE, 1L)
                .field(FixTags.NO_MD_ENTRY_TYPES, 3L).field(FixTags.MD_ENTRY_TYPE, '0')
                .field(FixTags.MD_ENTRY_TYPE, '1').field(FixTags.MD_ENTRY_TYPE, '2')
                .field(FixTags.NO_RELATED_SYM, (long) symbols.size());
            for (String symbol : symbols) {
                w.field(FixTags.SYMBOL, symbol);
            }
        };
    }

    @Override
    public void answered(long dueNanos) {
        pendingDueNanos = dueNanos;
    }

    @Override
    public void onMessage(FixMessage message, long receivedNanos) {
        switch (message.msgType()) {
            case MsgTypes.MARKET_DATA_INCREMENTAL -> {
                updates++;
                if (pendingDueNanos != 0) {
                    probes.recordOnly(PROBE, receivedNanos - pendingDueNanos);
                    pendingDueNanos = 0;
                    samples++;
                }
            }
            case MsgTypes.MARKET_DATA_SNAPSHOT -> snapshots++;
            case MsgTypes.MARKET_DATA_REQUEST_REJECT -> refusal = message.stringValue(FixTags.TEXT);
            default -> tracker.onMessage(message, receivedNanos);
        }
    }

    @Override
    public void onProblem(String description) {
        tracker.onProblem(description);
    }

    public long snapshots() {
        return snapshots;
    }

    /** Waits up to {@code timeoutMillis} for {@code count} snapshots or a refusal; returns whether they came. */
    public boolean awaitSnapshots(int count, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (snapshots < count && refusal == null && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        return snapshots >= count;
    }

    /** For summary.json ("flow"."market_data"). */
    public Map<String, Object> describe() {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("subscribed", refusal == null && snapshots > 0);
        if (refusal != null) {
            info.put("refused", refusal);
        }
        info.put("probe", PROBE);
        info.put("measures", "request due -> the first MarketDataIncrementalRefresh after the report that answered it"
            + " (the same session, subscribed to the flow's symbols)");
        info.put("snapshots", snapshots);
        info.put("updates", updates);
        info.put("samples", samples);
        return info;
    }
}
