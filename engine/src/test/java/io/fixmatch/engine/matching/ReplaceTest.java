package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.NEW;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.RejectReason.DUPLICATE_CLIENT_ORDER_ID;
import static io.fixmatch.engine.api.RejectReason.MISSING_CLIENT_ORDER_ID;
import static io.fixmatch.engine.api.RejectReason.PRICE_NOT_ON_TICK;
import static io.fixmatch.engine.api.RejectReason.QUANTITY_NOT_ABOVE_FILLED;
import static io.fixmatch.engine.api.RejectReason.QUANTITY_NOT_POSITIVE;
import static io.fixmatch.engine.api.RejectReason.SIDE_OR_SYMBOL_MISMATCH;
import static io.fixmatch.engine.api.RejectReason.UNKNOWN_ORDER;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.api.TimeInForce.GTC;
import static io.fixmatch.engine.api.TimeInForce.IOC;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.C;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static io.fixmatch.engine.matching.EngineHarness.SYM2;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** MATCHING.md "Cancel/replace" and "Rejects of cancel, replace and status". */
class ReplaceTest {
    private final EngineHarness h = EngineHarness.create();

    /** s1 (A) then s2 (B), both 100 at 1000. */
    private Ord[] twoAsksAt1000() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(B, "s2", 1000, 100);
        h.expect(s2.accepted(2, 2));
        return new Ord[] {s1, s2};
    }

    // ---------------------------------------------------------------- priority

    @Test
    void reducingTheQuantityKeepsThePlaceInTheQueue() {
        Ord[] asks = twoAsksAt1000();
        Req r = h.replace(asks[0], "s1b", 1000, 50);
        h.expect(r.replaced(3).state(50, 0, 0, NEW));
        Ord s1b = r.replacement();
        h.expectBook(SYM, SELL, "A:s1b 50@1000", "B:s2 100@1000");

        Ord b1 = h.buy(C, "b1", 1000, 120);
        h.expect(
            b1.accepted(3, 4),
            b1.fill(5, 50, 1000).state(70, 50, 50_000, PARTIALLY_FILLED),
            s1b.fill(6, 50, 1000).state(0, 50, 50_000, FILLED),
            b1.fill(7, 70, 1000).state(0, 120, 120_000, FILLED),
            asks[1].fill(8, 70, 1000).state(30, 70, 70_000, PARTIALLY_FILLED));
    }

    @Test
    void replacingWithTheSamePriceAndQuantityKeepsThePlaceInTheQueue() {
        Ord[] asks = twoAsksAt1000();
        Req r = h.replace(asks[0], "s1b", 1000, 100);
        h.expect(r.replaced(3).state(100, 0, 0, NEW));
        h.expectBook(SYM, SELL, "A:s1b 100@1000", "B:s2 100@1000");

        Ord b1 = h.buy(C, "b1", 1000, 100);
        h.expect(
            b1.accepted(3, 4),
            b1.fill(5, 100, 1000).state(0, 100, 100_000, FILLED),
            r.replacement().fill(6, 100, 1000).state(0, 100, 100_000, FILLED));
        h.expectBook(SYM, SELL, "B:s2 100@1000");
    }

    @Test
    void increasingTheQuantityLosesThePlaceInTheQueue() {
        Ord[] asks = twoAsksAt1000();
        Req r = h.replace(asks[0], "s1b", 1000, 150);
        h.expect(r.replaced(3).state(150, 0, 0, NEW));
        h.expectBook(SYM, SELL, "B:s2 100@1000", "A:s1b 150@1000");

        Ord b1 = h.buy(C, "b1", 1000, 100);
        h.expect(
            b1.accepted(3, 4),
            b1.fill(5, 100, 1000).state(0, 100, 100_000, FILLED),
            asks[1].fill(6, 100, 1000).state(0, 100, 100_000, FILLED));
    }

    @Test
    void changingThePriceGoesToTheBackOfTheNewLevelEvenWithASmallerQuantity() {
        Ord[] asks = twoAsksAt1000();
        Ord s3 = h.sell(C, "s3", 1005, 100);
        h.expect(s3.accepted(3, 3));

        Req r1 = h.replace(asks[0], "s1b", 1005, 50);
        h.expect(r1.replaced(4).state(50, 0, 0, NEW));
        h.expectBook(SYM, SELL, "B:s2 100@1000", "C:s3 100@1005", "A:s1b 50@1005");

        Req r2 = h.replace(s3, "s3b", 1000, 100);
        h.expect(r2.replaced(5).state(100, 0, 0, NEW));
        h.expectBook(SYM, SELL, "B:s2 100@1000", "C:s3b 100@1000", "A:s1b 50@1005");

        Req r3 = h.replace(r1.replacement(), "s1c", 1000, 50);     // back to 1000: behind both now
        h.expect(r3.replaced(6).state(50, 0, 0, NEW));
        h.expectBook(SYM, SELL, "B:s2 100@1000", "C:s3b 100@1000", "A:s1c 50@1000");
    }

    // ---------------------------------------------------------------- crossing

    @Test
    void aNewPriceThatCrossesTradesAtOnceAndRestsTheRemainder() {
        Ord b1 = h.buy(A, "b1", 990, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 60);
        h.expect(s1.accepted(2, 2));
        Ord s2 = h.sell(C, "s2", 1010, 100);
        h.expect(s2.accepted(3, 3));

        Req r = h.replace(b1, "b2", 1005, 100);
        Ord b2 = r.replacement();
        h.expect(
            r.replaced(4).state(100, 0, 0, NEW),
            b2.fill(5, 60, 1000).state(40, 60, 60_000, PARTIALLY_FILLED),
            s1.fill(6, 60, 1000).state(0, 60, 60_000, FILLED));
        h.expectBook(SYM, BUY, "A:b2 40@1005");
        h.expectBook(SYM, SELL, "C:s2 100@1010");
    }

    @Test
    void aSellMovedDownThroughTheBidsTradesBestBidFirst() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord b2 = h.buy(B, "b2", 995, 50);
        h.expect(b2.accepted(2, 2));
        Ord b3 = h.buy(B, "b3", 990, 50);
        h.expect(b3.accepted(3, 3));
        Ord s1 = h.limit(C, "s1", SELL, GTC, 1010, 200);
        h.expect(s1.accepted(4, 4));

        Req r = h.replace(s1, "s1b", 995, 200);
        Ord s1b = r.replacement();
        h.expect(
            r.replaced(5).state(200, 0, 0, NEW),
            s1b.fill(6, 100, 1000).state(100, 100, 100_000, PARTIALLY_FILLED),
            b1.fill(7, 100, 1000).state(0, 100, 100_000, FILLED),
            s1b.fill(8, 50, 995).state(50, 150, 149_750, PARTIALLY_FILLED),
            b2.fill(9, 50, 995).state(0, 50, 49_750, FILLED));
        h.expectBook(SYM, BUY, "B:b3 50@990");
        h.expectBook(SYM, SELL, "C:s1b 50@995");
        assertEquals(List.of(
            "owner=2 clOrdId=b3 orderId=3 symbol=0 side=BUY tif=DAY price=990 qty=50 leaves=50 cum=0 notional=0",
            "owner=3 clOrdId=s1b orderId=4 symbol=0 side=SELL tif=GTC price=995 qty=200 leaves=50 cum=150"
                + " notional=149750"),
            h.snapshot());
    }

    @Test
    void aCrossingReplaceOfAPartiallyFilledOrderThatFillsCompletelyLeavesTheBook() {
        Ord b1 = h.buy(A, "b1", 990, 100);
        h.expect(b1.accepted(1, 1));
        Ord s0 = h.sell(B, "s0", 990, 30);
        h.expect(
            s0.accepted(2, 2),
            s0.fill(3, 30, 990).state(0, 30, 29_700, FILLED),
            b1.fill(4, 30, 990).state(70, 30, 29_700, PARTIALLY_FILLED));
        Ord s1 = h.sell(C, "s1", 1000, 100);
        h.expect(s1.accepted(3, 5));

        Req r = h.replace(b1, "b2", 1000, 100);
        Ord b2 = r.replacement();
        h.expect(
            r.replaced(6).state(70, 30, 29_700, PARTIALLY_FILLED),
            b2.fill(7, 70, 1000).state(0, 100, 99_700, FILLED),
            s1.fill(8, 70, 1000).state(30, 70, 70_000, PARTIALLY_FILLED));
        h.expectBook(SYM, BUY);
        h.expectBook(SYM, SELL, "C:s1 30@1000");

        Req c = h.cancel(b2, "c");                                  // filled: no longer live
        h.expect(c.rejected(UNKNOWN_ORDER));
        Ord again = h.buy(A, "b2", 995, 10);                        // and its id is free
        h.expect(again.accepted(4, 9));
    }

    // ---------------------------------------------------------------- quantities of a partially filled order

    @Test
    void newQuantityIsTheTotalSoLeavesIsItMinusCum() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 40);
        h.expect(
            s1.accepted(2, 2),
            s1.fill(3, 40, 1000).state(0, 40, 40_000, FILLED),
            b1.fill(4, 40, 1000).state(60, 40, 40_000, PARTIALLY_FILLED));

        Req r1 = h.replace(b1, "b2", 1000, 80);
        h.expect(r1.replaced(5).state(40, 40, 40_000, PARTIALLY_FILLED));
        h.expectBook(SYM, BUY, "A:b2 40@1000");
        Req r2 = h.replace(r1.replacement(), "b3", 1000, 200);
        h.expect(r2.replaced(6).state(160, 40, 40_000, PARTIALLY_FILLED));
        h.expectBook(SYM, BUY, "A:b3 160@1000");

        Req st = h.status(r2.replacement());
        h.expect(st.status().state(160, 40, 40_000, PARTIALLY_FILLED));
    }

    @Test
    void newQuantityNotAboveTheFilledQuantityIsRejected() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 40);
        h.expect(
            s1.accepted(2, 2),
            s1.fill(3, 40, 1000).state(0, 40, 40_000, FILLED),
            b1.fill(4, 40, 1000).state(60, 40, 40_000, PARTIALLY_FILLED));
        List<String> before = h.snapshot();

        Req r1 = h.replace(b1, "b2", 1000, 40);
        h.expect(r1.rejectedLive(QUANTITY_NOT_ABOVE_FILLED, b1, 60, 40, 40_000, PARTIALLY_FILLED));
        Req r2 = h.replace(b1, "b2", 995, 30);
        h.expect(r2.rejectedLive(QUANTITY_NOT_ABOVE_FILLED, b1, 60, 40, 40_000, PARTIALLY_FILLED));
        assertEquals(before, h.snapshot());

        Req r3 = h.replace(b1, "b2", 1000, 50);                     // one lot above cum is fine
        h.expect(r3.replaced(5).state(10, 40, 40_000, PARTIALLY_FILLED));
    }

    // ---------------------------------------------------------------- rejects

    @Test
    void replaceOfAnOrderThatIsNotLiveIsRejectedUnknownOrder() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 100);
        h.expect(
            s1.accepted(2, 2),
            s1.fill(3, 100, 1000).state(0, 100, 100_000, FILLED),
            b1.fill(4, 100, 1000).state(0, 100, 100_000, FILLED));
        Ord b2 = h.buy(A, "b2", 990, 100);
        h.expect(b2.accepted(3, 5));
        Req c = h.cancel(b2, "c");
        h.expect(c.canceled(6, 0, 0));
        Ord i1 = h.limit(A, "i1", BUY, IOC, 990, 10);
        h.expect(i1.accepted(4, 7), i1.expired(8, 0, 0));

        Req never = h.replace(A, "n2", "never", SYM, BUY, 1000, 100);
        h.expect(never.rejected(UNKNOWN_ORDER));
        Req filled = h.replace(b1, "b1x", 1000, 200);
        h.expect(filled.rejected(UNKNOWN_ORDER));
        Req canceled = h.replace(b2, "b2x", 990, 200);
        h.expect(canceled.rejected(UNKNOWN_ORDER));
        Req ioc = h.replace(i1, "i1x", 990, 20);
        h.expect(ioc.rejected(UNKNOWN_ORDER));
        Req unknownAndMismatch = h.replace(A, "x", "never", SYM2, SELL, 1000, 100);
        h.expect(unknownAndMismatch.rejected(UNKNOWN_ORDER));      // unknown is checked first
        h.expectEmptyBook();
    }

    @Test
    void anotherOwnerCannotReplaceMyOrder() {
        Ord ax = h.buy(A, "x", 1000, 100);
        h.expect(ax.accepted(1, 1));
        Req r = h.replace(B, "y", "x", SYM, BUY, 1005, 100);
        h.expect(r.rejected(UNKNOWN_ORDER));
        h.expectBook(SYM, BUY, "A:x 100@1000");

        Ord bx = h.buy(B, "x", 995, 50);                            // B's own "x" is another order
        h.expect(bx.accepted(2, 2));
        Req r2 = h.replace(bx, "y", 990, 50);
        h.expect(r2.replaced(3).state(50, 0, 0, NEW));
        h.expectBook(SYM, BUY, "A:x 100@1000", "B:y 50@990");
    }

    @Test
    void replaceWithTheWrongSideOrSymbolIsRejected() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Req r1 = h.replace(A, "b2", "b1", SYM, SELL, 1000, 100);
        h.expect(r1.rejectedLive(SIDE_OR_SYMBOL_MISMATCH, b1, 100, 0, 0, NEW));
        Req r2 = h.replace(A, "b2", "b1", SYM2, BUY, 1000, 100);
        h.expect(r2.rejectedLive(SIDE_OR_SYMBOL_MISMATCH, b1, 100, 0, 0, NEW));
        Req r3 = h.replace(A, "", "b1", SYM, SELL, 1003, 0);        // mismatch comes before the other checks
        h.expect(r3.rejectedLive(SIDE_OR_SYMBOL_MISMATCH, b1, 100, 0, 0, NEW));
        h.expectBook(SYM, BUY, "A:b1 100@1000");
    }

    @Test
    void replaceWithoutANewClientOrderIdIsRejected() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Req r = h.replace(b1, "", 1003, 0);                          // missing id comes before price/qty
        h.expect(r.rejectedLive(MISSING_CLIENT_ORDER_ID, b1, 100, 0, 0, NEW));
        h.expectBook(SYM, BUY, "A:b1 100@1000");
    }

    @Test
    void replaceToAnIdThatIsAlreadyLiveIsRejectedIncludingTheOrdersOwnId() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord b2 = h.buy(A, "b2", 995, 100);
        h.expect(b2.accepted(2, 2));
        Ord bx = h.buy(B, "x", 990, 100);
        h.expect(bx.accepted(3, 3));
        List<String> before = h.snapshot();

        Req r1 = h.replace(b1, "b2", 1000, 50);
        h.expect(r1.rejectedLive(DUPLICATE_CLIENT_ORDER_ID, b1, 100, 0, 0, NEW));
        Req r2 = h.replace(b1, "b1", 1000, 50);
        h.expect(r2.rejectedLive(DUPLICATE_CLIENT_ORDER_ID, b1, 100, 0, 0, NEW));
        Req r3 = h.replace(b1, "b1", 1003, 0);                       // duplicate comes before price/qty
        h.expect(r3.rejectedLive(DUPLICATE_CLIENT_ORDER_ID, b1, 100, 0, 0, NEW));
        assertEquals(before, h.snapshot());

        Req r4 = h.replace(b1, "x", 1000, 50);                       // B's "x" is not A's
        h.expect(r4.replaced(4).state(50, 0, 0, NEW));
    }

    @ParameterizedTest(name = "price {0} qty {1} -> {2}")
    @CsvSource({
        "1000, 0, QUANTITY_NOT_POSITIVE",
        "1000, -10, QUANTITY_NOT_POSITIVE",
        "1000, 10010, QUANTITY_TOO_LARGE",
        "1000, 10015, QUANTITY_TOO_LARGE",
        "1000, 55, QUANTITY_NOT_LOT_MULTIPLE",
        "0, 55, QUANTITY_NOT_LOT_MULTIPLE",
        "0, 100, PRICE_NOT_POSITIVE",
        "-5, 100, PRICE_NOT_POSITIVE",
        "-3, 100, PRICE_NOT_POSITIVE",
        "100005, 100, PRICE_TOO_LARGE",
        "100003, 100, PRICE_TOO_LARGE",
        "1003, 100, PRICE_NOT_ON_TICK",
        "1012, 100, PRICE_NOT_ON_TICK",
    })
    void replaceWithAnInvalidPriceOrQuantityIsRejectedAndChangesNothing(long price, long qty, RejectReason reason) {
        Ord b1 = h.limit(A, "b1", BUY, GTC, 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1010, 100);                         // a valid 1010 or 1012 would cross
        h.expect(s1.accepted(2, 2));
        List<String> before = h.snapshot();

        Req r = h.replace(b1, "b2", price, qty);
        h.expect(r.rejectedLive(reason, b1, 100, 0, 0, NEW));
        assertEquals(before, h.snapshot());
        assertEquals(2, h.engine.lastExecId());
    }

    @Test
    void priceAndQuantityChecksComeBeforeTheFilledQuantityCheck() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 40);
        h.expect(
            s1.accepted(2, 2),
            s1.fill(3, 40, 1000).state(0, 40, 40_000, FILLED),
            b1.fill(4, 40, 1000).state(60, 40, 40_000, PARTIALLY_FILLED));

        Req r1 = h.replace(b1, "b2", 1000, 0);
        h.expect(r1.rejectedLive(QUANTITY_NOT_POSITIVE, b1, 60, 40, 40_000, PARTIALLY_FILLED));
        Req r2 = h.replace(b1, "b2", 1003, 40);
        h.expect(r2.rejectedLive(PRICE_NOT_ON_TICK, b1, 60, 40, 40_000, PARTIALLY_FILLED));
    }

    // ---------------------------------------------------------------- what a replace keeps

    @Test
    void replaceKeepsOrderIdTimeInForceAndType() {
        Ord b1 = h.limit(A, "b1", BUY, GTC, 1000, 100);
        h.expect(b1.accepted(1, 1));
        Req r = h.replace(b1, "b2", 995, 70);
        h.expect(r.replaced(2).state(70, 0, 0, NEW));               // order id 1, type LIMIT, tif GTC
        assertEquals(List.of(
            "owner=1 clOrdId=b2 orderId=1 symbol=0 side=BUY tif=GTC price=995 qty=70 leaves=70 cum=0 notional=0"),
            h.snapshot());

        Req old = h.status(b1);
        h.expect(old.rejected(UNKNOWN_ORDER));
    }
}
