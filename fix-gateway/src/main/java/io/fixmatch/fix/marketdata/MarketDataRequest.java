package io.fixmatch.fix.marketdata;

import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;

import java.util.Arrays;

/**
 * A MarketDataRequest (35=V) read and checked: what it asks for, or why it is refused (the MDReqRejReason and a
 * Text for the MarketDataRequestReject). The dictionary has already checked its structure (required fields,
 * groups, value sets), so this checks what the venue supports. Reused for every request of one gateway.
 */
final class MarketDataRequest {
    static final char SNAPSHOT = '0';
    static final char SUBSCRIBE = '1';
    static final char UNSUBSCRIBE = '2';
    static final int MAX_MD_REQ_ID_LENGTH = 64;
    /** The Text of the 35=Y refusing 269=Q to a session not configured for it (docs/FIX.md). */
    static final String INDICATIVE_NOT_CONFIGURED = "MDEntryType(269) Q (indicative auction price) is not a FIX 4.4"
        + " value: the venue sends it only to sessions configured for it (marketData.indicative); offered: 0 bid,"
        + " 1 offer, 2 trade";

    private final SymbolTable symbols;
    private final int maxDepth;
    private final int[] scratchSymbols;
    private char type;
    private int depth;
    private boolean bids;
    private boolean offers;
    private boolean trades;
    private boolean indicative;
    private int symbolCount;
    private char rejectReason;
    private String rejectText;

    MarketDataRequest(SymbolTable symbols, int symbolCount, int maxDepth) {
        this.symbols = symbols;
        this.maxDepth = maxDepth;
        this.scratchSymbols = new int[symbolCount];
    }

    /**
     * Reads {@code message}; returns false if it is refused ({@link #rejectReason()}, {@link #rejectText()}).
     *
     * @param indicativeAllowed whether the session is configured for the indicative uncross
     *                          ({@code session.<ID>.marketData.indicative}); if not, a request for 269=Q is refused
     *                          (281=8): Q is no FIX 4.4 value
     */
    boolean read(FixMessage message, boolean indicativeAllowed) {
        rejectReason = RequestRejectBody.NO_REASON;
        rejectText = null;
        type = (char) message.byteValue(FixTags.SUBSCRIPTION_REQUEST_TYPE);
        if (message.valueLength(FixTags.MD_REQ_ID) > MAX_MD_REQ_ID_LENGTH) {
            return refuse(RequestRejectBody.NO_REASON, "MDReqID(262) longer than " + MAX_MD_REQ_ID_LENGTH
                + " characters");
        }
        if (type == UNSUBSCRIBE) {
            return true; // the MDReqID is all that counts
        }
        long asked = message.longValue(FixTags.MARKET_DEPTH);
        if (asked < 0 || asked > maxDepth) {
            return refuse(RequestRejectBody.UNSUPPORTED_MARKET_DEPTH, "MarketDepth(264) must be 0 (the full book,"
                + " up to " + maxDepth + " levels) to " + maxDepth + ", was " + message.stringValue(FixTags.MARKET_DEPTH));
        }
        depth = asked == 0 ? maxDepth : (int) asked;
        if (type == SUBSCRIBE && message.has(FixTags.MD_UPDATE_TYPE)
            && !message.isSingleByte(FixTags.MD_UPDATE_TYPE, '1')) {
            return refuse(RequestRejectBody.UNSUPPORTED_MD_UPDATE_TYPE,
                "MDUpdateType(265) must be 1 (incremental refresh): full refresh updates are not offered");
        }
        if (message.has(FixTags.AGGREGATED_BOOK) && !message.isSingleByte(FixTags.AGGREGATED_BOOK, 'Y')) {
            return refuse(RequestRejectBody.UNSUPPORTED_AGGREGATED_BOOK,
                "AggregatedBook(266) must be Y: only the aggregated book (one entry per price level) is offered");
        }
        return readEntryTypes(message, indicativeAllowed) && readSymbols(message);
    }

    private boolean readEntryTypes(FixMessage message, boolean indicativeAllowed) {
        bids = false;
        offers = false;
        trades = false;
        indicative = false;
        for (int field = 0; field < message.fieldCount(); field++) {
            if (message.tagAt(field) != FixTags.MD_ENTRY_TYPE) {
                continue;
            }
            byte value = message.valueLengthAt(field) == 1 ? message.buffer()[message.valueStartAt(field)] : 0;
            switch (value) {
                case '0' -> bids = true;
                case '1' -> offers = true;
                case '2' -> trades = true;
                case 'Q' -> {
                    if (!indicativeAllowed) {
                        return refuse(RequestRejectBody.UNSUPPORTED_MD_ENTRY_TYPE, INDICATIVE_NOT_CONFIGURED);
                    }
                    indicative = true;
                }
                default -> {
                    return refuse(RequestRejectBody.UNSUPPORTED_MD_ENTRY_TYPE, "MDEntryType(269) "
                        + new String(message.buffer(), message.valueStartAt(field), message.valueLengthAt(field),
                        java.nio.charset.StandardCharsets.US_ASCII) + " is not offered: 0 bid, 1 offer, 2 trade"
                        + " (and Q, the indicative auction price, to sessions configured for it)");
                }
            }
        }
        return true;
    }

    private boolean readSymbols(FixMessage message) {
        symbolCount = 0;
        for (int field = 0; field < message.fieldCount(); field++) {
            if (message.tagAt(field) != FixTags.SYMBOL) {
                continue;
            }
            int id = symbols.idOf(message.buffer(), message.valueStartAt(field), message.valueLengthAt(field));
            if (id < 0) {
                return refuse(RequestRejectBody.UNKNOWN_SYMBOL, "unknown symbol " + new String(message.buffer(),
                    message.valueStartAt(field), message.valueLengthAt(field), java.nio.charset.StandardCharsets.US_ASCII));
            }
            boolean listed = false;
            for (int i = 0; i < symbolCount; i++) {
                listed |= scratchSymbols[i] == id;
            }
            if (!listed) {
                scratchSymbols[symbolCount++] = id;
            }
        }
        return true;
    }

    private boolean refuse(char reason, String text) {
        rejectReason = reason;
        rejectText = text;
        return false;
    }

    char type() {
        return type;
    }

    int depth() {
        return depth;
    }

    boolean bids() {
        return bids;
    }

    boolean offers() {
        return offers;
    }

    boolean trades() {
        return trades;
    }

    /** Whether it asks for the indicative uncross price and volume during calls (269=Q). */
    boolean indicative() {
        return indicative;
    }

    /** The symbols asked for, each once, in the order first listed (a new array: for a subscription). */
    int[] symbolIds() {
        return Arrays.copyOf(scratchSymbols, symbolCount);
    }

    int symbolCount() {
        return symbolCount;
    }

    int symbolId(int i) {
        return scratchSymbols[i];
    }

    char rejectReason() {
        return rejectReason;
    }

    String rejectText() {
        return rejectText;
    }
}
