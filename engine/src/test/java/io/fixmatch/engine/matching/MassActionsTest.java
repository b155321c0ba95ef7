package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ev;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.NEW;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.RejectReason.MASS_CANCELED;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static io.fixmatch.engine.matching.EngineHarness.SYM2;

/** MATCHING.md "Order mass cancel" and "Order mass status". */
class MassActionsTest {
    private final EngineHarness h = EngineHarness.create();
    private Ord a1;
    private Ord a2;
    private Ord a3;
    private Ord a4;

    /** A's orders: buy on SYM (1), sell on SYM (2), buy on SYM2 (3), a waiting buy stop on SYM (4); B's one. */
    private void book() {
        a1 = h.buy(A, "a1", 995, 20).id(1);
        a2 = h.sell(A, "a2", 1005, 20).id(2);
        a3 = h.order(A, "a3", SYM2, BUY, OrderType.LIMIT, TimeInForce.GTC, 50, 5).id(3);
        a4 = h.order(new Command().newOrder(A, "a4", SYM, BUY, OrderType.STOP, TimeInForce.DAY, 0, 10)
            .stopPrice(1010)).id(4);
        h.sell(B, "b1", 1005, 10);
    }

    private static Ev report(String id, int symbol, Side side, long count, long execId) {
        return new Ev(EventType.MASS_CANCEL_REPORT, A).clOrdId(id).ids(0, execId).order(symbol, side, null, null, 0,
            count).state(0, 0, 0, NEW);
    }

    @Test
    void cancelingAllOfASessionsOrdersReportsTheCountThenCancelsEachNewestFirst() {
        book(); // exec ids 1..5
        h.send(new Command().massCancel(A, "m1", Command.ALL_SYMBOLS, null));
        h.expect(
            report("m1", Command.ALL_SYMBOLS, null, 4, 6),
            a4.canceledBy(7, 0, 0, MASS_CANCELED),
            a3.canceledBy(8, 0, 0, MASS_CANCELED),
            a2.canceledBy(9, 0, 0, MASS_CANCELED),
            a1.canceledBy(10, 0, 0, MASS_CANCELED));
        h.expectBook(SYM, SELL, "B:b1 10@1005");
        h.send(new Command().massCancel(A, "m2", Command.ALL_SYMBOLS, null));
        h.expect(report("m2", Command.ALL_SYMBOLS, null, 0, 11));
    }

    @Test
    void aSymbolASideOrBothNarrowWhatIsCanceled() {
        book();
        h.send(new Command().massCancel(A, "bySymbol", SYM2, null));
        h.expect(report("bySymbol", SYM2, null, 1, 6), a3.canceledBy(7, 0, 0, MASS_CANCELED));
        h.send(new Command().massCancel(A, "bySide", Command.ALL_SYMBOLS, SELL));
        h.expect(report("bySide", Command.ALL_SYMBOLS, SELL, 1, 8), a2.canceledBy(9, 0, 0, MASS_CANCELED));
        h.send(new Command().massCancel(A, "both", SYM, BUY));
        h.expect(report("both", SYM, BUY, 2, 10), a4.canceledBy(11, 0, 0, MASS_CANCELED),
            a1.canceledBy(12, 0, 0, MASS_CANCELED));
    }

    @Test
    void anUnknownSymbolIsRefusedAndCancelsNothing() {
        book();
        h.send(new Command().massCancel(A, "bad", 7, BUY));
        h.expect(report("bad", 7, BUY, 0, 0).state(0, 0, 0, OrderStatus.REJECTED)
            .reason(RejectReason.UNKNOWN_SYMBOL));
        h.expectBook(SYM, BUY, "A:a1 20@995");
    }

    @Test
    void massStatusReportsEveryLiveOrderNewestFirstWithTheCountAndOneReportWhenNone() {
        book();
        h.sell(B, "hit", 995, 10); // a1 partly filled: exec ids 6..8
        h.send(new Command().massStatus(A, "q1", Command.ALL_SYMBOLS));
        h.expect(
            status(a4, "q1", 4).state(10, 0, 0, NEW),
            status(a3, "q1", 4).state(5, 0, 0, NEW),
            status(a2, "q1", 4).state(20, 0, 0, NEW),
            status(a1, "q1", 4).state(10, 10, 9_950, PARTIALLY_FILLED));
        h.send(new Command().massStatus(A, "q2", SYM2));
        h.expect(status(a3, "q2", 1).state(5, 0, 0, NEW));
        h.send(new Command().massStatus(B + 1, "q3", Command.ALL_SYMBOLS));
        h.expect(new Ev(EventType.MASS_STATUS, B + 1).origClOrdId("q3").order(Command.ALL_SYMBOLS, null, null, null,
            0, 0).state(0, 0, 0, OrderStatus.REJECTED).reason(RejectReason.NO_LIVE_ORDERS));
    }

    /** A MASS_STATUS of a live order: as a STATUS (exec id 0), the request id as orig id, the number of reports. */
    private static Ev status(Ord order, String requestId, long count) {
        return new Ev(EventType.MASS_STATUS, order.owner).clOrdId(order.id).origClOrdId(requestId)
            .ids(order.orderId, 0).order(order.symbol, order.side, order.type, order.tif, order.reportedPrice(),
                order.qty).attributes(order.stopPrice, order.expireTime).reports(count);
    }
}
