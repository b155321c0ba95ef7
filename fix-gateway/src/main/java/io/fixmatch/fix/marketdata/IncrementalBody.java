package io.fixmatch.fix.marketdata;

import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MessageBody;

/**
 * MarketDataIncrementalRefresh (35=X) of one subscription: MDReqID, then entries of MDUpdateAction (279: 0 new,
 * 1 change, 2 delete), MDEntryType (269: 0 bid, 1 offer, 2 trade, Q indicative), Symbol, MDEntryPx and, but for deletes,
 * MDEntrySize (the level's new total, the trade's size, the indicative volume). At most {@link #capacity()} entries, so that it fits in
 * a message of the session's maximum size. Reused: {@link #start}, {@link #add}, send, {@link #clear}.
 */
final class IncrementalBody implements MessageBody {
    static final char NEW = '0';
    static final char CHANGE = '1';
    static final char DELETE = '2';
    static final char BID = '0';
    static final char OFFER = '1';
    static final char TRADE = '2';
    /** The indicative uncross price (270) and volume (271) of a call (FIX 5.0's Auction Clearing Price). */
    static final char INDICATIVE = 'Q';
    /** Bytes of a message that are not entries (header, MDReqID, NoMDEntries, trailer), generously. */
    private static final int OVERHEAD_BYTES = 512;
    /** Bytes of one entry but its Symbol: the tags, '=' and SOH, an action, a type, a price and a size of 19 digits. */
    private static final int ENTRY_BYTES = 72;

    private final SymbolTable symbols;
    private final char[] actions;
    private final char[] types;
    private final int[] symbolIds;
    private final long[] prices;
    private final long[] quantities;
    private byte[] mdReqId;
    private int count;

    IncrementalBody(SymbolTable symbols, int capacity) {
        this.symbols = symbols;
        actions = new char[capacity];
        types = new char[capacity];
        symbolIds = new int[capacity];
        prices = new long[capacity];
        quantities = new long[capacity];
    }

    /** How many entries fit in one message of {@code maxMessageSize} bytes, with symbols up to this long. */
    static int entriesPerMessage(int maxMessageSize, int longestSymbol) {
        return Math.max(2, (maxMessageSize - OVERHEAD_BYTES) / (ENTRY_BYTES + longestSymbol));
    }

    int capacity() {
        return actions.length;
    }

    void start(byte[] requestId) {
        mdReqId = requestId;
        count = 0;
    }

    boolean isFull() {
        return count == actions.length;
    }

    boolean isEmpty() {
        return count == 0;
    }

    int count() {
        return count;
    }

    void add(char action, char type, int symbolId, long price, long quantity) {
        actions[count] = action;
        types[count] = type;
        symbolIds[count] = symbolId;
        prices[count] = price;
        quantities[count] = quantity;
        count++;
    }

    /** Sent: the next entries start a new message of the same subscription. */
    void clear() {
        count = 0;
    }

    @Override
    public void writeBody(FixWriter w) {
        w.field(FixTags.MD_REQ_ID, mdReqId).field(FixTags.NO_MD_ENTRIES, (long) count);
        for (int i = 0; i < count; i++) {
            int symbolId = symbolIds[i];
            w.field(FixTags.MD_UPDATE_ACTION, actions[i]).field(FixTags.MD_ENTRY_TYPE, types[i])
                .field(FixTags.SYMBOL, symbols.name(symbolId))
                .decimal(FixTags.MD_ENTRY_PX, prices[i], symbols.priceScale(symbolId));
            if (actions[i] != DELETE) {
                w.field(FixTags.MD_ENTRY_SIZE, quantities[i]);
            }
        }
    }
}
