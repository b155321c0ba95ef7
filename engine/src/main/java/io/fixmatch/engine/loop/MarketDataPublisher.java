package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.MarketDataSink;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TradingPhase;
import io.fixmatch.engine.codec.MarketDataCodec;
import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The engine's market data on the matching thread: collects one command's level changes, trades and indicative uncrosses in a staging
 * buffer ({@link MarketDataCodec} entries; a level changed again right after is updated in place, so a sweep through
 * a level's orders costs one entry) and, when the command is done, copies them as one record into every gateway's
 * outbound ring, after the command's execution reports. That is all the matching step does for market data: the
 * books of levels, the subscriptions and the FIX messages live on the gateway threads.
 *
 * <p>Every entry is one message of the binary feed (docs/FEED.md), and its number is decided here, in the command
 * stream: each record carries the number of its first entry, given by the engine ({@link
 * MatchingEngine#advanceMarketDataSequence}, kept in its state), so a restart that replays the journal, or another
 * replica of the cluster, numbers every message alike. For that the entries are staged and counted the same way while
 * the journal is replayed, and only not published (the gateways start from the recovered books).
 *
 * <p>A command with more changes than one record holds (a sweep through thousands of orders, the end of the day
 * expiring every resting order) is split into several records, each but the last marked
 * {@link MarketDataCodec#CONTINUED}. A record is at most the staging buffer, and at most what the smallest outbound
 * ring takes as one record (an eighth of its capacity: a cluster node's staging rings are small). Where a record is
 * split decides the count (a level changed on both sides of a split is two entries), so the replicas' rings are one
 * size (a node's staging rings are a constant), and a standalone server replaying its journal should keep its
 * engine.outboundRingBytes (below 512 KiB it splits records). Nothing is published or numbered when market data is
 * off.
 */
final class MarketDataPublisher implements MarketDataSink {
    static final int STAGING_BYTES = 1 << 16;

    private final UnsafeBuffer staging = new UnsafeBuffer(ByteBuffer.allocateDirect(STAGING_BYTES));
    private final OutboundRouting rings;
    private final MatchingEngine engine;
    /** The entries of one record: what the staging buffer and every outbound ring's largest record hold. */
    private final int maxEntries;
    private int entries;
    /** The entry of the last level change of this record (-1: none), and its level. */
    private int lastLevelEntry = -1;
    private int lastSymbolId;
    private Side lastSide;
    private long lastPrice;
    private boolean replaying;

    MarketDataPublisher(OutboundRouting rings, MatchingEngine engine) {
        this.rings = rings;
        this.engine = engine;
        this.maxEntries = (Math.min(STAGING_BYTES, rings.maxMarketDataBytes()) - MarketDataCodec.HEADER_LENGTH)
            / MarketDataCodec.ENTRY_LENGTH;
    }

    /** During journal replay the entries are numbered but not published. */
    void replaying(boolean value) {
        replaying = value;
        entries = 0;
        lastLevelEntry = -1;
    }

    @Override
    public void levelChanged(int symbolId, Side side, long price, long quantity) {
        if (lastLevelEntry >= 0 && lastPrice == price && lastSide == side && lastSymbolId == symbolId) {
            MarketDataCodec.putQuantity(staging, 0, lastLevelEntry, quantity);
            return;
        }
        lastLevelEntry = add(MarketDataCodec.LEVEL, side, symbolId, price, quantity);
        lastSymbolId = symbolId;
        lastSide = side;
        lastPrice = price;
    }

    @Override
    public void traded(int symbolId, long price, long quantity) {
        add(MarketDataCodec.TRADE, null, symbolId, price, quantity);
    }

    @Override
    public void indicative(int symbolId, TradingPhase phase, long price, long volume) {
        add(MarketDataCodec.INDICATIVE, null, symbolId, price, volume);
    }

    @Override
    public void phase(int symbolId, TradingPhase phase) {
        add(MarketDataCodec.PHASE, null, symbolId, phase.code(), 0);
    }

    @Override
    public void halted(int symbolId, boolean halted) {
        add(MarketDataCodec.HALT, null, symbolId, 0, halted ? 1 : 0);
    }

    /** The command is done: its changes go to every ring as one record (nothing if it changed nothing public). */
    @Override
    public void commandDone() {
        if (entries > 0) {
            flush((byte) 0);
        }
    }

    private int add(byte kind, Side side, int symbolId, long price, long quantity) {
        if (entries == maxEntries) {
            flush(MarketDataCodec.CONTINUED);
        }
        MarketDataCodec.putEntry(staging, 0, entries, kind, side, symbolId, price, quantity);
        return entries++;
    }

    private void flush(byte flags) {
        MarketDataCodec.putHeader(staging, 0, flags, engine.advanceMarketDataSequence(entries));
        if (!replaying) {
            rings.publishMarketData(staging, MarketDataCodec.HEADER_LENGTH + entries * MarketDataCodec.ENTRY_LENGTH);
        }
        entries = 0;
        lastLevelEntry = -1;
    }
}
