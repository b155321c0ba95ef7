package io.fixmatch.cluster.client;

import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.matching.TradingSettings;
import org.agrona.collections.LongArrayList;

import java.util.Map;

/**
 * Where the cluster stands when a gateway connects: how many of the gateway's commands it has applied, the egress
 * batches numbered for it and the oldest still held, each of its sessions' last request the engine holds (the inbound
 * position, as a standalone server's journal would tell it) and settings, the symbols' reference prices, schedule and
 * volatility settings, and the books as they rest and the calls' indicative uncrosses (for its market data); for the
 * binary feed, the number of the market data message the books are as of and each symbol's last trade price.
 */
public record Welcome(long lastApplied, long lastEgress, long oldestHeld, Map<Integer, Long> inboundPositions,
                      Map<Integer, long[]> sessionControls, long[] referencePrices, SymbolSettings symbolSettings,
                      int leaderMemberId, LongArrayList seed, long marketDataSequence, long[] lastTradePrices)
    implements TradingSettings {
    /** A welcome from a node of an earlier release: it does not say the market data sequence number. */
    public static final long UNKNOWN_SEQUENCE = -1;

    /** Takes the books as they rest: one resting order at a time. */
    public interface RestingOrderSink {
        void restingOrder(int symbolId, Side side, long price, long quantity);
    }

    /** Takes the indicative uncross of each symbol in a call that has one. */
    public interface IndicativeSink {
        void indicative(int symbolId, long price, long volume);
    }

    /** The books as they rest: one resting order at a time. */
    public void forEachRestingOrder(RestingOrderSink sink) {
        for (int i = 0; i + 3 < seed.size(); i += 4) {
            int kind = (int) seed.getLong(i + 1);
            if (kind != Egress.SEED_INDICATIVE) {
                sink.restingOrder((int) seed.getLong(i), Side.values()[kind], seed.getLong(i + 2), seed.getLong(i + 3));
            }
        }
    }

    /** The calls' indicative uncrosses, one symbol at a time. */
    public void forEachIndicative(IndicativeSink sink) {
        for (int i = 0; i + 3 < seed.size(); i += 4) {
            if (seed.getLong(i + 1) == Egress.SEED_INDICATIVE) {
                sink.indicative((int) seed.getLong(i), seed.getLong(i + 2), seed.getLong(i + 3));
            }
        }
    }

    /** The owner's last request the engine holds (0: none, or not this gateway's session). */
    public long inboundPosition(int owner) {
        return inboundPositions.getOrDefault(owner, 0L);
    }

    /** The gateway's own sessions' settings as the engine holds them (0 for others). */
    @Override
    public long sessionControl(int owner, SessionControl control) {
        long[] values = sessionControls.get(owner);
        return values == null ? 0 : values[control.ordinal()];
    }

    /** The symbol's last trade price (0: none, or a node of an earlier release did not say). */
    public long lastTradePrice(int symbolId) {
        return symbolId >= 0 && symbolId < lastTradePrices.length ? lastTradePrices[symbolId] : 0;
    }

    @Override
    public long referencePrice(int symbolId) {
        return symbolId >= 0 && symbolId < referencePrices.length ? referencePrices[symbolId] : 0;
    }

    @Override
    public long symbolControl(int symbolId, SymbolControl control) {
        return symbolSettings.control(symbolId, control);
    }

    @Override
    public String symbolTimeZone(int symbolId) {
        return symbolSettings.timeZone(symbolId);
    }
}
