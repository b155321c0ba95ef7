package io.fixmatch.loadgen.flow;

import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.codec.MessageBody;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Writes the flow's current request as a NewOrderSingle, OrderCancelRequest or OrderCancelReplaceRequest body. */
public final class OrderRequestBody implements MessageBody {
    private final OrderFlow flow;
    private final byte[][] symbols;
    private final int priceScale;

    public OrderRequestBody(OrderFlow flow, List<String> symbolNames, int priceScale) {
        this.flow = flow;
        this.symbols = new byte[symbolNames.size()][];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = symbolNames.get(i).getBytes(StandardCharsets.US_ASCII);
        }
        this.priceScale = priceScale;
    }

    /** The MsgType of the flow's current request. */
    public int msgType() {
        return switch (flow.kind()) {
            case NEW_ORDER, AGGRESSIVE -> MsgTypes.NEW_ORDER_SINGLE;
            case CANCEL -> MsgTypes.ORDER_CANCEL_REQUEST;
            case REPLACE -> MsgTypes.ORDER_CANCEL_REPLACE_REQUEST;
        };
    }

    @Override
    public void writeBody(FixWriter w) {
        ClOrdIds.write(w, FixTags.CL_ORD_ID, flow.id());
        if (flow.origId() != 0) {
            ClOrdIds.write(w, FixTags.ORIG_CL_ORD_ID, flow.origId());
        }
        w.field(FixTags.SYMBOL, symbols[flow.symbol()])
            .field(FixTags.SIDE, flow.isBuy() ? '1' : '2')
            .field(FixTags.ORDER_QTY, flow.quantity());
        switch (flow.kind()) {
            case NEW_ORDER, REPLACE -> w.field(FixTags.ORD_TYPE, '2')
                .decimal(FixTags.PRICE, flow.price(), priceScale)
                .field(FixTags.TIME_IN_FORCE, '0');
            case AGGRESSIVE -> w.field(FixTags.ORD_TYPE, '2')
                .decimal(FixTags.PRICE, flow.price(), priceScale)
                .field(FixTags.TIME_IN_FORCE, '3');
            case CANCEL -> { }
        }
        w.timestamp(FixTags.TRANSACT_TIME, System.currentTimeMillis() * 1_000_000L);
    }
}
