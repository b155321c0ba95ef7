package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.NEW;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.RejectReason.INVALID_STOP_PRICE;
import static io.fixmatch.engine.api.RejectReason.STOP_NOT_TRIGGERED;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.C;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** MATCHING.md "Stop and stop-limit orders". Symbol 0: tick 5, lot 10. */
class StopOrderTest {
    private final EngineHarness h = EngineHarness.create();

    private Ord stop(int owner, String id, Side side, long stopPrice, long qty) {
        return h.order(new Command().newOrder(owner, id, SYM, side, OrderType.STOP, TimeInForce.DAY, 0, qty)
            .stopPrice(stopPrice));
    }

    private Ord stopLimit(int owner, String id, Side side, long stopPrice, long limit, long qty) {
        return h.order(new Command().newOrder(owner, id, SYM, side, OrderType.STOP_LIMIT, TimeInForce.GTC, limit, qty)
            .stopPrice(stopPrice));
    }

    /** A trade of 10 at one price: C's sell rested, B's buy took it. */
    private record Trade(Ord sell, Ord buy) {
    }

    /** A trade at {@code price}: C sells 10 to B (the sell rests, the buy takes it). */
    private Trade tradeAt(long price) {
        Ord sell = h.sell(C, "t-s" + price, price, 10);
        return new Trade(sell, h.buy(B, "t-b" + price, price, 10));
    }

    @Test
    void aStopWaitsOutOfTheBookUntilTheLastTradeReachesItsStopPriceThenTradesAsAMarketOrder() {
        Ord s1 = stop(A, "s1", BUY, 1010, 20);
        h.expect(s1.accepted(1, 1));
        h.expectBook(SYM, BUY);
        assertEquals(List.of("A:s1 20 stop 1010"), h.waitingStops(SYM, BUY));
        Ord ask = h.sell(C, "a1", 1020, 50);
        h.expect(ask.accepted(2, 2));
        tradeAt(1005); // order ids 3, 4; exec ids 3..6: below the stop, nothing triggers
        assertEquals(List.of("A:s1 20 stop 1010"), h.waitingStops(SYM, BUY));

        Trade reaching = tradeAt(1010); // orders 5 (exec 7), 6: a trade at 1010, which reaches the stop
        h.expect(
            reaching.buy().accepted(6, 8),
            reaching.buy().fill(9, 10, 1010).state(0, 10, 10_100, FILLED),
            reaching.sell().id(5).fill(10, 10, 1010).state(0, 10, 10_100, FILLED),
            s1.triggered(11),
            s1.fill(12, 20, 1020).state(0, 20, 20_400, FILLED),
            ask.fill(13, 20, 1020).state(30, 20, 20_400, PARTIALLY_FILLED));
        assertEquals(List.of(), h.waitingStops(SYM, BUY));
    }

    @Test
    void aSellStopLimitTriggersAtOrBelowItsStopAndRestsItsRestAtItsLimit() {
        Ord s1 = stopLimit(A, "s1", SELL, 1000, 995, 30);
        h.expect(s1.accepted(1, 1));
        Ord bid = h.buy(C, "b1", 995, 10);
        h.expect(bid.accepted(2, 2));
        Ord resting = h.buy(B, "x", 1000, 10).id(3);
        Ord hit = h.sell(C, "y", 1000, 10); // order 4 trades at 1000: the stop triggers
        h.expect(
            hit.accepted(4, 4),
            hit.fill(5, 10, 1000).state(0, 10, 10_000, FILLED),
            resting.fill(6, 10, 1000).state(0, 10, 10_000, FILLED),
            s1.triggered(7),
            s1.fill(8, 10, 995).state(20, 10, 9_950, PARTIALLY_FILLED),
            bid.fill(9, 10, 995).state(0, 10, 9_950, FILLED));
        h.expectBook(SYM, SELL, "A:s1 20@995");
    }

    @Test
    void aStopWhoseStopPriceTheLastTradeAlreadyReachedIsTriggeredAtOnce() {
        tradeAt(1000); // orders 1, 2; exec ids 1..4
        h.sell(C, "a", 1005, 10); // order 3, exec 5
        Ord s1 = stop(A, "s1", BUY, 995, 10);
        h.expect(
            s1.accepted(4, 6),
            s1.triggered(7),
            s1.fill(8, 10, 1005).state(0, 10, 10_050, FILLED),
            new Ord(C, "a", SYM, SELL, OrderType.LIMIT, TimeInForce.DAY, 1005, 10).id(3)
                .fill(9, 10, 1005).state(0, 10, 10_050, FILLED));
    }

