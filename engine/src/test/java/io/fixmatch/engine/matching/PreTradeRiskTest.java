package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;

import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MATCHING.md "Pre-trade risk": each limit refuses what is over it (and not what is at it), names what it measured,
 * applies to the session that set it only, and to replaces that lose priority; the kill switch. Symbol ACME: tick 5,
 * lot 10, price scale 2.
 */
class PreTradeRiskTest {
    private final EngineHarness h = EngineHarness.create();

    @Test
    void orderQuantityLimit() {
        h.set(A, SessionControl.MAX_ORDER_QUANTITY, 100);
        Ord over = h.buy(A, "b1", 1000, 110);
        h.expect(over.rejected(1, RejectReason.RISK_ORDER_QUANTITY).risk(110, 0, 100));
        Ord at = h.buy(A, "b2", 1000, 100);
        h.expect(at.accepted(1, 2));
        Ord otherSession = h.buy(B, "b3", 1000, 500);
        h.expect(otherSession.accepted(2, 3));
    }

    @Test
    void notionalLimitInWholeUnitsOfThePrice() {
        h.set(A, SessionControl.MAX_NOTIONAL, 500); // 500.00 = 50,000 units at scale 2
        Ord over = h.buy(A, "b1", 1000, 60); // 60 x 10.00 = 600.00
        h.expect(over.rejected(1, RejectReason.RISK_NOTIONAL).risk(60_000, 0, 50_000));
        Ord at = h.buy(A, "b2", 1000, 50);
        h.expect(at.accepted(1, 2));
    }

    @Test
    void aMarketOrderIsValuedAtTheLastTradeOrReferencePriceAndRefusedWithoutEither() {
        h.set(A, SessionControl.MAX_NOTIONAL, 500);
        Ord resting = h.sell(B, "s1", 1000, 100);
        h.expect(resting.accepted(1, 1));
        Ord noPrice = h.market(A, "m1", BUY, 10);
        h.expect(noPrice.rejected(2, RejectReason.RISK_NO_REFERENCE_PRICE));

        h.send(new Command().setReferencePrice(SYM, 2000));
        h.expect();
        Ord atReference = h.market(A, "m2", BUY, 30); // 30 x 20.00 = 600.00
        h.expect(atReference.rejected(3, RejectReason.RISK_NOTIONAL).risk(60_000, 0, 50_000));

        Ord trade = h.buy(B, "b1", 1000, 10); // the last trade, 10.00, now values market orders
        h.expect(trade.accepted(2, 4), trade.fill(5, 10, 1000).state(0, 10, 10_000, OrderStatus.FILLED),
            resting.fill(6, 10, 1000).state(90, 10, 10_000, OrderStatus.PARTIALLY_FILLED));
        Ord atLastTrade = h.market(A, "m3", BUY, 30); // 30 x 10.00 = 300.00
        h.expect(atLastTrade.accepted(3, 7), atLastTrade.fill(8, 30, 1000).state(0, 30, 30_000, OrderStatus.FILLED),
            resting.fill(9, 30, 1000).state(60, 40, 40_000, OrderStatus.PARTIALLY_FILLED));
    }

    @Test
    void openOrdersLimitCountsRestingOrdersOnly() {
        h.set(A, SessionControl.MAX_OPEN_ORDERS, 2);
        Ord b1 = h.buy(A, "b1", 1000, 10);
        h.expect(b1.accepted(1, 1));
        Ord b2 = h.buy(A, "b2", 995, 10);
        h.expect(b2.accepted(2, 2));
        Ord third = h.buy(A, "b3", 990, 10);
        h.expect(third.rejected(3, RejectReason.RISK_OPEN_ORDERS).risk(2, 0, 2));
        Ord ioc = h.limit(A, "i1", BUY, TimeInForce.IOC, 990, 10); // never rests: not counted
        h.expect(ioc.accepted(3, 4), ioc.expired(5, 0, 0));
        Req cancel = h.cancel(b1, "c1");
        h.expect(cancel.canceled(6, 0, 0));
        assertEquals(1, h.engine.openOrders(A));
        Ord b4 = h.buy(A, "b4", 990, 10);
        h.expect(b4.accepted(4, 7));
    }

