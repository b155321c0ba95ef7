package io.fixmatch.engine.matching;

import io.fixmatch.engine.matching.EngineHarness.Ev;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.config.EngineConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.NEW;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.OrderType.LIMIT;
import static io.fixmatch.engine.api.RejectReason.SIDE_OR_SYMBOL_MISMATCH;
import static io.fixmatch.engine.api.RejectReason.UNKNOWN_ORDER;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.api.TimeInForce.DAY;
import static io.fixmatch.engine.api.TimeInForce.GTC;
import static io.fixmatch.engine.api.TimeInForce.IOC;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.C;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static io.fixmatch.engine.matching.EngineHarness.SYM2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** MATCHING.md "Cancel" and "Rejects of cancel, replace and status". */
class CancelTest {
    private final EngineHarness h = EngineHarness.create();

    @Test
    void cancelTakesTheOrderOutOfTheBook() {
        Ord b1 = h.limit(A, "b1", BUY, GTC, 1000, 100);
        h.expect(b1.accepted(1, 1));

        Req c1 = h.cancel(b1, "c1");
        h.expect(c1.canceled(2, 0, 0));  // clOrdId=c1, origClOrdId=b1, order's fields, leaves 0, status CANCELED
        h.expectEmptyBook();
        assertEquals(1, h.engine.lastOrderId());
    }

    @Test
    void cancelOfAPartiallyFilledOrderKeepsItsCumAndNotional() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord b1 = h.buy(B, "b1", 1005, 30);
        h.expect(
            b1.accepted(2, 2),
            b1.fill(3, 30, 1000).state(0, 30, 30_000, FILLED),
            s1.fill(4, 30, 1000).state(70, 30, 30_000, PARTIALLY_FILLED));

        Req c1 = h.cancel(s1, "c1");
        h.expect(c1.canceled(5, 30, 30_000));
        h.expectEmptyBook();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void cancelOfAnyOrderOfALevelKeepsTheOthersInTheirOrder(int canceled) {
        int[] owners = {A, B, C, A};
        long[] quantities = {10, 20, 30, 40};
        List<Ord> level = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Ord s = h.sell(owners[i], "s" + i, 1000, quantities[i]);
            h.expect(s.accepted(i + 1, i + 1));
            level.add(s);
        }
        Ord behind = h.sell(B, "behind", 1005, 10);
        h.expect(behind.accepted(5, 5));

        Req c = h.cancel(level.get(canceled), "c");
        h.expect(c.canceled(6, 0, 0));
        level.remove(canceled);

        List<String> book = new ArrayList<>();
        long remaining = 0;
        for (Ord s : level) {
            book.add(EngineHarness.ownerName(s.owner) + ":" + s.id + " " + s.qty + "@1000");
            remaining += s.qty;
        }
        book.add("B:behind 10@1005");
        h.expectBook(SYM, SELL, book.toArray(String[]::new));

