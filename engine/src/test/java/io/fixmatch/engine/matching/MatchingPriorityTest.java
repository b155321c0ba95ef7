package io.fixmatch.engine.matching;

import io.fixmatch.engine.matching.EngineHarness.Ev;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.OrderType.LIMIT;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.api.TimeInForce.DAY;
import static io.fixmatch.engine.api.TimeInForce.GTC;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.C;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static io.fixmatch.engine.matching.EngineHarness.SYM2;

/** MATCHING.md "New order", trading: best price first, oldest first within a price, at the resting price. */
class MatchingPriorityTest {
    private final EngineHarness h = EngineHarness.create();

    @Test
    void buyTakesTheLowestAskFirstAndTheOldestOrderFirstWithinAPrice() {
        Ord s1 = h.sell(A, "s1", 1010, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(B, "s2", 1000, 100);
        h.expect(s2.accepted(2, 2));
        Ord s3 = h.sell(A, "s3", 1005, 100);
        h.expect(s3.accepted(3, 3));
        Ord s4 = h.sell(C, "s4", 1000, 100);
        h.expect(s4.accepted(4, 4));
        h.expectBook(SYM, SELL, "B:s2 100@1000", "C:s4 100@1000", "A:s3 100@1005", "A:s1 100@1010");

        Ord b1 = h.buy(C, "b1", 1010, 350);
        h.expect(
            b1.accepted(5, 5),
            b1.fill(6, 100, 1000).state(250, 100, 100_000, PARTIALLY_FILLED),
            s2.fill(7, 100, 1000).state(0, 100, 100_000, FILLED),
            b1.fill(8, 100, 1000).state(150, 200, 200_000, PARTIALLY_FILLED),
            s4.fill(9, 100, 1000).state(0, 100, 100_000, FILLED),
            b1.fill(10, 100, 1005).state(50, 300, 300_500, PARTIALLY_FILLED),
            s3.fill(11, 100, 1005).state(0, 100, 100_500, FILLED),
            b1.fill(12, 50, 1010).state(0, 350, 351_000, FILLED),
            s1.fill(13, 50, 1010).state(50, 50, 50_500, PARTIALLY_FILLED));

        h.expectBook(SYM, SELL, "A:s1 50@1010");
        h.expectBook(SYM, BUY);
    }

    @Test
    void sellTakesTheHighestBidFirstAtTheBidsPriceAndRestsTheRemainder() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord b2 = h.buy(B, "b2", 1010, 100);
        h.expect(b2.accepted(2, 2));
        Ord b3 = h.buy(C, "b3", 990, 100);
        h.expect(b3.accepted(3, 3));

        Ord s1 = h.sell(C, "s1", 995, 250);
        h.expect(
            s1.accepted(4, 4),
            s1.fill(5, 100, 1010).state(150, 100, 101_000, PARTIALLY_FILLED),
            b2.fill(6, 100, 1010).state(0, 100, 101_000, FILLED),
            s1.fill(7, 100, 1000).state(50, 200, 201_000, PARTIALLY_FILLED),
            b1.fill(8, 100, 1000).state(0, 100, 100_000, FILLED));   // 990 is below the sell's limit

        h.expectBook(SYM, BUY, "C:b3 100@990");
        h.expectBook(SYM, SELL, "C:s1 50@995");
    }

