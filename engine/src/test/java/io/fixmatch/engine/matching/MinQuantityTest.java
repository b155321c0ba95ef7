package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.RejectReason.INVALID_MIN_QUANTITY;
import static io.fixmatch.engine.api.RejectReason.MIN_QUANTITY_NOT_AVAILABLE;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** MATCHING.md "MinQty": an IOC trades only if at least its MinQty can trade at once. */
class MinQuantityTest {
    private final EngineHarness h = EngineHarness.create();

    private Ord ioc(int owner, String id, long price, long qty, long minQty, TimeInForce tif) {
        return h.order(new Command().newOrder(owner, id, SYM, BUY, OrderType.LIMIT, tif, price, qty)
            .minQuantity(minQty));
    }

    @Test
    void anIocTradesWhenItsMinQtyIsThereAndIsCanceledUntradedWhenItIsNot() {
        Ord ask1 = h.sell(A, "a1", 1000, 30).id(1);
        h.sell(A, "a2", 1010, 30);
        Ord tooMuch = ioc(B, "big", 1005, 60, 40, TimeInForce.IOC);
        h.expect(
            tooMuch.accepted(3, 3),
            tooMuch.expired(4, 0, 0).reason(MIN_QUANTITY_NOT_AVAILABLE));
        Ord enough = ioc(B, "ok", 1005, 60, 30, TimeInForce.IOC);
        h.expect(
            enough.accepted(4, 5),
            enough.fill(6, 30, 1000).state(30, 30, 30_000, PARTIALLY_FILLED),
            ask1.fill(7, 30, 1000).state(0, 30, 30_000, FILLED),
            enough.expired(8, 30, 30_000));
    }

    @Test
    void ownOrdersThatSelfTradePreventionWouldStopAtDoNotCount() {
        h.set(B, SessionControl.SELF_TRADE_PREVENTION, SelfTradePrevention.CANCEL_INCOMING.code());
        h.sell(B, "own", 1000, 30);
        h.sell(A, "other", 1000, 30);
        Ord ioc = ioc(B, "ioc", 1000, 30, 10, TimeInForce.IOC);
        h.expect(
            ioc.accepted(3, 3),
            ioc.expired(4, 0, 0).reason(MIN_QUANTITY_NOT_AVAILABLE));
    }

    /**
     * Cancel-resting passes its own orders over (they would be canceled, not traded): own 30 and another's 10 are not
     * the 20 an IOC with MinQty 20 needs, so it is canceled untraded and its own resting order stays.
     */
    @Test
    void ownOrdersThatCancelRestingWouldCancelDoNotCount() {
        h.set(B, SessionControl.SELF_TRADE_PREVENTION, SelfTradePrevention.CANCEL_RESTING.code());
        h.sell(B, "own", 1000, 30);
        h.sell(A, "other", 1000, 10);
        Ord ioc = ioc(B, "ioc", 1000, 30, 20, TimeInForce.IOC);
        h.expect(
            ioc.accepted(3, 3),
            ioc.expired(4, 0, 0).reason(MIN_QUANTITY_NOT_AVAILABLE));
        assertEquals(List.of("B:own 30/30@1000", "A:other 10/10@1000"), h.displayedBook(SYM, SELL));
    }

    @Test
    void minQtyIsOnlyForIocAndAtMostTheQuantityInLots() {
        Ord day = ioc(B, "day", 1000, 30, 10, TimeInForce.DAY);
        h.expect(day.rejected(1, INVALID_MIN_QUANTITY));
        Ord above = ioc(B, "above", 1000, 30, 40, TimeInForce.IOC);
        h.expect(above.rejected(2, INVALID_MIN_QUANTITY));
        Ord offLot = ioc(B, "offLot", 1000, 30, 15, TimeInForce.IOC);
        h.expect(offLot.rejected(3, INVALID_MIN_QUANTITY));
        Ord fok = ioc(B, "fok", 1000, 30, 10, TimeInForce.FOK);
        h.expect(fok.rejected(4, INVALID_MIN_QUANTITY));
    }
}
