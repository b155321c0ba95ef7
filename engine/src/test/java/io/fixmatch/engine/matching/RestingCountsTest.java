package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import org.junit.jupiter.api.Test;

import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.SYM2;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The counts the recovery summary reports: live (resting) orders, and books holding any. */
class RestingCountsTest {
    private final EngineHarness h = EngineHarness.create();

    @Test
    void countsFollowRestingCancelingAndTrading() {
        assertEquals(0, h.engine.liveOrderCount());
        assertEquals(0, h.engine.nonEmptyBookCount());

        EngineHarness.Ord b1 = h.buy(A, "b1", 1000, 100);
        h.sell(B, "s1", 1010, 100);
        h.order(A, "x1", SYM2, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 50, 5);
        assertEquals(3, h.engine.liveOrderCount());
        assertEquals(2, h.engine.nonEmptyBookCount());

        h.cancel(b1, "c1");
        assertEquals(2, h.engine.liveOrderCount());
        h.buy(B, "b2", 1010, 100);                          // fills s1 completely: neither rests
        assertEquals(1, h.engine.liveOrderCount());
        assertEquals(1, h.engine.nonEmptyBookCount());

        h.order(B, "i1", SYM2, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, 40, 10);   // no match: never rests
        assertEquals(1, h.engine.liveOrderCount());
    }
}
