package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.dictionary.SessionRejectReasons;

/**
 * The body of a session-level Reject (35=3) of a received message: the message's routing reversed
 * ({@link ReverseRoute}), RefSeqNum(45), RefTagID(371), RefMsgType(372), SessionRejectReason(373) and a Text(58) that
 * starts with the reason's standard description, then ", field=" and the tag where there is one ("Required tag
 * missing, field=55"), as counterparties' certification scripts expect; an optional detail follows after ": ".
 * One per session, reused; allocation-free unless a detail is given.
 */
final class RejectBody implements MessageBody {
    /** No RefTagID: the Reject is not about one tag. */
    static final int NO_TAG = Integer.MIN_VALUE;

    private FixMessage rejected;
    private long refSeqNum;
    private int refTagId;
    private int reason;
    private String detail;

    /** Sets the Reject's contents; {@code detail} may be null. */
    RejectBody of(FixMessage rejected, long refSeqNum, int refTagId, int reason, String detail) {
        this.rejected = rejected;
        this.refSeqNum = refSeqNum;
        this.refTagId = refTagId;
        this.reason = reason;
        this.detail = detail;
        return this;
    }

    @Override
    public void writeBody(FixWriter writer) {
        ReverseRoute.write(rejected, writer);
        writer.field(FixTags.REF_SEQ_NUM, Math.max(refSeqNum, 0));
        if (refTagId != NO_TAG) {
            writer.field(FixTags.REF_TAG_ID, refTagId);
        }
        int msgType = rejected.indexOf(FixTags.MSG_TYPE);
        if (msgType >= 0) {
            writer.field(FixTags.REF_MSG_TYPE, rejected.buffer(), rejected.valueStartAt(msgType),
                Math.min(rejected.valueLengthAt(msgType), 8));
        }
        writer.field(FixTags.SESSION_REJECT_REASON, reason);
        if (detail != null) {
            writer.field(FixTags.TEXT, text() + ": " + detail);
        } else if (refTagId != NO_TAG) {
            writer.field(FixTags.TEXT, SessionRejectReasons.textBeforeTag(reason), refTagId);
        } else {
            writer.field(FixTags.TEXT, SessionRejectReasons.text(reason));
        }
    }

    /** The Text without detail, for logs. Allocates. */
    String text() {
        return text(reason, refTagId);
    }

    /** The standard Text of a reason, naming the tag unless it is {@link #NO_TAG}. Allocates. */
    static String text(int reason, int refTagId) {
        return refTagId != NO_TAG ? SessionRejectReasons.textBeforeTag(reason) + refTagId
            : SessionRejectReasons.text(reason);
    }
}
