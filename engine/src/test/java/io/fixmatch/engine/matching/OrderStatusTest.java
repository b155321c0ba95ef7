package io.fixmatch.engine.matching;

import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.NEW;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.OrderType.LIMIT;
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

/** MATCHING.md "Order status" and "Rejects of cancel, replace and status". */
class OrderStatusTest {
    private final EngineHarness h = EngineHarness.create();

    @Test
    void statusOfALiveNewOrderReportsItsStateWithExecIdZero() {
        Ord b1 = h.order(A, "b1", SYM2, BUY, LIMIT, GTC, 1234, 77);
        h.expect(b1.accepted(1, 1));
        List<String> before = h.snapshot();

        Req s = h.status(b1);
        h.expect(s.status().state(77, 0, 0, NEW));        // clOrdId b1, no orig id, order id 1, exec id 0, GTC
        assertEquals(before, h.snapshot());
    }

    @Test
    void statusOfAPartiallyFilledOrderReportsLeavesCumAndNotional() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord b1 = h.buy(B, "b1", 1005, 30);
        h.expect(
            b1.accepted(2, 2),
            b1.fill(3, 30, 1000).state(0, 30, 30_000, FILLED),
            s1.fill(4, 30, 1000).state(70, 30, 30_000, PARTIALLY_FILLED));

        Req s = h.status(s1);
        h.expect(s.status().state(70, 30, 30_000, PARTIALLY_FILLED));
    }

    @Test
    void statusOfAnOrderThatIsNotLiveIsRejectedUnknownOrder() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord s1 = h.sell(B, "s1", 1000, 100);
        h.expect(
            s1.accepted(2, 2),
            s1.fill(3, 100, 1000).state(0, 100, 100_000, FILLED),
            b1.fill(4, 100, 1000).state(0, 100, 100_000, FILLED));
        Ord b2 = h.buy(A, "b2", 990, 10);
        h.expect(b2.accepted(3, 5));
        Req c = h.cancel(b2, "c");
        h.expect(c.canceled(6, 0, 0));
        Ord i1 = h.limit(C, "i1", SELL, IOC, 1100, 10);
        h.expect(i1.accepted(4, 7), i1.expired(8, 0, 0));

        Req never = h.status(A, "never", SYM, BUY);
        h.expect(never.rejected(UNKNOWN_ORDER));  // STATUS, clOrdId never, order id 0, exec id 0, status REJECTED
        Req filled = h.status(b1);
        h.expect(filled.rejected(UNKNOWN_ORDER));
        Req aggressorFilled = h.status(s1);
        h.expect(aggressorFilled.rejected(UNKNOWN_ORDER));
        Req canceled = h.status(b2);
        h.expect(canceled.rejected(UNKNOWN_ORDER));
        Req ioc = h.status(i1);
        h.expect(ioc.rejected(UNKNOWN_ORDER));
    }

    @Test
    void anotherOwnerCannotSeeMyOrder() {
        Ord ax = h.buy(A, "x", 1000, 100);
        h.expect(ax.accepted(1, 1));
        Req sb = h.status(B, "x", SYM, BUY);
        h.expect(sb.rejected(UNKNOWN_ORDER));

        Ord bx = h.buy(B, "x", 995, 40);
        h.expect(bx.accepted(2, 2));
        Req sa = h.status(ax);
        h.expect(sa.status().state(100, 0, 0, NEW));      // order id 1
        Req sb2 = h.status(bx);
        h.expect(sb2.status().state(40, 0, 0, NEW));      // order id 2
    }

    @Test
    void statusWithTheWrongSideOrSymbolIsRejected() {
        // MATCHING.md is ambiguous here ("STATUS with status REJECTED" vs. "when the named order is live, its ...
        // status"); this asserts the detailed rule of "Rejects of cancel, replace and status": the live order's
        // id, leaves, cum, notional and status.
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Req s1 = h.status(A, "b1", SYM, SELL);
        h.expect(s1.rejectedLive(SIDE_OR_SYMBOL_MISMATCH, b1, 100, 0, 0, NEW));
        Req s2 = h.status(A, "b1", SYM2, BUY);
        h.expect(s2.rejectedLive(SIDE_OR_SYMBOL_MISMATCH, b1, 100, 0, 0, NEW));
        h.expectBook(SYM, BUY, "A:b1 100@1000");
    }

    @Test
    void statusFollowsAReplaceToTheNewId() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Req r = h.replace(b1, "b2", 995, 60);
        h.expect(r.replaced(2).state(60, 0, 0, NEW));

        Req old = h.status(b1);
        h.expect(old.rejected(UNKNOWN_ORDER));
        Req current = h.status(r.replacement());
        h.expect(current.status().state(60, 0, 0, NEW));  // price 995, qty 60, order id 1
    }

    @Test
    void statusRequestsChangeNothingInTheBook() {
        Ord s1 = h.sell(A, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord s2 = h.sell(B, "s2", 1000, 100);
        h.expect(s2.accepted(2, 2));
        List<String> before = h.snapshot();

        for (int i = 0; i < 5; i++) {
            Req s = h.status(s1);
            h.expect(s.status().state(100, 0, 0, NEW));
        }
        assertEquals(before, h.snapshot());
        h.expectBook(SYM, SELL, "A:s1 100@1000", "B:s2 100@1000");  // s1 keeps its time priority
    }
}
