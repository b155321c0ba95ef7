package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.OrderType.LIMIT;
import static io.fixmatch.engine.api.OrderType.MARKET;
import static io.fixmatch.engine.api.RejectReason.NO_LIQUIDITY;
import static io.fixmatch.engine.api.RejectReason.QUANTITY_NOT_POSITIVE;
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

/** MATCHING.md "New order": limit DAY/GTC, market, IOC and FOK. */
class OrderTypesTest {
    private final EngineHarness h = EngineHarness.create();

    // ---------------------------------------------------------------- limit DAY / GTC

    @ParameterizedTest
    @EnumSource(names = {"DAY", "GTC"})
    void dayAndGtcLimitRemainderRestsAtTheBackOfItsLevel(TimeInForce tif) {
        Ord s1 = h.sell(A, "s1", 1000, 60);
        h.expect(s1.accepted(1, 1));
        Ord b0 = h.buy(C, "b0", 995, 10);
        h.expect(b0.accepted(2, 2));

        Ord b1 = h.limit(B, "b1", BUY, tif, 1000, 100);
        h.expect(
            b1.accepted(3, 3),
            b1.fill(4, 60, 1000).state(40, 60, 60_000, PARTIALLY_FILLED),
            s1.fill(5, 60, 1000).state(0, 60, 60_000, FILLED));
        Ord b2 = h.limit(A, "b2", BUY, tif, 1000, 10);
        h.expect(b2.accepted(4, 6));

        assertEquals(List.of(
            "owner=2 clOrdId=b1 orderId=3 symbol=0 side=BUY tif=" + tif + " price=1000 qty=100 leaves=40 cum=60"
                + " notional=60000",
            "owner=1 clOrdId=b2 orderId=4 symbol=0 side=BUY tif=" + tif + " price=1000 qty=10 leaves=10 cum=0"
                + " notional=0",
            "owner=3 clOrdId=b0 orderId=2 symbol=0 side=BUY tif=DAY price=995 qty=10 leaves=10 cum=0 notional=0"),
            h.snapshot());
    }

    // ---------------------------------------------------------------- market

    @Test
    void marketOrderFillsWhatItCanAtAnyPriceAndCancelsTheRest() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(B, "s2", 99_995, 50);
        h.expect(s2.accepted(2, 2));

