package io.fixmatch.loadgen.flow;

import io.fixmatch.fix.codec.MessageBody;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The seeded volatile-market flow ({@link OrderFlow}) at a fixed rate: one request every 1/rate seconds. */
public final class SeededSource implements RequestSource {
    private final OrderFlow flow;
    private final OrderRequestBody body;
    private final long intervalNanos;
    private final int rate;

    public SeededSource(long seed, List<String> symbols, int priceScale, int rate) {
        this.flow = new OrderFlow(seed, symbols.size(), startMid(priceScale));
        this.body = new OrderRequestBody(flow, symbols, priceScale);
        this.intervalNanos = 1_000_000_000L / rate;
        this.rate = rate;
    }

    @Override
    public long advance() {
        flow.next();
        return intervalNanos;
    }

    @Override
    public RequestKind kind() {
        return flow.kind();
    }

    @Override
    public long id() {
        return flow.id();
    }

    @Override
    public int msgType() {
        return body.msgType();
    }

    @Override
    public MessageBody body() {
        return body;
    }

    @Override
    public int consumedCount() {
        return flow.consumedCount();
    }

    @Override
    public long consumedId(int index) {
        return flow.consumedId(index);
    }

    @Override
    public int changedLevels() {
        return flow.changedLevels();
    }

    @Override
    public long changedLevel(int index) {
        return flow.changedLevel(index);
    }

    @Override
    public double meanRate() {
        return rate;
    }

    @Override
    public Set<RequestKind> kinds() {
        return EnumSet.allOf(RequestKind.class);
    }

    /** 100.00 in price units: a mid far enough from zero for the flow's random walk. */
    private static long startMid(int priceScale) {
        long mid = 100;
        for (int i = 0; i < priceScale; i++) {
            mid *= 10;
        }
        return mid;
    }
}
