package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static io.fixmatch.engine.api.OrderType.LIMIT;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.api.TimeInForce.DAY;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static io.fixmatch.engine.matching.EngineHarness.SYM2;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MATCHING.md "New order" checks 1-6: each reject reason, the order of the checks, and that a rejected order
 * changes nothing (no trade, no order id, the book as it was). Symbol 0: tick 5, lot 10, max price 100,000, max
 * quantity 10,000; symbol 1: tick 1, lot 1, max price and quantity 1,000,000.
 */
class ValidationTest {
    private final EngineHarness h = EngineHarness.create();

    /** An ask at 1000 and a bid at 995 on symbol 0, an ask at 50 on symbol 1: an accepted order could trade. */
    private void populate() {
        Ord s1 = h.sell(B, "s1", 1000, 100);
        h.expect(s1.accepted(1, 1));
        Ord b1 = h.buy(B, "b1", 995, 100);
        h.expect(b1.accepted(2, 2));
        Ord x1 = h.order(B, "x1", SYM2, SELL, LIMIT, DAY, 50, 100);
        h.expect(x1.accepted(3, 3));
    }

    @ParameterizedTest(name = "[{index}] symbol={0} id=''{1}'' {2} {3} {4} price={5} qty={6} -> {7}")
    @CsvSource({
        // unknown symbol
        "2,  x,  BUY,  LIMIT,  DAY, 1000,    100,     UNKNOWN_SYMBOL",
        "-1, x,  BUY,  LIMIT,  DAY, 1000,    100,     UNKNOWN_SYMBOL",
        "2,  '', BUY,  LIMIT,  DAY, 0,       0,       UNKNOWN_SYMBOL",
        // missing client order id
        "0,  '', BUY,  LIMIT,  DAY, 1000,    100,     MISSING_CLIENT_ORDER_ID",
        "0,  '', BUY,  LIMIT,  DAY, 1003,    0,       MISSING_CLIENT_ORDER_ID",
        // quantity
        "0,  x,  BUY,  LIMIT,  DAY, 1000,    0,       QUANTITY_NOT_POSITIVE",
        "0,  x,  SELL, LIMIT,  DAY, 995,     -10,     QUANTITY_NOT_POSITIVE",
        "0,  x,  BUY,  LIMIT,  DAY, 0,       0,       QUANTITY_NOT_POSITIVE",
        "0,  x,  BUY,  LIMIT,  DAY, 1000,    10010,   QUANTITY_TOO_LARGE",
        "0,  x,  BUY,  LIMIT,  DAY, 1000,    10015,   QUANTITY_TOO_LARGE",
        "1,  x,  BUY,  LIMIT,  DAY, 50,      1000001, QUANTITY_TOO_LARGE",
        "0,  x,  BUY,  LIMIT,  DAY, 1000,    15,      QUANTITY_NOT_LOT_MULTIPLE",
        "0,  x,  BUY,  LIMIT,  DAY, 0,       15,      QUANTITY_NOT_LOT_MULTIPLE",
        "0,  x,  BUY,  LIMIT,  FOK, 1000,    105,     QUANTITY_NOT_LOT_MULTIPLE",
        // price
        "0,  x,  BUY,  LIMIT,  DAY, 0,       100,     PRICE_NOT_POSITIVE",
        "0,  x,  SELL, LIMIT,  DAY, -995,    100,     PRICE_NOT_POSITIVE",
        "0,  x,  BUY,  LIMIT,  DAY, -3,      100,     PRICE_NOT_POSITIVE",
        "0,  x,  BUY,  LIMIT,  DAY, 100005,  100,     PRICE_TOO_LARGE",
        "0,  x,  BUY,  LIMIT,  GTC, 100003,  100,     PRICE_TOO_LARGE",
        "1,  x,  BUY,  LIMIT,  DAY, 1000001, 1,       PRICE_TOO_LARGE",
        "0,  x,  BUY,  LIMIT,  DAY, 1003,    100,     PRICE_NOT_ON_TICK",
        "0,  x,  SELL, LIMIT,  DAY, 993,     100,     PRICE_NOT_ON_TICK",
        "0,  x,  BUY,  LIMIT,  IOC, 1001,    100,     PRICE_NOT_ON_TICK",
        // market orders: quantity checks, then liquidity (the price is not checked)
        "0,  x,  BUY,  MARKET, DAY, 0,       0,       QUANTITY_NOT_POSITIVE",
        "0,  x,  BUY,  MARKET, IOC, 0,       15,      QUANTITY_NOT_LOT_MULTIPLE",
        "0,  x,  SELL, MARKET, DAY, 0,       10010,   QUANTITY_TOO_LARGE",
    })
    void invalidNewOrderIsRejectedAndChangesNothing(int symbol, String id, Side side, OrderType type,
                                                    TimeInForce tif, long price, long qty, RejectReason reason) {
        populate();
        List<String> before = h.snapshot();

        Ord bad = h.order(A, id, symbol, side, type, tif, price, qty);
        h.expect(bad.rejected(4, reason));      // order id 0, the command's fields, leaves 0, cum 0, REJECTED

        assertEquals(before, h.snapshot());
        assertEquals(3, h.engine.lastOrderId());
        Ord next = h.buy(A, "next", 990, 10);
        h.expect(next.accepted(4, 5));
    }

    @Test
    void valuesAtTheLimitsAreAccepted() {
        Ord maxima = h.buy(A, "max", 100_000, 10_000);
        h.expect(maxima.accepted(1, 1));
        Ord minima = h.buy(A, "min", 5, 10);
        h.expect(minima.accepted(2, 2));
        Ord maxima2 = h.order(A, "max2", SYM2, SELL, LIMIT, DAY, 1_000_000, 1_000_000);
        h.expect(maxima2.accepted(3, 3));
        Ord minima2 = h.order(A, "min2", SYM2, SELL, LIMIT, DAY, 1, 1);
        h.expect(minima2.accepted(4, 4));
        h.expectBook(SYM, BUY, "A:max 10000@100000", "A:min 10@5");
        h.expectBook(SYM2, SELL, "A:min2 1@1", "A:max2 1000000@1000000");
    }

    @Test
    void aLongClientOrderIdUpToTheMaximumLengthIsKept() {
        String id = "0123456789-0123456789-0123456789-0123456";         // 40 characters
        assertEquals(40, id.length());
        Ord b1 = h.buy(A, id, 1000, 10);
        h.expect(b1.accepted(1, 1));
        h.expectBook(SYM, BUY, "A:" + id + " 10@1000");
    }
}
