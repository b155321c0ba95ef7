package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;

import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.C;
import static io.fixmatch.engine.matching.EngineHarness.SYM;

/**
 * MATCHING.md "Self-trade prevention": the incoming order's session's mode decides what happens at a resting order of
 * the same session or firm; fills before it stand; a FOK counts only what it could trade.
 */
class SelfTradePreventionTest {
    private final EngineHarness h = EngineHarness.create();

    /** A's s1 10@1000 first in the queue, B's s2 10@1000 behind it. */
    private Ord[] ownOrderFirst() {
        Ord s1 = h.sell(A, "s1", 1000, 10);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(B, "s2", 1000, 10);
        h.expect(s2.accepted(2, 2));
        return new Ord[] {s1, s2};
    }

    @Test
    void withoutAModeAnOwnersOrdersTrade() {
        Ord[] resting = ownOrderFirst();
        Ord b1 = h.buy(A, "b1", 1000, 10);
        h.expect(b1.accepted(3, 3), b1.fill(4, 10, 1000).state(0, 10, 10_000, OrderStatus.FILLED),
            resting[0].fill(5, 10, 1000).state(0, 10, 10_000, OrderStatus.FILLED));
    }

    @Test
    void cancelRestingCancelsTheOwnOrderAndGoesOnMatching() {
        h.set(A, SessionControl.SELF_TRADE_PREVENTION, SelfTradePrevention.CANCEL_RESTING.code());
        Ord[] resting = ownOrderFirst();
        Ord b1 = h.buy(A, "b1", 1000, 20);
        h.expect(b1.accepted(3, 3),
            resting[0].canceledBy(4, 0, 0, RejectReason.SELF_TRADE_RESTING),
            b1.fill(5, 10, 1000).state(10, 10, 10_000, OrderStatus.PARTIALLY_FILLED),
            resting[1].fill(6, 10, 1000).state(0, 10, 10_000, OrderStatus.FILLED));
        h.expectBook(SYM, BUY, "A:b1 10@1000");
        h.expectBook(SYM, SELL);
    }

    @Test
    void cancelIncomingKeepsEarlierFillsAndCancelsTheRest() {
        h.set(A, SessionControl.SELF_TRADE_PREVENTION, SelfTradePrevention.CANCEL_INCOMING.code());
        Ord s0 = h.sell(B, "s0", 995, 10);
        h.expect(s0.accepted(1, 1));
        Ord s1 = h.sell(A, "s1", 1000, 10);
        h.expect(s1.accepted(2, 2));
        Ord b1 = h.buy(A, "b1", 1000, 20);
        h.expect(b1.accepted(3, 3),
            b1.fill(4, 10, 995).state(10, 10, 9_950, OrderStatus.PARTIALLY_FILLED),
            s0.fill(5, 10, 995).state(0, 10, 9_950, OrderStatus.FILLED),
            b1.canceledBy(6, 10, 9_950, RejectReason.SELF_TRADE_INCOMING));
        h.expectBook(SYM, SELL, "A:s1 10@1000");
        h.expectBook(SYM, BUY);
    }

    @Test
    void cancelBothCancelsTheRestingThenTheIncoming() {
        h.set(A, SessionControl.SELF_TRADE_PREVENTION, SelfTradePrevention.CANCEL_BOTH.code());
        Ord[] resting = ownOrderFirst();
        Ord b1 = h.buy(A, "b1", 1000, 20);
        h.expect(b1.accepted(3, 3),
            resting[0].canceledBy(4, 0, 0, RejectReason.SELF_TRADE_RESTING),
            b1.canceledBy(5, 0, 0, RejectReason.SELF_TRADE_INCOMING));
        h.expectBook(SYM, SELL, "B:s2 10@1000");
    }

    @Test
    void sessionsOfOneFirmAreOneParty() {
        h.set(A, SessionControl.FIRM, 5);
        h.set(C, SessionControl.FIRM, 5);
        h.set(C, SessionControl.SELF_TRADE_PREVENTION, SelfTradePrevention.CANCEL_INCOMING.code());
        Ord[] resting = ownOrderFirst();
        Ord c1 = h.buy(C, "c1", 1000, 10); // A's s1 is the same firm's
        h.expect(c1.accepted(3, 3), c1.canceledBy(4, 0, 0, RejectReason.SELF_TRADE_INCOMING));
        Ord b1 = h.buy(B, "b1", 1000, 10); // B has no mode (and is another firm): trades with A's order
        h.expect(b1.accepted(4, 5), b1.fill(6, 10, 1000).state(0, 10, 10_000, OrderStatus.FILLED),
            resting[0].fill(7, 10, 1000).state(0, 10, 10_000, OrderStatus.FILLED));
    }

    @Test
    void aFokCountsOnlyWhatItCouldTradeAndChangesNothingWhenKilled() {
        h.set(A, SessionControl.SELF_TRADE_PREVENTION, SelfTradePrevention.CANCEL_RESTING.code());
        Ord[] resting = ownOrderFirst();
        Ord fok = h.limit(A, "f1", BUY, TimeInForce.FOK, 1000, 20); // 10 of the 20 are its own
        h.expect(fok.accepted(3, 3), fok.expired(4, 0, 0));
        h.expectBook(SYM, SELL, "A:s1 10@1000", "B:s2 10@1000");
        Ord fits = h.limit(A, "f2", BUY, TimeInForce.FOK, 1000, 10);
        h.expect(fits.accepted(4, 5), resting[0].canceledBy(6, 0, 0, RejectReason.SELF_TRADE_RESTING),
            fits.fill(7, 10, 1000).state(0, 10, 10_000, OrderStatus.FILLED),
            resting[1].fill(8, 10, 1000).state(0, 10, 10_000, OrderStatus.FILLED));
    }

    @Test
    void aReplaceThatCrossesIsAnIncomingOrder() {
        h.set(A, SessionControl.SELF_TRADE_PREVENTION, SelfTradePrevention.CANCEL_INCOMING.code());
        Ord s1 = h.sell(A, "s1", 1000, 10);
        h.expect(s1.accepted(1, 1));
        Ord b1 = h.buy(A, "b1", 990, 10);
        h.expect(b1.accepted(2, 2));
        Req cross = h.replace(b1, "b2", 1000, 10);
        h.expect(cross.replaced(3).state(10, 0, 0, OrderStatus.NEW),
            cross.replacement().canceledBy(4, 0, 0, RejectReason.SELF_TRADE_INCOMING));
        h.expectBook(SYM, BUY);
        h.expectBook(SYM, SELL, "A:s1 10@1000");
    }
}
