package io.fixmatch.loadgen.client;

import io.fixmatch.feed.codec.SymbolBook;
import io.fixmatch.feed.handler.FeedHandler;
import io.fixmatch.feed.handler.HandlerSettings;
import io.fixmatch.feed.handler.MessageObserver;
import io.fixmatch.feed.sbe.LevelUpdateDecoder;
import io.fixmatch.feed.sbe.MessageHeaderDecoder;
import io.fixmatch.feed.sbe.Side;
import io.fixmatch.loadgen.flow.LevelKey;
import io.fixmatch.loadgen.flow.RequestSource;
import io.fixmatch.loadgen.phase.SendListener;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayQueue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The venue's binary market data feed (docs/FEED.md) heard by its reference handler, measuring how late each request's
 * change reaches a feed subscriber: the {@value #PROBE} probe, from when the request was due (coordinated omission
 * corrected, as every probe) to when the handler applied the feed's update of the request's price level.
 *
 * <p>Which update is a request's: the seeded flow is alone in its books and knows the levels each request changes
 * ({@link RequestSource#changedLevel}); the venue tells one change of a level per command, in command order. So the
 * n-th update of a level answers the n-th request that changes it: the sender queues each request's levels (its first
 * with the due time, the others as placeholders) and the handler's thread takes them off per level as updates come. A
 * recorded flow's effects are not known: no samples. The handler must hold books before the first order is sent.
 *
 * <p>Threads: {@link #sending} on the sending thread (allocation-free: a single-producer ring), the rest on the
 * handler's.
 */
public final class FeedProbe implements SendListener, MessageObserver, AutoCloseable {
    public static final String PROBE = "feed_update";
    private static final int RING = 1 << 16;
    private static final long PLACEHOLDER = -1;

    private final Probes probes;
    private final List<String> symbols;
    private final int priceScale;
    private final FeedHandler handler;
    private final long[] ringKeys = new long[RING];
    private final long[] ringDues = new long[RING];
    /** Sender-owned: the next slot to write. */
    private long tail;
    /** Published by the sender (release), read by the handler's thread. */
    private final AtomicLong published = new AtomicLong();
    /** Handler-owned: the next slot to read. */
    private long head;
    /** {@link #head} as the handler's thread last published it, for the sender's room check. */
    private final AtomicLong headSeen = new AtomicLong();
    private final Long2ObjectHashMap<LongArrayQueue> expected = new Long2ObjectHashMap<>();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final LevelUpdateDecoder level = new LevelUpdateDecoder();
    /** By the feed's symbol id: the flow's symbol index, -1 for a symbol not in the flow. */
    private int[] flowSymbol = new int[0];
    /** Feed price units per flow price unit (1 when the scales agree; 0: they cannot be matched). */
    private long unitsPerFlowUnit = 1;
    private volatile long samples;
    private volatile long unmatched;
    private volatile long overflows;
    /** Handler-owned: level changes taken off the sender's ring and not yet seen in the feed. */
    private volatile long queuedChanges;
    /**
     * Set once the flow has ended ({@link #endOfFlow}): later updates are not the flow's (the venue canceling the
     * session's resting orders when it logs out, say) and are not counted.
     */
    private volatile boolean ended;

    /**
     * @param symbols    the flow's symbols, in its order
     * @param priceScale the flow's price scale (decimal places of a price unit)
     */
    public FeedProbe(HandlerSettings settings, Probes probes, List<String> symbols, int priceScale) {
        this.probes = probes;
        this.symbols = List.copyOf(symbols);
        this.priceScale = priceScale;
        this.handler = new FeedHandler(settings);
        handler.observer(this);
        handler.start();
    }

    /** Waits up to {@code timeoutMillis} for the handler to hold books (a whole snapshot cycle); whether it does. */
    public boolean awaitBooks(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!handler.synced() && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        return handler.synced();
    }

    // --- the sending thread ---

    @Override
    public void sending(RequestSource source, long dueNanos) {
        int levels = source.changedLevels();
        if (tail + levels - head() > RING) {
            overflows++; // the handler is far behind: this request goes unmeasured (and the rest stay in step)
            return;
        }
        for (int i = 0; i < levels; i++) {
            int slot = (int) (tail & (RING - 1));
            ringKeys[slot] = source.changedLevel(i);
            ringDues[slot] = i == 0 ? dueNanos : PLACEHOLDER;
            tail++;
        }
        published.setRelease(tail);
    }

    private long head() {
        return headSeen.getAcquire();
    }

    /**
     * The flow's last request sent and answered: waits up to {@code timeoutMillis} for the feed to bring every level
     * change the flow's requests made, then counts nothing more, so that what the session's logout makes the venue do
     * (canceling its resting orders, with cancel-on-disconnect) is not taken for updates no request explains. Whether
     * every change came.
     */
    public boolean endOfFlow(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (published.getAcquire() - head() + queuedChanges > 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(1);
        }
        ended = true;
        return published.getAcquire() - head() + queuedChanges == 0;
    }

    // --- the handler's thread ---

    @Override
    public void installed(long lastSequence, SymbolBook[] books) {
        flowSymbol = new int[books.length];
        Arrays.fill(flowSymbol, -1);
        for (int i = 0; i < symbols.size(); i++) {
            int id = handler.symbolId(symbols.get(i));
            if (id >= 0) {
                flowSymbol[id] = i;
                int scale = handler.priceScale(id);
                unitsPerFlowUnit = scale < priceScale ? 0 : pow10(scale - priceScale);
            }
        }
        expected.clear(); // a snapshot taken again: what was in flight cannot be told apart any more
        queuedChanges = 0;
    }

    @Override
    public void applied(long sequence, int symbolId, DirectBuffer buffer, int offset, int length) {
        long now = System.nanoTime();
        if (ended) {
            return;
        }
        header.wrap(buffer, offset);
        if (header.templateId() != LevelUpdateDecoder.TEMPLATE_ID) {
            return;
        }
        level.wrap(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        int symbol = symbolId >= 0 && symbolId < flowSymbol.length ? flowSymbol[symbolId] : -1;
        long price = level.price();
        if (symbol < 0 || unitsPerFlowUnit == 0 || price % unitsPerFlowUnit != 0) {
            return;
        }
        takeSent();
        LongArrayQueue dues = expected.get(LevelKey.of(symbol, level.side() == Side.BUY, price / unitsPerFlowUnit));
        if (dues == null || dues.isEmpty()) {
            unmatched++;
            return;
        }
        long due = dues.pollLong();
        queuedChanges--;
        if (due != PLACEHOLDER) {
            probes.recordOnly(PROBE, now - due);
            samples++;
        }
    }

    /** Moves what the sender queued into the per-level queues. */
    private void takeSent() {
        long upTo = published.getAcquire();
        for (; head < upTo; head++) {
            int slot = (int) (head & (RING - 1));
            LongArrayQueue dues = expected.get(ringKeys[slot]);
            if (dues == null) {
                dues = new LongArrayQueue(PLACEHOLDER - 1);
                expected.put(ringKeys[slot], dues);
            }
            dues.addLong(ringDues[slot]);
            queuedChanges++;
        }
        headSeen.setRelease(head);
    }

    private static long pow10(int exponent) {
        long value = 1;
        for (int i = 0; i < exponent; i++) {
            value *= 10;
        }
        return value;
    }

    /** For summary.json ("flow"."feed"). */
    public Map<String, Object> describe() {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("probe", PROBE);
        info.put("measures", "request due -> the reference feed handler applied the update of the request's price level"
            + " (the binary feed over UDP, docs/FEED.md)");
        info.put("stream", handler.settings().stream().toString());
        info.put("synced", handler.synced());
        info.put("samples", samples);
        info.put("unmatched_updates", unmatched);
        info.put("unmeasured_requests", overflows);
        info.put("handler", handler.health().toString());
        info.put("recoveries", handler.recoveries().size());
        return info;
    }

    @Override
    public void close() {
        handler.close();
    }
}
