package io.fixmatch.engine.matching;

import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.NEW;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.OrderType.LIMIT;
import static io.fixmatch.engine.api.OrderType.MARKET;
import static io.fixmatch.engine.api.RejectReason.DUPLICATE_CLIENT_ORDER_ID;
import static io.fixmatch.engine.api.RejectReason.NO_LIQUIDITY;
import static io.fixmatch.engine.api.RejectReason.PRICE_NOT_ON_TICK;
import static io.fixmatch.engine.api.RejectReason.UNKNOWN_ORDER;
import static io.fixmatch.engine.api.RejectReason.UNKNOWN_SYMBOL;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.api.TimeInForce.DAY;
import static io.fixmatch.engine.api.TimeInForce.FOK;
import static io.fixmatch.engine.api.TimeInForce.GTC;
import static io.fixmatch.engine.api.TimeInForce.IOC;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.C;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static io.fixmatch.engine.matching.EngineHarness.SYM2;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** MATCHING.md "Units and ids" and "New order": acceptance, resting, ids, timestamps, client order ids. */
class NewOrderRulesTest {
    private final EngineHarness h = EngineHarness.create();

    @Test
    void limitDayOrderIsAcceptedWithStatusNewAndRestsAtItsPrice() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));

        assertEquals(List.of("owner=1 clOrdId=b1 orderId=1 symbol=0 side=BUY tif=DAY price=1000 qty=100 leaves=100"
            + " cum=0 notional=0"), h.snapshot());
    }

    @Test
    void gtcLimitOrderIsAcceptedAndRestsLikeDay() {
        Ord s1 = h.limit(A, "s1", SELL, GTC, 1010, 70);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.limit(B, "s2", SELL, DAY, 1010, 30);
        h.expect(s2.accepted(2, 2));

        assertEquals(List.of(
            "owner=1 clOrdId=s1 orderId=1 symbol=0 side=SELL tif=GTC price=1010 qty=70 leaves=70 cum=0 notional=0",
            "owner=2 clOrdId=s2 orderId=2 symbol=0 side=SELL tif=DAY price=1010 qty=30 leaves=30 cum=0 notional=0"),
            h.snapshot());
    }

    @Test
    void orderIdsCountAcceptedOrdersAndExecIdsCountExecutionEvents() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));

        Ord bad = h.buy(A, "bad", 1003, 100);
        h.expect(bad.rejected(2, PRICE_NOT_ON_TICK));             // order id 0, exec id 2

        Ord s1 = h.sell(B, "s1", 1000, 40);
        h.expect(
            s1.accepted(2, 3),                                     // the rejected order did not take id 2
            s1.fill(4, 40, 1000).state(0, 40, 40_000, FILLED),
            b1.fill(5, 40, 1000).state(60, 40, 40_000, PARTIALLY_FILLED));

        Ord i1 = h.limit(B, "i1", SELL, IOC, 1005, 10);
        h.expect(i1.accepted(3, 6), i1.expired(7, 0, 0));

        Req c1 = h.cancel(b1, "c1");
        h.expect(c1.canceled(8, 40, 40_000));

        Ord s2 = h.sell(C, "s2", 1010, 10);
        h.expect(s2.accepted(4, 9));
        Req r1 = h.replace(s2, "s3", 1015, 20);
        h.expect(r1.replaced(10).state(20, 0, 0, NEW));

        Ord b2 = h.buy(A, "b2", 995, 10);
        h.expect(b2.accepted(5, 11));
        assertEquals(5, h.engine.lastOrderId());
        assertEquals(11, h.engine.lastExecId());
    }

    @Test
    void cancelAndReplaceRejectsCarryExecIdZeroAndDoNotUseAnExecId() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));

        Req c1 = h.cancel(A, "c1", "nope", SYM, BUY);
        h.expect(c1.rejected(UNKNOWN_ORDER));
        Req r1 = h.replace(A, "r1", "nope", SYM, BUY, 1000, 10);
        h.expect(r1.rejected(UNKNOWN_ORDER));

        Ord b2 = h.buy(A, "b2", 1000, 100);
        h.expect(b2.accepted(2, 2));
        assertEquals(2, h.engine.lastExecId());
    }

    @Test
    void statusAnswersCarryExecIdZeroAndDoNotUseAnExecId() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));

        Req s1 = h.status(b1);
        h.expect(s1.status().state(100, 0, 0, NEW));
        Req s2 = h.status(A, "nope", SYM, BUY);
        h.expect(s2.rejected(UNKNOWN_ORDER));

        Ord b2 = h.buy(A, "b2", 1000, 100);
        h.expect(b2.accepted(2, 2));                               // exec ids count ACCEPTED..REPLACED only
        assertEquals(2, h.engine.lastExecId());
    }

    @Test
    void everyEventCarriesTheTimestampOfTheCommandThatCausedIt() {
        h.at(1_700_000_000_000_000_007L);
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1).t(1_700_000_000_000_000_007L));

        h.at(42);
        Ord b1 = h.buy(B, "b1", 1000, 60);
        h.expect(
            b1.accepted(2, 2).t(42),
            b1.fill(3, 60, 1000).state(0, 60, 60_000, FILLED).t(42),
            s1.fill(4, 60, 1000).state(40, 60, 60_000, PARTIALLY_FILLED).t(42));   // the resting order too

        h.at(7);                                                   // the engine does not require rising time
        Req c1 = h.cancel(s1, "c1");
        h.expect(c1.canceled(5, 60, 60_000).t(7));

        h.at(99);
        Req c2 = h.cancel(s1, "c2");
        h.expect(c2.rejected(UNKNOWN_ORDER).t(99));

        h.at(123);
        Ord x = h.order(A, "x", 9, BUY, LIMIT, DAY, 1000, 10);
        h.expect(x.rejected(6, UNKNOWN_SYMBOL).t(123));

        h.at(555);
        Ord m = h.market(A, "m", SELL, 10);
        h.expect(m.rejected(7, NO_LIQUIDITY).t(555));
    }

    // ---------------------------------------------------------------- client order ids

    @Test
    void duplicateClientOrderIdOfALiveOrderIsRejectedAndChangesNothing() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        List<String> before = h.snapshot();

        Ord again = h.buy(A, "b1", 1005, 50);
        h.expect(again.rejected(2, DUPLICATE_CLIENT_ORDER_ID));
        Ord otherSide = h.sell(A, "b1", 1010, 50);
        h.expect(otherSide.rejected(3, DUPLICATE_CLIENT_ORDER_ID));
        Ord otherSymbol = h.order(A, "b1", SYM2, BUY, LIMIT, DAY, 500, 5);
        h.expect(otherSymbol.rejected(4, DUPLICATE_CLIENT_ORDER_ID));
        Ord ioc = h.limit(A, "b1", SELL, IOC, 1000, 10);          // would trade with b1 if it were accepted
        h.expect(ioc.rejected(5, DUPLICATE_CLIENT_ORDER_ID));
        Ord market = h.market(A, "b1", SELL, 10);
        h.expect(market.rejected(6, DUPLICATE_CLIENT_ORDER_ID));

        assertEquals(before, h.snapshot());
        Ord b2 = h.buy(A, "b2", 1000, 10);
        h.expect(b2.accepted(2, 7));
    }

    @Test
    void duplicateIsCheckedAfterSymbolAndBeforeQuantityAndPrice() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));

        Ord unknownSymbol = h.order(A, "b1", 5, BUY, LIMIT, DAY, 1000, 100);
        h.expect(unknownSymbol.rejected(2, UNKNOWN_SYMBOL));
        Ord badEverything = h.buy(A, "b1", 1003, 0);
        h.expect(badEverything.rejected(3, DUPLICATE_CLIENT_ORDER_ID));
    }

    @Test
    void duplicateAppliesToAPartiallyFilledLiveOrder() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 30);
        h.expect(s1.accepted(2, 2),
            s1.fill(3, 30, 1000).state(0, 30, 30_000, FILLED),
            b1.fill(4, 30, 1000).state(70, 30, 30_000, PARTIALLY_FILLED));

        Ord again = h.buy(A, "b1", 1000, 10);
        h.expect(again.rejected(5, DUPLICATE_CLIENT_ORDER_ID));
    }

    @Test
    void theSameClientOrderIdOfDifferentOwnersAreIndependentOrders() {
        Ord ax = h.buy(A, "x", 1000, 100);
        h.expect(ax.accepted(1, 1));
        Ord bx = h.buy(B, "x", 995, 50);
        h.expect(bx.accepted(2, 2));
        Ord cx = h.sell(C, "x", 1000, 30);
        h.expect(cx.accepted(3, 3),
            cx.fill(4, 30, 1000).state(0, 30, 30_000, FILLED),
            ax.fill(5, 30, 1000).state(70, 30, 30_000, PARTIALLY_FILLED));

        h.expectBook(SYM, BUY, "A:x 70@1000", "B:x 50@995");
        h.expectBook(SYM, SELL);
    }

    @Test
    void clientOrderIdIsReusableOnceTheOrderIsFilled() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 100);
        h.expect(s1.accepted(2, 2),
            s1.fill(3, 100, 1000).state(0, 100, 100_000, FILLED),
            b1.fill(4, 100, 1000).state(0, 100, 100_000, FILLED));

        Ord b1Again = h.buy(A, "b1", 995, 20);
        h.expect(b1Again.accepted(3, 5));
        Ord s1Again = h.sell(B, "s1", 1005, 20);
        h.expect(s1Again.accepted(4, 6));
        h.expectBook(SYM, BUY, "A:b1 20@995");
        h.expectBook(SYM, SELL, "B:s1 20@1005");
    }

    @Test
    void clientOrderIdIsReusableOnceTheOrderIsCanceled() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Req c1 = h.cancel(b1, "c1");
        h.expect(c1.canceled(2, 0, 0));

        Ord b1Again = h.buy(A, "b1", 1000, 100);
        h.expect(b1Again.accepted(2, 3));
    }

    @Test
    void clientOrderIdOfAnIocFokOrMarketOrderIsFreeAfterItsCommand() {
        Ord s1 = h.sell(B, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));

        Ord i1 = h.limit(A, "x", BUY, IOC, 995, 10);
        h.expect(i1.accepted(2, 2), i1.expired(3, 0, 0));
        Ord f1 = h.limit(A, "x", BUY, FOK, 995, 10);
        h.expect(f1.accepted(3, 4), f1.expired(5, 0, 0));
        Ord m1 = h.order(A, "x", SYM, BUY, MARKET, GTC, 0, 10);
        h.expect(m1.accepted(4, 6),
            m1.fill(7, 10, 1000).state(0, 10, 10_000, FILLED),
            s1.fill(8, 10, 1000).state(90, 10, 10_000, PARTIALLY_FILLED));
        Ord d1 = h.buy(A, "x", 990, 10);
        h.expect(d1.accepted(5, 9));
    }

    @Test
    void aRejectedOrderDoesNotReserveItsClientOrderId() {
        Ord bad = h.buy(A, "x", 1003, 10);
        h.expect(bad.rejected(1, PRICE_NOT_ON_TICK));
        Ord good = h.buy(A, "x", 1005, 10);
        h.expect(good.accepted(1, 2));
    }

    @Test
    void afterAReplaceTheOldIdIsFreeAndTheNewIdIsTaken() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Req r = h.replace(b1, "b2", 1000, 100);
        h.expect(r.replaced(2).state(100, 0, 0, NEW));

        Ord reuse = h.buy(A, "b1", 990, 10);
        h.expect(reuse.accepted(2, 3));
        Ord dup = h.buy(A, "b2", 990, 10);
        h.expect(dup.rejected(4, DUPLICATE_CLIENT_ORDER_ID));
        h.expectBook(SYM, BUY, "A:b2 100@1000", "A:b1 10@990");
    }
}
