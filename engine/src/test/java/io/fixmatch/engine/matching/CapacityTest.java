package io.fixmatch.engine.matching;

import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.NEW;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.OrderType.LIMIT;
import static io.fixmatch.engine.api.RejectReason.BOOK_FULL;
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

/** MATCHING.md "New order" check 7 and "Cancel/replace" BOOK_FULL: capacity exhaustion is a reject, never a throw. */
class CapacityTest {

    @Test
    void whenNoOrderIsFreeEveryNewOrderIsRejectedBookFullUntilOneIsFreed() {
        EngineHarness h = EngineHarness.withCapacity(3, 100);
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord b2 = h.buy(A, "b2", 995, 100);
        h.expect(b2.accepted(2, 2));
        Ord s1 = h.sell(B, "s1", 1010, 100);
        h.expect(s1.accepted(3, 3));
        List<String> before = h.snapshot();

        Ord b4 = h.buy(A, "b4", 990, 10);
        h.expect(b4.rejected(4, BOOK_FULL));
        Ord b5 = h.buy(A, "b5", 1000, 10);                          // its level exists; no order is free
        h.expect(b5.rejected(5, BOOK_FULL));
        Ord i1 = h.limit(C, "i1", SELL, IOC, 1000, 10);             // would trade: still no order to trade with
        h.expect(i1.rejected(6, BOOK_FULL));
        Ord m1 = h.market(C, "m1", SELL, 10);
        h.expect(m1.rejected(7, BOOK_FULL));
        Ord f1 = h.limit(C, "f1", BUY, FOK, 1010, 100);
        h.expect(f1.rejected(8, BOOK_FULL));
        assertEquals(before, h.snapshot());                         // nothing traded, nothing changed
        assertEquals(3, h.engine.lastOrderId());

        Req c = h.cancel(b2, "c");
        h.expect(c.canceled(9, 0, 0));
        Ord b4Again = h.buy(A, "b4", 990, 10);
        h.expect(b4Again.accepted(4, 10));
        Ord b6 = h.buy(A, "b6", 985, 10);
        h.expect(b6.rejected(11, BOOK_FULL));
    }

    @Test
    void ordersFinishedByTradingAreFreedForNewOrders() {
        EngineHarness h = EngineHarness.withCapacity(2, 100);
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord b1 = h.buy(B, "b1", 1000, 100);                         // uses the second order; both end filled
        h.expect(
            b1.accepted(2, 2),
            b1.fill(3, 100, 1000).state(0, 100, 100_000, FILLED),
            s1.fill(4, 100, 1000).state(0, 100, 100_000, FILLED));

        Ord s2 = h.sell(A, "s2", 1000, 100);
        h.expect(s2.accepted(3, 5));
        Ord i1 = h.limit(B, "i1", BUY, IOC, 1000, 30);
        h.expect(
            i1.accepted(4, 6),
            i1.fill(7, 30, 1000).state(0, 30, 30_000, FILLED),
            s2.fill(8, 30, 1000).state(70, 30, 30_000, PARTIALLY_FILLED));
        Ord b2 = h.buy(B, "b2", 995, 10);                           // the IOC's order was freed too
        h.expect(b2.accepted(5, 9));
        Ord b3 = h.buy(B, "b3", 990, 10);
        h.expect(b3.rejected(10, BOOK_FULL));
    }

    @Test
    void aDayOrGtcLimitAtAPriceWithoutLevelIsRejectedWhenNoLevelIsFree() {
        EngineHarness h = EngineHarness.withCapacity(100, 2);
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1010, 100);
        h.expect(s1.accepted(2, 2));
        List<String> before = h.snapshot();

        Ord b2 = h.buy(A, "b2", 995, 10);
        h.expect(b2.rejected(3, BOOK_FULL));
        Ord g1 = h.limit(A, "g1", SELL, GTC, 1015, 10);
        h.expect(g1.rejected(4, BOOK_FULL));
        Ord x1 = h.order(A, "x1", SYM2, BUY, LIMIT, DAY, 1000, 10); // levels are shared by all books and sides
        h.expect(x1.rejected(5, BOOK_FULL));
        assertEquals(before, h.snapshot());

        Ord b3 = h.buy(C, "b3", 1000, 10);                           // an existing level needs no free level
        h.expect(b3.accepted(3, 6));
        Ord i1 = h.limit(C, "i1", BUY, IOC, 995, 10);               // IOC / FOK / market never rest
        h.expect(i1.accepted(4, 7), i1.expired(8, 0, 0));
        Ord f1 = h.limit(C, "f1", BUY, FOK, 995, 10);
        h.expect(f1.accepted(5, 9), f1.expired(10, 0, 0));
        Ord m1 = h.market(C, "m1", SELL, 10);
        h.expect(
            m1.accepted(6, 11),
            m1.fill(12, 10, 1000).state(0, 10, 10_000, FILLED),
            b1.fill(13, 10, 1000).state(90, 10, 10_000, PARTIALLY_FILLED));

