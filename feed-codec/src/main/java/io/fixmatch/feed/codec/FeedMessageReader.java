package io.fixmatch.feed.codec;

import io.fixmatch.feed.sbe.BooleanType;
import io.fixmatch.feed.sbe.HaltDecoder;
import io.fixmatch.feed.sbe.IndicativeUncrossDecoder;
import io.fixmatch.feed.sbe.LevelUpdateDecoder;
import io.fixmatch.feed.sbe.MessageHeaderDecoder;
import io.fixmatch.feed.sbe.PhaseChangeDecoder;
import io.fixmatch.feed.sbe.TradeDecoder;
import org.agrona.DirectBuffer;

/** Decodes one message of the incremental stream and hands it to a {@link FeedListener}. Reuses its flyweights. */
public final class FeedMessageReader {
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final LevelUpdateDecoder level = new LevelUpdateDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final IndicativeUncrossDecoder indicative = new IndicativeUncrossDecoder();
    private final PhaseChangeDecoder phase = new PhaseChangeDecoder();
    private final HaltDecoder halt = new HaltDecoder();

    /** Returns false for a message this reader does not know (another schema, a template it lacks): skipped. */
    public boolean read(DirectBuffer buffer, int offset, int length, long sequence, FeedListener listener) {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH) {
            return false;
        }
        header.wrap(buffer, offset);
        if (header.schemaId() != LevelUpdateDecoder.SCHEMA_ID) {
            return false;
        }
        int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        int blockLength = header.blockLength();
        int version = header.version();
        switch (header.templateId()) {
            case LevelUpdateDecoder.TEMPLATE_ID -> {
                level.wrap(buffer, body, blockLength, version);
                listener.onLevel(sequence, level.symbolId(), level.side(), level.action(), level.price(),
                    level.quantity());
            }
            case TradeDecoder.TEMPLATE_ID -> {
                trade.wrap(buffer, body, blockLength, version);
                listener.onTrade(sequence, trade.symbolId(), trade.price(), trade.quantity());
            }
            case IndicativeUncrossDecoder.TEMPLATE_ID -> {
                indicative.wrap(buffer, body, blockLength, version);
                listener.onIndicative(sequence, indicative.symbolId(), indicative.price(), indicative.volume());
            }
            case PhaseChangeDecoder.TEMPLATE_ID -> {
                phase.wrap(buffer, body, blockLength, version);
                listener.onPhase(sequence, phase.symbolId(), phase.phase());
            }
            case HaltDecoder.TEMPLATE_ID -> {
                halt.wrap(buffer, body, blockLength, version);
                listener.onHalt(sequence, halt.symbolId(), halt.halted() == BooleanType.TRUE);
            }
            default -> {
                return false;
            }
        }
        return true;
    }
}
