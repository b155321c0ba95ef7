package io.fixmatch.fix.marketdata;

import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MessageBody;

/**
 * MarketDataSnapshotFullRefresh (35=W) of one symbol: MDReqID, Symbol, then the top levels asked for, bids (269=0)
 * best first, then offers (269=1) best first, each with MDEntryPx and MDEntrySize. An empty side has no entries.
 * During a call, if asked for, one 269=Q entry last: the indicative uncross price and volume.
 */
final class SnapshotBody implements MessageBody {
    private final SymbolTable symbols;
    private byte[] mdReqId;
    private int symbolId;
    private LevelBookSide bids;
    private LevelBookSide offers;
    private int bidCount;
    private int offerCount;
    private long indicativePrice;
    private long indicativeVolume;

    SnapshotBody(SymbolTable symbols) {
        this.symbols = symbols;
    }

    /** @param bidBook the bids to show, null for none; {@code offerBook} likewise */
    SnapshotBody of(byte[] requestId, int symbol, LevelBookSide bidBook, LevelBookSide offerBook, int depth) {
        mdReqId = requestId;
        symbolId = symbol;
        bids = bidBook;
        offers = offerBook;
        bidCount = bidBook == null ? 0 : Math.min(depth, bidBook.count());
        offerCount = offerBook == null ? 0 : Math.min(depth, offerBook.count());
        indicativePrice = 0;
        indicativeVolume = 0;
        return this;
    }

    /** The symbol is in a call and the request asked for 269=Q: one entry with its indicative price and volume. */
    SnapshotBody indicative(long price, long volume) {
        indicativePrice = price;
        indicativeVolume = volume;
        return this;
    }

    int bidCount() {
        return bidCount;
    }

    int offerCount() {
        return offerCount;
    }

    @Override
    public void writeBody(FixWriter w) {
        int scale = symbols.priceScale(symbolId);
        w.field(FixTags.MD_REQ_ID, mdReqId).field(FixTags.SYMBOL, symbols.name(symbolId))
            .field(FixTags.NO_MD_ENTRIES, (long) (bidCount + offerCount + (indicativeVolume > 0 ? 1 : 0)));
        for (int i = 0; i < bidCount; i++) {
            w.field(FixTags.MD_ENTRY_TYPE, IncrementalBody.BID).decimal(FixTags.MD_ENTRY_PX, bids.price(i), scale)
                .field(FixTags.MD_ENTRY_SIZE, bids.quantity(i));
        }
        for (int i = 0; i < offerCount; i++) {
            w.field(FixTags.MD_ENTRY_TYPE, IncrementalBody.OFFER).decimal(FixTags.MD_ENTRY_PX, offers.price(i), scale)
                .field(FixTags.MD_ENTRY_SIZE, offers.quantity(i));
        }
        if (indicativeVolume > 0) {
            w.field(FixTags.MD_ENTRY_TYPE, IncrementalBody.INDICATIVE)
                .decimal(FixTags.MD_ENTRY_PX, indicativePrice, scale).field(FixTags.MD_ENTRY_SIZE, indicativeVolume);
        }
    }
}