    @Test
    void priceCollarAroundTheReferenceThenTheLastTrade() {
        h.set(A, SessionControl.PRICE_COLLAR_BASIS_POINTS, 1_000); // 10%
        Ord noReference = h.buy(A, "b0", 5000, 10);
        h.expect(noReference.accepted(1, 1)); // no reference price: not checked
        Req cancel = h.cancel(noReference, "c0");
        h.expect(cancel.canceled(2, 0, 0));
        h.send(new Command().setReferencePrice(SYM, 1000));
        h.expect();
        Ord above = h.buy(A, "b1", 1105, 10);
        h.expect(above.rejected(3, RejectReason.RISK_PRICE_COLLAR).risk(1105, 900, 1100));
        Ord below = h.sell(A, "s1", 895, 10);
        h.expect(below.rejected(4, RejectReason.RISK_PRICE_COLLAR).risk(895, 900, 1100));
        Ord edge = h.sell(A, "s2", 1100, 10);
        h.expect(edge.accepted(2, 5));

        Ord trade = h.buy(B, "t1", 1100, 10); // trades at 11.00: the new reference
        h.expect(trade.accepted(3, 6), trade.fill(7, 10, 1100).state(0, 10, 11_000, OrderStatus.FILLED),
            edge.fill(8, 10, 1100).state(0, 10, 11_000, OrderStatus.FILLED));
        Ord nowInside = h.buy(A, "b2", 1210, 10);
        h.expect(nowInside.accepted(4, 9));
        Ord market = h.market(A, "m1", SELL, 10); // market orders are not collared
        h.expect(market.accepted(5, 10), market.fill(11, 10, 1210).state(0, 10, 12_100, OrderStatus.FILLED),
            nowInside.fill(12, 10, 1210).state(0, 10, 12_100, OrderStatus.FILLED));
    }

    @Test
    void priceCollarInTicks() {
        h.set(A, SessionControl.PRICE_COLLAR_TICKS, 3); // 3 x 5 = 15 units
        h.send(new Command().setReferencePrice(SYM, 1000));
        h.expect();
        Ord over = h.buy(A, "b1", 1020, 10);
        h.expect(over.rejected(1, RejectReason.RISK_PRICE_COLLAR).risk(1020, 985, 1015));
        Ord at = h.buy(A, "b2", 1015, 10);
        h.expect(at.accepted(1, 2));
    }

    @Test
    void replacesThatLosePriorityAreCheckedAndThoseThatKeepItAreNot() {
        Ord b1 = h.buy(A, "b1", 1000, 200);
        h.expect(b1.accepted(1, 1));
        h.set(A, SessionControl.MAX_ORDER_QUANTITY, 100);
        Req smaller = h.replace(b1, "b2", 1000, 150); // keeps priority, still over the new limit: only lowers risk
        h.expect(smaller.replaced(2).state(150, 0, 0, OrderStatus.NEW));
        Ord b2 = smaller.replacement();
        Req newPrice = h.replace(b2, "b3", 995, 150);
        h.expect(newPrice.rejectedLive(RejectReason.RISK_ORDER_QUANTITY, b2, 150, 0, 0, OrderStatus.NEW)
            .order(SYM, BUY, OrderType.LIMIT, TimeInForce.DAY, 995, 150).risk(150, 0, 100));
        Req fits = h.replace(b2, "b4", 995, 100);
        h.expect(fits.replaced(3).state(100, 0, 0, OrderStatus.NEW));
    }

    @Test
    void killSwitchCancelsTheSessionsOrdersAndRefusesNewOnesUntilReleased() {
        Ord b1 = h.buy(A, "b1", 1000, 10);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(A, "s1", 1100, 10);
        h.expect(s1.accepted(2, 2));
        Ord other = h.buy(B, "x1", 990, 10);
        h.expect(other.accepted(3, 3));

        h.send(new Command().killSwitch(A));
        h.expect(s1.canceledBy(4, 0, 0, RejectReason.KILL_SWITCH_ENGAGED),
            b1.canceledBy(5, 0, 0, RejectReason.KILL_SWITCH_ENGAGED));
        assertTrue(h.engine.view().isKillSwitchEngaged(A));
        assertFalse(h.engine.view().isKillSwitchEngaged(B));
        h.expectBook(SYM, BUY, "B:x1 10@990");
        Ord refused = h.buy(A, "b2", 1000, 10);
        h.expect(refused.rejected(6, RejectReason.KILL_SWITCH_ENGAGED));
        Ord stillTrading = h.sell(B, "x2", 1200, 10);
        h.expect(stillTrading.accepted(4, 7));

        h.send(new Command().releaseKillSwitch(A));
        h.expect();
        assertFalse(h.engine.view().isKillSwitchEngaged(A));
        Ord again = h.buy(A, "b3", 1000, 10);
        h.expect(again.accepted(5, 8));
    }
}
