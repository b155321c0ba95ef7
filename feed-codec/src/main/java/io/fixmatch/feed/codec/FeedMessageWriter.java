package io.fixmatch.feed.codec;

import io.fixmatch.feed.sbe.BooleanType;
import io.fixmatch.feed.sbe.HaltEncoder;
import io.fixmatch.feed.sbe.IndicativeUncrossEncoder;
import io.fixmatch.feed.sbe.LevelUpdateEncoder;
import io.fixmatch.feed.sbe.MessageHeaderEncoder;
import io.fixmatch.feed.sbe.PhaseChangeEncoder;
import io.fixmatch.feed.sbe.RejectReason;
import io.fixmatch.feed.sbe.RetransmitRejectEncoder;
import io.fixmatch.feed.sbe.Side;
import io.fixmatch.feed.sbe.TradeEncoder;
import io.fixmatch.feed.sbe.TradingPhase;
import io.fixmatch.feed.sbe.UpdateAction;
import org.agrona.MutableDirectBuffer;

/**
 * Writes the stream's messages (header and body, SBE) at an offset; each method returns the bytes written. Reuses its
 * flyweights: one per thread. Allocation-free.
 */
public final class FeedMessageWriter {
    /** The longest message of the incremental stream, header included. */
    public static final int MAX_STREAM_MESSAGE = MessageHeaderEncoder.ENCODED_LENGTH + LevelUpdateEncoder.BLOCK_LENGTH;

    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final LevelUpdateEncoder level = new LevelUpdateEncoder();
    private final TradeEncoder trade = new TradeEncoder();
    private final IndicativeUncrossEncoder indicative = new IndicativeUncrossEncoder();
    private final PhaseChangeEncoder phase = new PhaseChangeEncoder();
    private final HaltEncoder halt = new HaltEncoder();
    private final RetransmitRejectEncoder reject = new RetransmitRejectEncoder();

    public int level(MutableDirectBuffer buffer, int offset, int symbolId, Side side, UpdateAction action, long price,
                     long quantity) {
        level.wrapAndApplyHeader(buffer, offset, header).symbolId(symbolId).side(side).action(action).price(price)
            .quantity(quantity);
        return MessageHeaderEncoder.ENCODED_LENGTH + level.encodedLength();
    }

    public int trade(MutableDirectBuffer buffer, int offset, int symbolId, long price, long quantity) {
        trade.wrapAndApplyHeader(buffer, offset, header).symbolId(symbolId).price(price).quantity(quantity);
        return MessageHeaderEncoder.ENCODED_LENGTH + trade.encodedLength();
    }

    public int indicative(MutableDirectBuffer buffer, int offset, int symbolId, long price, long volume) {
        indicative.wrapAndApplyHeader(buffer, offset, header).symbolId(symbolId).price(price).volume(volume);
        return MessageHeaderEncoder.ENCODED_LENGTH + indicative.encodedLength();
    }

    public int phase(MutableDirectBuffer buffer, int offset, int symbolId, TradingPhase tradingPhase) {
        phase.wrapAndApplyHeader(buffer, offset, header).symbolId(symbolId).phase(tradingPhase);
        return MessageHeaderEncoder.ENCODED_LENGTH + phase.encodedLength();
    }

    public int halt(MutableDirectBuffer buffer, int offset, int symbolId, boolean halted) {
        halt.wrapAndApplyHeader(buffer, offset, header).symbolId(symbolId)
            .halted(halted ? BooleanType.TRUE : BooleanType.FALSE);
        return MessageHeaderEncoder.ENCODED_LENGTH + halt.encodedLength();
    }

    public int reject(MutableDirectBuffer buffer, int offset, long fromSequence, int count, RejectReason reason,
                      long firstAvailable, long lastAvailable) {
        reject.wrapAndApplyHeader(buffer, offset, header).fromSequence(fromSequence).count(count).reason(reason)
            .firstAvailable(firstAvailable).lastAvailable(lastAvailable);
        return MessageHeaderEncoder.ENCODED_LENGTH + reject.encodedLength();
    }
}