    @Test
    void theTradePriceIsTheRestingOrdersPriceNotTheAggressors() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord b1 = h.buy(B, "b1", 1020, 100);
        h.expect(
            b1.accepted(2, 2),
            b1.fill(3, 100, 1000).state(0, 100, 100_000, FILLED),
            s1.fill(4, 100, 1000).state(0, 100, 100_000, FILLED));
        h.expectEmptyBook();
    }

    @Test
    void orderOfEqualPriceOnBothSidesTradesAtThatPrice() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 100);
        h.expect(
            s1.accepted(2, 2),
            s1.fill(3, 100, 1000).state(0, 100, 100_000, FILLED),
            b1.fill(4, 100, 1000).state(0, 100, 100_000, FILLED));
        h.expectEmptyBook();
    }

    @Test
    void nonCrossingOrdersRestWithoutTrading() {
        Ord s1 = h.sell(A, "s1", 1005, 100);
        h.expect(s1.accepted(1, 1));
        Ord b1 = h.buy(B, "b1", 1000, 100);
        h.expect(b1.accepted(2, 2));
        h.expectBook(SYM, BUY, "B:b1 100@1000");
        h.expectBook(SYM, SELL, "A:s1 100@1005");
    }

    @Test
    void partiallyFilledRestingOrderKeepsItsPlaceAtTheHeadOfItsLevel() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(B, "s2", 1000, 100);
        h.expect(s2.accepted(2, 2));
        Ord s3 = h.sell(C, "s3", 1000, 100);
        h.expect(s3.accepted(3, 3));

        Ord b1 = h.buy(A, "b1", 1000, 150);
        h.expect(
            b1.accepted(4, 4),
            b1.fill(5, 100, 1000).state(50, 100, 100_000, PARTIALLY_FILLED),
            s1.fill(6, 100, 1000).state(0, 100, 100_000, FILLED),
            b1.fill(7, 50, 1000).state(0, 150, 150_000, FILLED),
            s2.fill(8, 50, 1000).state(50, 50, 50_000, PARTIALLY_FILLED));
        h.expectBook(SYM, SELL, "B:s2 50@1000", "C:s3 100@1000");

        Ord s4 = h.sell(A, "s4", 1000, 100);                       // arrives after s2 was partially filled
        h.expect(s4.accepted(5, 9));
        Ord b2 = h.buy(B, "b2", 1000, 100);
        h.expect(
            b2.accepted(6, 10),
            b2.fill(11, 50, 1000).state(50, 50, 50_000, PARTIALLY_FILLED),
            s2.fill(12, 50, 1000).state(0, 100, 100_000, FILLED),
            b2.fill(13, 50, 1000).state(0, 100, 100_000, FILLED),
            s3.fill(14, 50, 1000).state(50, 50, 50_000, PARTIALLY_FILLED));
        h.expectBook(SYM, SELL, "C:s3 50@1000", "A:s4 100@1000");
    }

    @Test
    void aLimitOrderSweepsLevelsUpToItsPriceAndRestsTheRemainderAtItsPrice() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(A, "s2", 1005, 100);
        h.expect(s2.accepted(2, 2));
        Ord s3 = h.sell(A, "s3", 1010, 100);
        h.expect(s3.accepted(3, 3));

        Ord b1 = h.limit(B, "b1", BUY, GTC, 1005, 250);
        h.expect(
            b1.accepted(4, 4),
            b1.fill(5, 100, 1000).state(150, 100, 100_000, PARTIALLY_FILLED),
            s1.fill(6, 100, 1000).state(0, 100, 100_000, FILLED),
            b1.fill(7, 100, 1005).state(50, 200, 200_500, PARTIALLY_FILLED),
            s2.fill(8, 100, 1005).state(0, 100, 100_500, FILLED));

        h.expectBook(SYM, BUY, "B:b1 50@1005");
        h.expectBook(SYM, SELL, "A:s3 100@1010");

        // The rested remainder is a live order at the back of its level, with its fills so far.
        Ord s4 = h.sell(C, "s4", 1005, 50);
        h.expect(
            s4.accepted(5, 9),
            s4.fill(10, 50, 1005).state(0, 50, 50_250, FILLED),
            b1.fill(11, 50, 1005).state(0, 250, 250_750, FILLED));
        h.expectBook(SYM, BUY);
    }

    @Test
    void ownOrdersOfTheSameOwnerTradeWithEachOther() {
        // MATCHING.md has no self-trade prevention: the owner plays no part in matching.
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord b1 = h.buy(A, "b1", 1000, 40);
        h.expect(
            b1.accepted(2, 2),
            b1.fill(3, 40, 1000).state(0, 40, 40_000, FILLED),
            s1.fill(4, 40, 1000).state(60, 40, 40_000, PARTIALLY_FILLED));
    }

    @Test
    void eachSymbolHasItsOwnBook() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord b1 = h.order(B, "b1", SYM2, BUY, LIMIT, DAY, 1000, 100);
        h.expect(b1.accepted(2, 2));                               // does not see symbol 0's ask
        Ord s2 = h.order(C, "s2", SYM2, SELL, LIMIT, DAY, 999, 30);
        h.expect(
            s2.accepted(3, 3),
            s2.fill(4, 30, 1000).state(0, 30, 30_000, FILLED),
            b1.fill(5, 30, 1000).state(70, 30, 30_000, PARTIALLY_FILLED));

        h.expectBook(SYM, SELL, "A:s1 100@1000");
        h.expectBook(SYM, BUY);
        h.expectBook(SYM2, BUY, "B:b1 70@1000");
        h.expectBook(SYM2, SELL);
    }

    @Test
    void levelsAreKeptInPriceOrderWhateverTheOrderTheyAppearIn() {
        long[] prices = {500, 520, 480, 510, 490, 530, 470, 505, 495, 540, 460, 515, 485, 501, 499, 600, 400, 550};
        long execId = 0;
        long orderId = 0;
        for (int i = 0; i < prices.length; i++) {
            Ord b = h.order(A, "b" + i, SYM2, BUY, LIMIT, DAY, prices[i] - 100, 1 + i);
            h.expect(b.accepted(++orderId, ++execId));
            Ord s = h.order(B, "s" + i, SYM2, SELL, LIMIT, DAY, prices[i] + 200, 1 + i);
            h.expect(s.accepted(++orderId, ++execId));
        }
        List<String> bids = new ArrayList<>();
        List<String> asks = new ArrayList<>();
        long[] sorted = prices.clone();
        Arrays.sort(sorted);
        for (long price : sorted) {
            int i = indexOf(prices, price);
            asks.add("B:s" + i + " " + (1 + i) + "@" + (price + 200));
        }
        for (int k = sorted.length - 1; k >= 0; k--) {
            int i = indexOf(prices, sorted[k]);
            bids.add("A:b" + i + " " + (1 + i) + "@" + (sorted[k] - 100));
        }
        h.expectBook(SYM2, BUY, bids.toArray(String[]::new));
        h.expectBook(SYM2, SELL, asks.toArray(String[]::new));

        // A sell sweeping every bid meets them in that order.
        long total = 0;
        for (int i = 0; i < prices.length; i++) {
            total += 1 + i;
        }
        Ord sweep = h.order(C, "sweep", SYM2, SELL, LIMIT, DAY, 1, total);
        List<Ev> expected = new ArrayList<>();
        expected.add(sweep.accepted(++orderId, ++execId));
        long cum = 0;
        long notional = 0;
        for (int k = sorted.length - 1; k >= 0; k--) {
            int i = indexOf(prices, sorted[k]);
            long qty = 1 + i;
            long px = sorted[k] - 100;
            cum += qty;
            notional += qty * px;
            Ord bid = new Ord(A, "b" + i, SYM2, BUY, LIMIT, DAY, px, qty).id(2L * i + 1);
            expected.add(sweep.fill(++execId, qty, px)
                .state(total - cum, cum, notional, cum == total ? FILLED : PARTIALLY_FILLED));
            expected.add(bid.fill(++execId, qty, px).state(0, qty, qty * px, FILLED));
        }
        h.expect(expected.toArray(Ev[]::new));
        h.expectBook(SYM2, BUY);
        h.expectBook(SYM2, SELL, asks.toArray(String[]::new));
    }

    private static int indexOf(long[] values, long value) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        throw new IllegalArgumentException();
    }
}