        // A buy for exactly what is left at 1000 meets the three orders in their original time order.
        Ord b = h.buy(C, "b", 1000, remaining);
        List<Ev> expected = new ArrayList<>();
        expected.add(b.accepted(6, 7));
        long execId = 7;
        long cum = 0;
        for (Ord s : level) {
            cum += s.qty;
            expected.add(b.fill(++execId, s.qty, 1000)
                .state(remaining - cum, cum, cum * 1000, cum == remaining ? FILLED : PARTIALLY_FILLED));
            expected.add(s.fill(++execId, s.qty, 1000).state(0, s.qty, s.qty * 1000, FILLED));
        }
        h.expect(expected.toArray(Ev[]::new));
        h.expectBook(SYM, SELL, "B:behind 10@1005");
    }

    @Test
    void cancelOfTheOnlyOrderOfTheBestLevelMakesTheNextLevelBest() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord b2 = h.buy(B, "b2", 995, 100);
        h.expect(b2.accepted(2, 2));
        Req c1 = h.cancel(b1, "c1");
        h.expect(c1.canceled(3, 0, 0));

        Ord s1 = h.sell(C, "s1", 995, 50);
        h.expect(
            s1.accepted(3, 4),
            s1.fill(5, 50, 995).state(0, 50, 49_750, FILLED),
            b2.fill(6, 50, 995).state(50, 50, 49_750, PARTIALLY_FILLED));

        Ord b3 = h.buy(A, "b3", 1000, 10);                          // the price level can be created again
        h.expect(b3.accepted(4, 7));
        h.expectBook(SYM, BUY, "A:b3 10@1000", "B:b2 50@995");
    }

    @Test
    void cancelOfAnOrderThatNeverExistedIsRejectedUnknownOrder() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        List<String> before = h.snapshot();

        Req c1 = h.cancel(A, "c1", "b2", SYM, BUY);
        h.expect(c1.rejected(UNKNOWN_ORDER));      // request's ids, symbol, side; order id 0, exec id 0, REJECTED
        Req c2 = h.cancel(A, "c2", "", SYM, BUY);
        h.expect(c2.rejected(UNKNOWN_ORDER));
        assertEquals(before, h.snapshot());
    }

    @Test
    void cancelOfAFilledOrderIsRejectedUnknownOrder() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 100);
        h.expect(
            s1.accepted(2, 2),
            s1.fill(3, 100, 1000).state(0, 100, 100_000, FILLED),
            b1.fill(4, 100, 1000).state(0, 100, 100_000, FILLED));

        Req c1 = h.cancel(b1, "c1");
        h.expect(c1.rejected(UNKNOWN_ORDER));
        Req c2 = h.cancel(s1, "c2");                                // the aggressor, filled on arrival
        h.expect(c2.rejected(UNKNOWN_ORDER));
    }

    @Test
    void cancelOfACanceledOrderIsRejectedUnknownOrder() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Req c1 = h.cancel(b1, "c1");
        h.expect(c1.canceled(2, 0, 0));

        Req c2 = h.cancel(b1, "c2");
        h.expect(c2.rejected(UNKNOWN_ORDER));
    }

    @Test
    void cancelOfAnIocOrderAfterItsCommandIsRejectedUnknownOrder() {
        Ord i1 = h.limit(A, "i1", BUY, IOC, 1000, 100);
        h.expect(i1.accepted(1, 1), i1.expired(2, 0, 0));
        Req c1 = h.cancel(i1, "c1");
        h.expect(c1.rejected(UNKNOWN_ORDER));
    }

    @Test
    void cancelWithTheWrongSideIsRejectedAndTheOrderStays() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 40);
        h.expect(
            s1.accepted(2, 2),
            s1.fill(3, 40, 1000).state(0, 40, 40_000, FILLED),
            b1.fill(4, 40, 1000).state(60, 40, 40_000, PARTIALLY_FILLED));

        Req c1 = h.cancel(A, "c1", "b1", SYM, SELL);
        h.expect(c1.rejectedLive(SIDE_OR_SYMBOL_MISMATCH, b1, 60, 40, 40_000, PARTIALLY_FILLED));
        h.expectBook(SYM, BUY, "A:b1 60@1000");

        Req c2 = h.cancel(b1, "c2");
        h.expect(c2.canceled(5, 40, 40_000));
    }

    @Test
    void cancelWithTheWrongSymbolIsRejectedAndTheOrderStays() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));

        Req c1 = h.cancel(A, "c1", "b1", SYM2, BUY);
        h.expect(c1.rejectedLive(SIDE_OR_SYMBOL_MISMATCH, b1, 100, 0, 0, NEW));
        Req c2 = h.cancel(A, "c2", "b1", 7, BUY);                   // even a symbol that does not exist
        h.expect(c2.rejectedLive(SIDE_OR_SYMBOL_MISMATCH, b1, 100, 0, 0, NEW));
        h.expectBook(SYM, BUY, "A:b1 100@1000");
    }

    @Test
    void anotherOwnerCannotCancelMyOrder() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));

        Req c1 = h.cancel(B, "c1", "b1", SYM, BUY);
        h.expect(c1.rejected(UNKNOWN_ORDER));                       // not even the order id is revealed
        h.expectBook(SYM, BUY, "A:b1 100@1000");
    }

    @Test
    void cancelFindsTheOrderOfItsOwnOwnerWhenOwnersShareAClientOrderId() {
        Ord ax = h.buy(A, "x", 1000, 100);
        h.expect(ax.accepted(1, 1));
        Ord bx = h.buy(B, "x", 1000, 50);
        h.expect(bx.accepted(2, 2));
        Ord cx = h.sell(C, "x", 1005, 50);
        h.expect(cx.accepted(3, 3));

        Req c1 = h.cancel(bx, "c1");
        h.expect(c1.canceled(4, 0, 0));
        h.expectBook(SYM, BUY, "A:x 100@1000");
        h.expectBook(SYM, SELL, "C:x 50@1005");

        Req c2 = h.cancel(bx, "c2");
        h.expect(c2.rejected(UNKNOWN_ORDER));
        Req c3 = h.cancel(cx, "c3");
        h.expect(c3.canceled(5, 0, 0));
        h.expectBook(SYM, BUY, "A:x 100@1000");
        h.expectBook(SYM, SELL);
    }

    @Test
    void aReplacedOrderIsCanceledByItsNewIdNotItsOldOne() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Req r = h.replace(b1, "b2", 1000, 80);
        h.expect(r.replaced(2).state(80, 0, 0, NEW));
        Ord b2 = r.replacement();

        Req c1 = h.cancel(b1, "c1");
        h.expect(c1.rejected(UNKNOWN_ORDER));
        Req c2 = h.cancel(b2, "c2");
        h.expect(c2.canceled(3, 0, 0));                             // orig id b2, price 1000, qty 80
        h.expectEmptyBook();
    }

    @Test
    void cancelOfOneOfManyOrdersDoesNotDisturbOtherLevelsOrSymbols() {
        Ord s1 = h.sell(A, "s1", 1005, 10);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(A, "s2", 1010, 10);
        h.expect(s2.accepted(2, 2));
        Ord b1 = h.buy(A, "b1", 1000, 10);
        h.expect(b1.accepted(3, 3));
        Ord x1 = h.order(A, "x1", SYM2, SELL, LIMIT, DAY, 1005, 10);
        h.expect(x1.accepted(4, 4));

        Req c = h.cancel(s2, "c");
        h.expect(c.canceled(5, 0, 0));
        assertEquals(List.of(
            "owner=1 clOrdId=b1 orderId=3 symbol=0 side=BUY tif=DAY price=1000 qty=10 leaves=10 cum=0 notional=0",
            "owner=1 clOrdId=s1 orderId=1 symbol=0 side=SELL tif=DAY price=1005 qty=10 leaves=10 cum=0 notional=0",
            "owner=1 clOrdId=x1 orderId=4 symbol=1 side=SELL tif=DAY price=1005 qty=10 leaves=10 cum=0 notional=0"),
            h.snapshot());
    }

    @Test
    void cancelCostDoesNotGrowWithTheDepthOfTheLevel() {
        // "O(1) whatever the size of the level": 100,000 orders at one price, canceled from the inside out. A cancel
        // that walked the level would need billions of steps here; the timeout is generous for constant time.
        int depth = 100_000;
        long[] events = {0};
        MatchingEngine engine = new MatchingEngine(
            new EngineConfig(List.of(EngineHarness.ACME, EngineHarness.BETA), depth, 4), e -> events[0]++);
        Command command = new Command();
        for (int i = 0; i < depth; i++) {
            engine.process(command.newOrder(A, "s" + i, SYM, SELL, LIMIT, DAY, 1000, 10));
        }
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (int i = 1; i < depth - 1; i += 2) {
                engine.process(command.cancel(A, "c", "s" + i, SYM, SELL));
            }
            for (int i = depth - 2; i > 0; i -= 2) {
                engine.process(command.cancel(A, "c", "s" + i, SYM, SELL));
            }
        });
        assertEquals(depth + depth - 2, events[0]);                 // every cancel was a CANCELED
        List<String> left = new ArrayList<>();
        engine.forEachRestingOrder(SYM, SELL, o -> left.add(o.clientOrderId() + " " + o.orderId()));
        assertEquals(List.of("s0 1", "s" + (depth - 1) + " " + depth), left);
    }
}