    @Test
    void withoutATradeNothingTriggersAndATriggeredStopWithNothingToTradeIsCanceled() {
        Ord s1 = stop(A, "s1", SELL, 1000, 10);
        h.expect(s1.accepted(1, 1));
        assertEquals(List.of("A:s1 10 stop 1000"), h.waitingStops(SYM, SELL));
        Trade below = tradeAt(995); // orders 2, 3, exec 2..5: the sell stop triggers; the bid side is empty now
        h.expect(
            below.buy().accepted(3, 3),
            below.buy().fill(4, 10, 995).state(0, 10, 9_950, FILLED),
            below.sell().id(2).fill(5, 10, 995).state(0, 10, 9_950, FILLED),
            s1.triggered(6),
            s1.expired(7, 0, 0));
    }

    @Test
    void stopsTriggeredTogetherEnterByStopPriceThenArrivalAndEachOnesTradesCanTriggerMore() {
        Ord far = stop(A, "far", BUY, 1020, 10).id(1);
        Ord near2 = stop(B, "near2", BUY, 1010, 10).id(2);
        Ord near1 = stop(A, "near1", BUY, 1010, 10).id(3);
        assertEquals(List.of("B:near2 10 stop 1010", "A:near1 10 stop 1010", "A:far 10 stop 1020"),
            h.waitingStops(SYM, BUY));
        Ord a1 = h.sell(C, "a1", 1015, 10).id(4);
        Ord a2 = h.sell(C, "a2", 1025, 10).id(5);
        Ord a3 = h.sell(C, "a3", 1030, 10).id(6); // exec ids so far 1..6
        Trade reaching = tradeAt(1010); // orders 7 (exec 7), 8 (exec 8): a trade at 1010
        h.expect(
            reaching.buy().accepted(8, 8),
            reaching.buy().fill(9, 10, 1010).state(0, 10, 10_100, FILLED),
            reaching.sell().id(7).fill(10, 10, 1010).state(0, 10, 10_100, FILLED),
            near2.triggered(11), // both 1010 stops trigger at 1010, in arrival order
            near2.fill(12, 10, 1015).state(0, 10, 10_150, FILLED),
            a1.fill(13, 10, 1015).state(0, 10, 10_150, FILLED),
            near1.triggered(14),
            near1.fill(15, 10, 1025).state(0, 10, 10_250, FILLED),
            a2.fill(16, 10, 1025).state(0, 10, 10_250, FILLED),
            far.triggered(17), // 1025 reached the 1020 stop: it queued behind near1
            far.fill(18, 10, 1030).state(0, 10, 10_300, FILLED),
            a3.fill(19, 10, 1030).state(0, 10, 10_300, FILLED));
    }

    @Test
    void aWaitingStopCanBeCanceledAndAskedAboutButNotReplacedAndItsDayEnds() {
        Ord s1 = stop(A, "s1", BUY, 1010, 20).id(1);
        Ord s2 = stopLimit(B, "s2", BUY, 1015, 1020, 10);
        h.expect(s2.accepted(2, 2));
        Req status = h.status(s1);
        h.expect(status.status().state(20, 0, 0, NEW));
        Req replace = h.replace(s2, "s2b", 1020, 20);
        h.expect(replace.rejectedLive(STOP_NOT_TRIGGERED, s2, 10, 0, 0, NEW));
        h.send(new Command().expireDayOrders());
        h.expect(s1.dayExpired(3, 0, 0)); // the GTC stop-limit stays
        assertEquals(List.of("B:s2 10 stop 1015"), h.waitingStops(SYM, BUY));
        Req cancel = h.cancel(s2, "c");
        h.expect(cancel.canceled(4, 0, 0));
        assertEquals(List.of(), h.waitingStops(SYM, BUY));
        assertEquals(0, h.engine.liveOrderCount());
    }

    @Test
    void aStopPriceOffTheTickMissingOrOnAnotherOrderTypeIsRejected() {
        Ord off = stop(A, "off", BUY, 1002, 10);
        h.expect(off.rejected(1, INVALID_STOP_PRICE));
        Ord missing = stop(A, "missing", BUY, 0, 10);
        h.expect(missing.rejected(2, INVALID_STOP_PRICE));
        Ord onLimit = h.order(new Command().newOrder(A, "lim", SYM, BUY, OrderType.LIMIT, TimeInForce.DAY, 1000, 10)
            .stopPrice(1000));
        h.expect(onLimit.rejected(3, INVALID_STOP_PRICE));
    }
}
