package io.fixmatch.cluster.client;

import io.fixmatch.engine.api.Side;
import org.agrona.collections.LongArrayList;

import java.util.Map;

/**
 * Where the cluster stands when a gateway connects: how many of the gateway's commands it has applied, the egress
 * batches numbered for it and the oldest still held, each of its sessions' last request the engine holds (the inbound
 * position, as a standalone server's journal would tell it), and the books as they rest (for its market data).
 */
public record Welcome(long lastApplied, long lastEgress, long oldestHeld, Map<Integer, Long> inboundPositions,
                      int leaderMemberId, LongArrayList restingOrders) {

    /** Takes the books as they rest: one resting order at a time. */
    public interface RestingOrderSink {
        void restingOrder(int symbolId, Side side, long price, long quantity);
    }

    public void forEachRestingOrder(RestingOrderSink sink) {
        for (int i = 0; i + 3 < restingOrders.size(); i += 4) {
            sink.restingOrder((int) restingOrders.getLong(i), Side.values()[(int) restingOrders.getLong(i + 1)],
                restingOrders.getLong(i + 2), restingOrders.getLong(i + 3));
        }
    }
}
