package io.fixmatch.fix.marketdata;

import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MessageBody;

/**
 * MarketDataSnapshotFullRefresh (35=W) of one symbol: MDReqID, Symbol, then the top levels asked for, bids (269=0)
 * best first, then offers (269=1) best first, each with MDEntryPx and MDEntrySize. An empty side has no entries.
 */
final class SnapshotBody implements MessageBody {
    private final SymbolTable symbols;
    private byte[] mdReqId;
    private int symbolId;
    private LevelBookSide bids;
    private LevelBookSide offers;
    private int bidCount;
    private int offerCount;

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
            .field(FixTags.NO_MD_ENTRIES, (long) (bidCount + offerCount));
        for (int i = 0; i < bidCount; i++) {
            w.field(FixTags.MD_ENTRY_TYPE, IncrementalBody.BID).decimal(FixTags.MD_ENTRY_PX, bids.price(i), scale)
                .field(FixTags.MD_ENTRY_SIZE, bids.quantity(i));
        }
        for (int i = 0; i < offerCount; i++) {
            w.field(FixTags.MD_ENTRY_TYPE, IncrementalBody.OFFER).decimal(FixTags.MD_ENTRY_PX, offers.price(i), scale)
                .field(FixTags.MD_ENTRY_SIZE, offers.quantity(i));
        }
    }
}