        Ord m1 = h.market(C, "m1", BUY, 200);
        h.expect(
            m1.accepted(3, 3),                                      // price reported as 0
            m1.fill(4, 100, 1000).state(100, 100, 100_000, PARTIALLY_FILLED),
            s1.fill(5, 100, 1000).state(0, 100, 100_000, FILLED),
            m1.fill(6, 50, 99_995).state(50, 150, 5_099_750, PARTIALLY_FILLED),
            s2.fill(7, 50, 99_995).state(0, 50, 4_999_750, FILLED),
            m1.expired(8, 150, 5_099_750));
        h.expectEmptyBook();
    }

    @Test
    void marketOrderThatIsFullyFilledIsNotCanceled() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord b2 = h.buy(B, "b2", 995, 100);
        h.expect(b2.accepted(2, 2));

        Ord m1 = h.market(C, "m1", SELL, 150);
        h.expect(
            m1.accepted(3, 3),
            m1.fill(4, 100, 1000).state(50, 100, 100_000, PARTIALLY_FILLED),
            b1.fill(5, 100, 1000).state(0, 100, 100_000, FILLED),
            m1.fill(6, 50, 995).state(0, 150, 149_750, FILLED),
            b2.fill(7, 50, 995).state(50, 50, 49_750, PARTIALLY_FILLED));
        h.expectBook(SYM, BUY, "B:b2 50@995");
        h.expectBook(SYM, SELL);
    }

    @ParameterizedTest
    @EnumSource(names = {"DAY", "GTC", "IOC"})
    void marketOrderNeverRestsWhateverItsTimeInForce(TimeInForce tif) {
        Ord s1 = h.sell(A, "s1", 1000, 30);
        h.expect(s1.accepted(1, 1));
        Ord m1 = h.order(B, "m1", SYM, BUY, MARKET, tif, 0, 100);
        h.expect(
            m1.accepted(2, 2),
            m1.fill(3, 30, 1000).state(70, 30, 30_000, PARTIALLY_FILLED),
            s1.fill(4, 30, 1000).state(0, 30, 30_000, FILLED),
            m1.expired(5, 30, 30_000));
        h.expectEmptyBook();
    }

    @Test
    void marketOrderPriceIsIgnoredAndReportedAsZero() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        // 123_457 is above the maximum price and off tick: irrelevant for a market order.
        Ord m1 = h.order(B, "m1", SYM, BUY, MARKET, IOC, 123_457, 40);
        assertEquals(0, m1.reportedPrice());
        h.expect(
            m1.accepted(2, 2),
            m1.fill(3, 40, 1000).state(0, 40, 40_000, FILLED),
            s1.fill(4, 40, 1000).state(60, 40, 40_000, PARTIALLY_FILLED));

        Ord m2 = h.order(B, "m2", SYM, BUY, MARKET, IOC, -5, 10);
        h.expect(
            m2.accepted(3, 5),
            m2.fill(6, 10, 1000).state(0, 10, 10_000, FILLED),
            s1.fill(7, 10, 1000).state(50, 50, 50_000, PARTIALLY_FILLED));
    }

    @Test
    void marketOrderOnAnEmptyOppositeSideIsRejectedNoLiquidity() {
        Ord m1 = h.market(A, "m1", BUY, 100);
        h.expect(m1.rejected(1, NO_LIQUIDITY));

        Ord b1 = h.buy(A, "b1", 1000, 100);                        // order ids were not used by the reject
        h.expect(b1.accepted(1, 2));
        Ord m2 = h.market(B, "m2", BUY, 100);                      // only its own side has orders
        h.expect(m2.rejected(3, NO_LIQUIDITY));
        Ord m3 = h.order(B, "m3", SYM2, SELL, MARKET, DAY, 0, 100); // bids on another symbol do not count
        h.expect(m3.rejected(4, NO_LIQUIDITY));

        h.expectBook(SYM, BUY, "A:b1 100@1000");
        h.expectBook(SYM, SELL);
    }

    @Test
    void rejectedMarketOrderAlsoReportsItsPriceAsZero() {
        // "A market order's price is ignored and reported as 0."
        Ord m1 = h.order(A, "m1", SYM, SELL, MARKET, IOC, 1000, 100);
        h.expect(m1.rejected(1, NO_LIQUIDITY));                     // expects price=0 in the REJECTED event
    }

    @Test
    void marketQuantityIsCheckedBeforeLiquidity() {
        Ord m1 = h.market(A, "m1", BUY, 0);
        h.expect(m1.rejected(1, QUANTITY_NOT_POSITIVE));
    }

    // ---------------------------------------------------------------- IOC

    @Test
    void iocFillsWhatItCanWithinItsLimitAndCancelsTheRest() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(A, "s2", 1010, 100);
        h.expect(s2.accepted(2, 2));

        Ord i1 = h.limit(B, "i1", BUY, IOC, 1005, 150);
        h.expect(
            i1.accepted(3, 3),
            i1.fill(4, 100, 1000).state(50, 100, 100_000, PARTIALLY_FILLED),
            s1.fill(5, 100, 1000).state(0, 100, 100_000, FILLED),
            i1.expired(6, 100, 100_000));
        h.expectBook(SYM, BUY);
        h.expectBook(SYM, SELL, "A:s2 100@1010");
    }

    @Test
    void iocThatCannotTradeIsAcceptedThenCanceled() {
        Ord s1 = h.sell(A, "s1", 1010, 100);
        h.expect(s1.accepted(1, 1));
        Ord i1 = h.limit(B, "i1", BUY, IOC, 1005, 100);
        h.expect(i1.accepted(2, 2), i1.expired(3, 0, 0));
        Ord i2 = h.limit(B, "i2", SELL, IOC, 1005, 100);          // an empty opposite side is no reject
        h.expect(i2.accepted(3, 4), i2.expired(5, 0, 0));
        h.expectBook(SYM, BUY);
        h.expectBook(SYM, SELL, "A:s1 100@1010");
    }

    @Test
    void iocThatIsFullyFilledIsNotCanceled() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord i1 = h.limit(B, "i1", SELL, IOC, 1000, 100);
        h.expect(
            i1.accepted(2, 2),
            i1.fill(3, 100, 1000).state(0, 100, 100_000, FILLED),
            b1.fill(4, 100, 1000).state(0, 100, 100_000, FILLED));
        h.expectEmptyBook();
    }

    // ---------------------------------------------------------------- FOK

    @Test
    void fokFillsEntirelyWhenTheQuantityIsAvailableOnlyAcrossSeveralLevels() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(B, "s2", 1005, 100);
        h.expect(s2.accepted(2, 2));
        Ord s3 = h.sell(A, "s3", 1010, 100);
        h.expect(s3.accepted(3, 3));

        Ord f1 = h.limit(C, "f1", BUY, FOK, 1010, 250);
        h.expect(
            f1.accepted(4, 4),
            f1.fill(5, 100, 1000).state(150, 100, 100_000, PARTIALLY_FILLED),
            s1.fill(6, 100, 1000).state(0, 100, 100_000, FILLED),
            f1.fill(7, 100, 1005).state(50, 200, 200_500, PARTIALLY_FILLED),
            s2.fill(8, 100, 1005).state(0, 100, 100_500, FILLED),
            f1.fill(9, 50, 1010).state(0, 250, 251_000, FILLED),
            s3.fill(10, 50, 1010).state(50, 50, 50_500, PARTIALLY_FILLED));
        h.expectBook(SYM, SELL, "A:s3 50@1010");
        h.expectBook(SYM, BUY);
    }

    @Test
    void fokForExactlyEverythingAvailableFills() {
        Ord b1 = h.order(A, "b1", SYM2, BUY, LIMIT, DAY, 101, 100);
        h.expect(b1.accepted(1, 1));
        Ord b2 = h.order(B, "b2", SYM2, BUY, LIMIT, DAY, 100, 100);
        h.expect(b2.accepted(2, 2));

        Ord f1 = h.order(C, "f1", SYM2, SELL, LIMIT, FOK, 100, 200);
        h.expect(
            f1.accepted(3, 3),
            f1.fill(4, 100, 101).state(100, 100, 10_100, PARTIALLY_FILLED),
            b1.fill(5, 100, 101).state(0, 100, 10_100, FILLED),
            f1.fill(6, 100, 100).state(0, 200, 20_100, FILLED),
            b2.fill(7, 100, 100).state(0, 100, 10_000, FILLED));
        h.expectEmptyBook();
    }

    @Test
    void fokShortByOneIsCanceledWithNothingTraded() {
        Ord s1 = h.order(A, "s1", SYM2, SELL, LIMIT, DAY, 100, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.order(B, "s2", SYM2, SELL, LIMIT, DAY, 101, 100);
        h.expect(s2.accepted(2, 2));
        List<String> before = h.snapshot();

        Ord f1 = h.order(C, "f1", SYM2, BUY, LIMIT, FOK, 101, 201);
        h.expect(f1.accepted(3, 3), f1.expired(4, 0, 0));
        assertEquals(before, h.snapshot());

        Ord f2 = h.order(C, "f2", SYM2, BUY, LIMIT, FOK, 101, 200); // one less fills
        h.expect(
            f2.accepted(4, 5),
            f2.fill(6, 100, 100).state(100, 100, 10_000, PARTIALLY_FILLED),
            s1.fill(7, 100, 100).state(0, 100, 10_000, FILLED),
            f2.fill(8, 100, 101).state(0, 200, 20_100, FILLED),
            s2.fill(9, 100, 101).state(0, 100, 10_100, FILLED));
    }

    @Test
    void fokCountsOnlyPricesWithinItsLimit() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(A, "s2", 1010, 100);
        h.expect(s2.accepted(2, 2));
        List<String> before = h.snapshot();

        Ord f1 = h.limit(B, "f1", BUY, FOK, 1005, 150);            // 200 resting, but only 100 at <= 1005
        h.expect(f1.accepted(3, 3), f1.expired(4, 0, 0));
        assertEquals(before, h.snapshot());
    }

    @Test
    void fokCountsEveryOrderOfALevelIncludingPartiallyFilledOnes() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(B, "s2", 1000, 100);
        h.expect(s2.accepted(2, 2));
        Ord i1 = h.limit(C, "i1", BUY, IOC, 1000, 30);
        h.expect(
            i1.accepted(3, 3),
            i1.fill(4, 30, 1000).state(0, 30, 30_000, FILLED),
            s1.fill(5, 30, 1000).state(70, 30, 30_000, PARTIALLY_FILLED));

        Ord f1 = h.limit(C, "f1", BUY, FOK, 1000, 180);            // 170 left
        h.expect(f1.accepted(4, 6), f1.expired(7, 0, 0));
        Ord f2 = h.limit(C, "f2", BUY, FOK, 1000, 170);
        h.expect(
            f2.accepted(5, 8),
            f2.fill(9, 70, 1000).state(100, 70, 70_000, PARTIALLY_FILLED),
            s1.fill(10, 70, 1000).state(0, 100, 100_000, FILLED),
            f2.fill(11, 100, 1000).state(0, 170, 170_000, FILLED),
            s2.fill(12, 100, 1000).state(0, 100, 100_000, FILLED));
        h.expectEmptyBook();
    }

    @Test
    void fokOnAnEmptyOppositeSideIsCanceled() {
        Ord f1 = h.limit(A, "f1", SELL, FOK, 1000, 10);
        h.expect(f1.accepted(1, 1), f1.expired(2, 0, 0));
        h.expectEmptyBook();
    }

    @Test
    void marketFokFillsEntirelyOrNotAtAll() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(A, "s2", 99_000, 50);
        h.expect(s2.accepted(2, 2));

        Ord m1 = h.order(B, "m1", SYM, BUY, MARKET, FOK, 0, 160);
        h.expect(m1.accepted(3, 3), m1.expired(4, 0, 0));
        Ord m2 = h.order(B, "m2", SYM, BUY, MARKET, FOK, 0, 150);
        h.expect(
            m2.accepted(4, 5),
            m2.fill(6, 100, 1000).state(50, 100, 100_000, PARTIALLY_FILLED),
            s1.fill(7, 100, 1000).state(0, 100, 100_000, FILLED),
            m2.fill(8, 50, 99_000).state(0, 150, 5_050_000, FILLED),
            s2.fill(9, 50, 99_000).state(0, 50, 4_950_000, FILLED));
        h.expectEmptyBook();
    }

    @Test
    void gtcAndDayAreNotCanceledWhenTheyCannotTrade() {
        Ord b1 = h.limit(A, "b1", BUY, GTC, 1000, 10);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.limit(A, "s1", SELL, DAY, 1005, 10);
        h.expect(s1.accepted(2, 2));
        h.expectBook(SYM, BUY, "A:b1 10@1000");
        h.expectBook(SYM, SELL, "A:s1 10@1005");
    }
}
