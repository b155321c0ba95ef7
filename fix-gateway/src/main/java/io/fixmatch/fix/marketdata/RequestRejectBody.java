package io.fixmatch.fix.marketdata;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MessageBody;

/** MarketDataRequestReject (35=Y): the request's MDReqID, MDReqRejReason (281) when one applies, and a Text. */
final class RequestRejectBody implements MessageBody {
    /** No MDReqRejReason fits (an unknown MDReqID to unsubscribe, say): the Text alone says why. */
    static final char NO_REASON = 0;
    static final char UNKNOWN_SYMBOL = '0';
    static final char DUPLICATE_MD_REQ_ID = '1';
    static final char INSUFFICIENT_BANDWIDTH = '2';
    static final char UNSUPPORTED_MARKET_DEPTH = '5';
    static final char UNSUPPORTED_MD_UPDATE_TYPE = '6';
    static final char UNSUPPORTED_AGGREGATED_BOOK = '7';
    static final char UNSUPPORTED_MD_ENTRY_TYPE = '8';

    private FixMessage request;
    private char reason;
    private String text;

    RequestRejectBody of(FixMessage request, char reason, String text) {
        this.request = request;
        this.reason = reason;
        this.text = text;
        return this;
    }

    @Override
    public void writeBody(FixWriter w) {
        int id = request.indexOf(FixTags.MD_REQ_ID);
        if (id >= 0) {
            w.field(FixTags.MD_REQ_ID, request.buffer(), request.valueStartAt(id), request.valueLengthAt(id));
        }
        if (reason != NO_REASON) {
            w.field(FixTags.MD_REQ_REJ_REASON, reason);
        }
        w.field(FixTags.TEXT, text);
    }
}
