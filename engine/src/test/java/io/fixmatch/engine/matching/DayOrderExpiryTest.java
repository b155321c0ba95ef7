package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import org.junit.jupiter.api.Test;

import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static io.fixmatch.engine.matching.EngineHarness.SYM2;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** MATCHING.md "End of day": resting DAY orders expire in book order; GTC orders stay; capacity comes back. */
class DayOrderExpiryTest {
    private final EngineHarness h = EngineHarness.create();

    @Test
    void dayOrdersExpireInBookOrderAndGtcOrdersStay() {
        Ord b1 = h.buy(A, "b1", 1000, 10);
        h.expect(b1.accepted(1, 1));
        Ord g1 = h.limit(A, "g1", BUY, TimeInForce.GTC, 1000, 10);
        h.expect(g1.accepted(2, 2));
        Ord b2 = h.buy(B, "b2", 1005, 20);
        h.expect(b2.accepted(3, 3));
        Ord s1 = h.sell(B, "s1", 1100, 10);
        h.expect(s1.accepted(4, 4));
        Ord x1 = h.order(A, "x1", SYM2, SELL, io.fixmatch.engine.api.OrderType.LIMIT, TimeInForce.DAY, 7, 5);
        h.expect(x1.accepted(5, 5));
        Ord partial = h.buy(A, "p1", 1100, 20); // fills 10, rests 10
        h.expect(partial.accepted(6, 6), partial.fill(7, 10, 1100).state(10, 10, 11_000,
            OrderStatus.PARTIALLY_FILLED), s1.fill(8, 10, 1100).state(0, 10, 11_000, OrderStatus.FILLED));

        h.send(new Command().expireDayOrders());
        h.expect(partial.dayExpired(9, 10, 11_000), b2.dayExpired(10, 0, 0), b1.dayExpired(11, 0, 0),
            x1.dayExpired(12, 0, 0));
        h.expectBook(SYM, BUY, "A:g1 10@1000");
        h.expectBook(SYM, SELL);
        h.expectBook(SYM2, SELL);
        assertEquals(1, h.engine.view().dayEnds());
        assertEquals(1, h.engine.openOrders(A));

        h.send(new Command().expireDayOrders()); // nothing left to expire
        h.expect();
    }

    @Test
    void expiredOrdersLeaveTheOpenOrderCount() {
        h.set(A, SessionControl.MAX_OPEN_ORDERS, 1);
        Ord b1 = h.buy(A, "b1", 1000, 10);
        h.expect(b1.accepted(1, 1));
        Ord refused = h.buy(A, "b2", 1000, 10);
        h.expect(refused.rejected(2, RejectReason.RISK_OPEN_ORDERS).risk(1, 0, 1));
        h.send(new Command().expireDayOrders());
        h.expect(b1.dayExpired(3, 0, 0));
        Ord b3 = h.buy(A, "b3", 1000, 10);
        h.expect(b3.accepted(2, 4));
    }
}
