package io.fixmatch.loadgen.flow.replay;

import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.loadgen.flow.ClOrdIds;
import io.fixmatch.loadgen.flow.RequestKind;
import io.fixmatch.loadgen.flow.RequestSource;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * Replays a {@link RecordedFlow} through our one session, over and over as long as the phase needs: every recorded
 * session's requests become ours, and each request's ClOrdID becomes "L" + a number unique to its place in the
 * flow and the pass ({@code pass * size + index + 1}); a cancel or replace names the number of the request that
 * introduced its order in the same pass. So each pass is valid against the books the previous passes left.
 *
 * <p>Pacing: the recorded gaps, or, with a target rate, the recorded gaps scaled so that their mean gives that rate
 * (bursts and lulls keep their shape). A flow recorded in one instant has no pacing of its own: it needs a rate.
 */
public final class ReplaySource implements RequestSource, MessageBody {
    private final RecordedFlow flow;
    private final byte[][] symbols;
    private final byte[][] prices;
    private final double scale;
    private final long meanGapNanos;
    private long position = -1;
    private int index;
    private long pass;

    /** @param rate the mean rate to rescale to, or 0 to keep the recorded pacing */
    public ReplaySource(RecordedFlow flow, int rate) {
        this.flow = flow;
        this.symbols = new byte[flow.size()][];
        this.prices = new byte[flow.size()][];
        for (int i = 0; i < flow.size(); i++) {
            symbols[i] = flow.request(i).symbol().getBytes(StandardCharsets.US_ASCII);
            String price = flow.request(i).price();
            prices[i] = price == null ? null : price.getBytes(StandardCharsets.US_ASCII);
        }
        long span = flow.recordedSpanNanos();
        double recordedMeanGap = flow.size() < 2 ? 0 : (double) span / (flow.size() - 1);
        if (rate > 0) {
            double wanted = 1e9 / rate;
            this.scale = recordedMeanGap > 0 ? wanted / recordedMeanGap : 0;
            this.meanGapNanos = Math.max(1, Math.round(wanted));
        } else {
            if (recordedMeanGap <= 0) {
                throw new IllegalArgumentException("the recorded flow has no pacing (every request at one instant): "
                    + "give --rate");
            }
            this.scale = 1;
            this.meanGapNanos = Math.max(1, Math.round(recordedMeanGap));
        }
    }

    @Override
    public long advance() {
        position++;
        index = (int) (position % flow.size());
        pass = position / flow.size();
        if (index == 0) {
            return meanGapNanos; // between passes: the mean gap
        }
        return scale == 0 ? meanGapNanos : Math.round(flow.gapNanos(index) * scale);
    }

    @Override
    public RequestKind kind() {
        return flow.request(index).kind();
    }

    @Override
    public long id() {
        return number(index);
    }

    private long number(int flowIndex) {
        return pass * flow.size() + flowIndex + 1;
    }

    @Override
    public int msgType() {
        return switch (kind()) {
            case NEW_ORDER, AGGRESSIVE -> MsgTypes.NEW_ORDER_SINGLE;
            case CANCEL -> MsgTypes.ORDER_CANCEL_REQUEST;
            case REPLACE -> MsgTypes.ORDER_CANCEL_REPLACE_REQUEST;
        };
    }

    @Override
    public MessageBody body() {
        return this;
    }

    @Override
    public void writeBody(FixWriter w) {
        RecordedRequest request = flow.request(index);
        ClOrdIds.write(w, FixTags.CL_ORD_ID, number(index));
        if (flow.reference(index) >= 0) {
            ClOrdIds.write(w, FixTags.ORIG_CL_ORD_ID, number(flow.reference(index)));
        }
        w.field(FixTags.SYMBOL, symbols[index]).field(FixTags.SIDE, request.side());
        if (request.kind() != RequestKind.CANCEL) {
            w.field(FixTags.ORDER_QTY, request.quantity()).field(FixTags.ORD_TYPE, request.ordType());
            if (prices[index] != null) {
                w.field(FixTags.PRICE, prices[index]);
            }
            if (request.tif() != 0) {
                w.field(FixTags.TIME_IN_FORCE, request.tif());
            }
        }
        w.timestamp(FixTags.TRANSACT_TIME, System.currentTimeMillis() * 1_000_000L);
    }

    @Override
    public double meanRate() {
        return 1e9 / meanGapNanos;
    }

    @Override
    public Set<RequestKind> kinds() {
        return flow.kinds();
    }
}
