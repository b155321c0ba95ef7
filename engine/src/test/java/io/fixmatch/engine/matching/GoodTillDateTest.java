package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.RejectReason.EXPIRE_TIME_NOT_GTD;
import static io.fixmatch.engine.api.RejectReason.INVALID_EXPIRE_TIME;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** MATCHING.md "GTD": the engine expires the order at its expire time, through the commands' journal times. */
class GoodTillDateTest {
    private final EngineHarness h = EngineHarness.create();

    private Ord gtd(int owner, String id, long price, long expire) {
        return h.order(new Command().newOrder(owner, id, SYM, BUY, OrderType.LIMIT, TimeInForce.GTD, price, 20)
            .expireTimeNanos(expire));
    }

    @Test
    void aGtdOrderExpiresAtTheFirstCommandStampedAtOrAfterItsExpireTime() {
        h.at(100);
        Ord late = gtd(A, "late", 1000, 500);
        h.expect(late.accepted(1, 1));
        Ord early = gtd(B, "early", 995, 300);
        h.expect(early.accepted(2, 2));
        assertEquals(300, h.engine.nextDeadlineNanos());
        assertEquals(300, h.engine.view().nextDeadlineNanos());

        h.at(299);
        h.timer();
        h.expect();
        h.at(300);
        h.timer();
        h.expect(early.gtdExpired(3, 0, 0));
        assertEquals(500, h.engine.view().nextDeadlineNanos());

        // A client's command after the expire time finds the order gone: the expiry comes first, in its events.
        h.at(600);
        Ord sell = h.sell(B, "s", 1000, 10);
        h.expect(
            late.gtdExpired(4, 0, 0),
            sell.accepted(3, 5));
        h.expectBook(SYM, SELL, "B:s 10@1000");
        assertEquals(Long.MAX_VALUE, h.engine.nextDeadlineNanos());
    }

    @Test
    void aTradedOrCanceledGtdOrderLeavesTheExpiryQueue() {
        h.at(100);
        Ord a = gtd(A, "a", 1000, 1_000).id(1);
        Ord b = gtd(B, "b", 1000, 2_000).id(2);
        Ord sell = h.sell(B, "s", 1000, 30);
        h.expect(
            sell.accepted(3, 3),
            sell.fill(4, 20, 1000).state(10, 20, 20_000, PARTIALLY_FILLED),
            a.fill(5, 20, 1000).state(0, 20, 20_000, FILLED),
            sell.fill(6, 10, 1000).state(0, 30, 30_000, FILLED),
            b.fill(7, 10, 1000).state(10, 10, 10_000, PARTIALLY_FILLED));
        assertEquals(2_000, h.engine.nextDeadlineNanos());
        Req cancel = h.cancel(b, "c");
        h.expect(cancel.canceled(8, 10, 10_000));
        assertEquals(Long.MAX_VALUE, h.engine.nextDeadlineNanos());
        h.at(5_000);
        h.timer();
        h.expect();
    }

    @Test
    void anExpireTimeNotAfterTheOrderOrOnAnotherTimeInForceIsRejected() {
        h.at(1_000);
        Ord past = gtd(A, "past", 1000, 1_000);
        h.expect(past.rejected(1, INVALID_EXPIRE_TIME));
        Ord none = gtd(A, "none", 1000, 0);
        h.expect(none.rejected(2, INVALID_EXPIRE_TIME));
        Ord day = h.order(new Command().newOrder(A, "day", SYM, BUY, OrderType.LIMIT, TimeInForce.DAY, 1000, 10)
            .expireTimeNanos(5_000));
        h.expect(day.rejected(3, EXPIRE_TIME_NOT_GTD));
        assertEquals(List.of(), h.book(SYM, BUY));
    }
}