        Req c1 = h.cancel(b1, "c1");
        h.expect(c1.canceled(14, 10, 10_000));
        Req c2 = h.cancel(b3, "c2");                                 // the 1000 level is now empty and freed
        h.expect(c2.canceled(15, 0, 0));
        Ord b2Again = h.buy(A, "b2", 995, 10);
        h.expect(b2Again.accepted(7, 16));
        h.expectBook(SYM, BUY, "A:b2 10@995");
        h.expectBook(SYM, SELL, "B:s1 100@1010");
    }

    @Test
    void theLevelCheckComesBeforeAnyTradeSoARejectNeverFollowsAFill() {
        EngineHarness h = EngineHarness.withCapacity(100, 2);
        Ord b1 = h.buy(A, "b1", 1000, 10);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1010, 100);
        h.expect(s1.accepted(2, 2));
        List<String> before = h.snapshot();

        Ord b2 = h.buy(C, "b2", 1010, 150);                          // would fill 100 and rest 50 at 1010
        h.expect(b2.rejected(3, BOOK_FULL));
        Ord b3 = h.buy(C, "b3", 1010, 100);                          // would fill completely: still rejected
        h.expect(b3.rejected(4, BOOK_FULL));
        assertEquals(before, h.snapshot());

        Ord i1 = h.limit(C, "i1", BUY, IOC, 1010, 150);
        h.expect(
            i1.accepted(3, 5),
            i1.fill(6, 100, 1010).state(50, 100, 101_000, PARTIALLY_FILLED),
            s1.fill(7, 100, 1010).state(0, 100, 101_000, FILLED),
            i1.expired(8, 100, 101_000));
        Ord b4 = h.buy(C, "b4", 1010, 10);                           // the emptied ask level was freed
        h.expect(b4.accepted(4, 9));
        h.expectBook(SYM, BUY, "C:b4 10@1010", "A:b1 10@1000");
    }

    @Test
    void aReplaceToANewPriceIsRejectedBookFullOnlyWhenItReallyNeedsAnotherLevel() {
        EngineHarness h = EngineHarness.withCapacity(100, 2);
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord b2 = h.buy(A, "b2", 1000, 100);
        h.expect(b2.accepted(2, 2));
        Ord b3 = h.buy(B, "b3", 995, 100);
        h.expect(b3.accepted(3, 3));
        List<String> before = h.snapshot();

        Req r1 = h.replace(b1, "b1x", 990, 100);                     // 1000 keeps b2; 990 has no level
        h.expect(r1.rejectedLive(BOOK_FULL, b1, 100, 0, 0, NEW));
        assertEquals(before, h.snapshot());

        Req r2 = h.replace(b1, "b1y", 995, 100);                     // 995 has a level
        h.expect(r2.replaced(4).state(100, 0, 0, NEW));
        h.expectBook(SYM, BUY, "A:b2 100@1000", "B:b3 100@995", "A:b1y 100@995");

        Req r3 = h.replace(b2, "b2x", 990, 100);                     // b2 alone at 1000: its level is reused
        h.expect(r3.replaced(5).state(100, 0, 0, NEW));
        h.expectBook(SYM, BUY, "B:b3 100@995", "A:b1y 100@995", "A:b2x 100@990");

        Req r4 = h.replace(b3, "b3x", 985, 100);                     // 995 keeps b1y; 985 has no level
        h.expect(r4.rejectedLive(BOOK_FULL, b3, 100, 0, 0, NEW));
        Req r5 = h.replace(b3, "b3x", 995, 200);                     // same price, more quantity: no new level
        h.expect(r5.replaced(6).state(200, 0, 0, NEW));
        h.expectBook(SYM, BUY, "A:b1y 100@995", "B:b3x 200@995", "A:b2x 100@990");
    }

    @Test
    void aTinyEngineKeepsWorkingThroughRepeatedExhaustion() {
        EngineHarness h = EngineHarness.withCapacity(1, 1);
        long execId = 0;
        long orderId = 0;
        for (int round = 0; round < 50; round++) {
            Ord s = h.sell(A, "s", 1000, 10);
            h.expect(s.accepted(++orderId, ++execId));
            Ord full = h.sell(B, "full" + round, 1000, 10);
            h.expect(full.rejected(++execId, BOOK_FULL));
            Ord noLevel = h.buy(B, "n" + round, 995, 10);
            h.expect(noLevel.rejected(++execId, BOOK_FULL));
            Req c = h.cancel(s, "c" + round);
            h.expect(c.canceled(++execId, 0, 0));
        }
        h.expectEmptyBook();
    }
}
