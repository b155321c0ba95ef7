package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.MarketDataSink;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.NEW;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.RejectReason.INVALID_MAX_FLOOR;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.api.TimeInForce.FOK;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.C;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** MATCHING.md "Icebergs (MaxFloor)". Symbol 0: tick 5, lot 10. */
class IcebergTest {
    private final EngineHarness h = EngineHarness.create();
    private final List<String> marketData = new ArrayList<>();

    IcebergTest() {
        h.engine.marketData(new MarketDataSink() {
            @Override
            public void levelChanged(int symbolId, Side side, long price, long quantity) {
                marketData.add(side + " " + price + "=" + quantity);
            }

            @Override
            public void traded(int symbolId, long price, long quantity) {
                marketData.add("trade " + quantity + "@" + price);
            }
        });
    }

    private Ord iceberg(int owner, String id, Side side, long price, long qty, long maxFloor) {
        return h.order(new Command().newOrder(owner, id, SYM, side, OrderType.LIMIT, TimeInForce.GTC, price, qty)
            .maxFloor(maxFloor));
    }

    @Test
    void onlyTheDisplayedPartShowsInMarketData() {
        Ord ice = iceberg(A, "ice", SELL, 1000, 100, 30);
        h.expect(ice.accepted(1, 1));
        assertEquals(List.of("SELL 1000=30"), marketData);
        assertEquals(List.of("A:ice 30/100@1000"), h.displayedBook(SYM, SELL));
    }

    @Test
    void eachRefillGoesToTheBackAndTheHiddenPartTradesOnlyAfterTheDisplayedInterest() {
        Ord ice = iceberg(A, "ice", SELL, 1000, 100, 30).id(1);
        Ord plain = h.sell(B, "plain", 1000, 20).id(2);
        marketData.clear();
        Ord buy = h.buy(C, "buy", 1000, 60); // 30 of the iceberg's display, the plain 20, then 10 of the refill
        h.expect(
            buy.accepted(3, 3),
            buy.fill(4, 30, 1000).state(30, 30, 30_000, PARTIALLY_FILLED),
            ice.fill(5, 30, 1000).state(70, 30, 30_000, PARTIALLY_FILLED),
            buy.fill(6, 20, 1000).state(10, 50, 50_000, PARTIALLY_FILLED),
            plain.fill(7, 20, 1000).state(0, 20, 20_000, FILLED),
            buy.fill(8, 10, 1000).state(0, 60, 60_000, FILLED),
            ice.fill(9, 10, 1000).state(60, 40, 40_000, PARTIALLY_FILLED));
        assertEquals(List.of("A:ice 20/60@1000"), h.displayedBook(SYM, SELL));
        assertEquals(List.of("trade 30@1000", "SELL 1000=50", "trade 20@1000", "SELL 1000=30", "trade 10@1000",
            "SELL 1000=20"), marketData);

        Ord later = h.sell(B, "later", 1000, 10).id(4);
        h.expect(later.accepted(4, 10));
        Ord take = h.buy(C, "take", 1000, 30); // the iceberg's 20 shown first, then the later order, not the hidden
        h.expect(
            take.accepted(5, 11),
            take.fill(12, 20, 1000).state(10, 20, 20_000, PARTIALLY_FILLED),
            ice.fill(13, 20, 1000).state(40, 60, 60_000, PARTIALLY_FILLED),
            take.fill(14, 10, 1000).state(0, 30, 30_000, FILLED),
            later.fill(15, 10, 1000).state(0, 10, 10_000, FILLED));
        assertEquals(List.of("A:ice 30/40@1000"), h.displayedBook(SYM, SELL));
    }

    /**
     * A refill loses its place to an order resting behind the iceberg at its price: the next aggressor trades that
     * order first, not the refilled part (the case above ends with the iceberg alone at its level, where keeping the
     * place and losing it look the same).
     */
    @Test
    void aRefillGoesBehindAnOrderThatRestedBehindTheIceberg() {
        Ord ice = iceberg(A, "ice", SELL, 1000, 100, 30).id(1);
        Ord plain = h.sell(B, "plain", 1000, 20).id(2);
        Ord first = h.buy(C, "first", 1000, 30); // exactly the iceberg's display: it refills
        h.expect(
            first.accepted(3, 3),
            first.fill(4, 30, 1000).state(0, 30, 30_000, FILLED),
            ice.fill(5, 30, 1000).state(70, 30, 30_000, PARTIALLY_FILLED));
        assertEquals(List.of("B:plain 20/20@1000", "A:ice 30/70@1000"), h.displayedBook(SYM, SELL));
        Ord second = h.buy(C, "second", 1000, 20);
        h.expect(
            second.accepted(4, 6),
            second.fill(7, 20, 1000).state(0, 20, 20_000, FILLED),
            plain.fill(8, 20, 1000).state(0, 20, 20_000, FILLED));
        assertEquals(List.of("A:ice 30/70@1000"), h.displayedBook(SYM, SELL));
    }

    @Test
    void aFokCountsTheHiddenPartAndAnIcebergAggressorTradesItsWholeQuantity() {
        Ord ice = iceberg(A, "ice", SELL, 1000, 100, 10).id(1);
        Ord fok = h.limit(B, "fok", BUY, FOK, 1000, 100);
        h.expect(
            fok.accepted(2, 2),
            fok.fill(3, 10, 1000).state(90, 10, 10_000, PARTIALLY_FILLED),
            ice.fill(4, 10, 1000).state(90, 10, 10_000, PARTIALLY_FILLED),
            fok.fill(5, 10, 1000).state(80, 20, 20_000, PARTIALLY_FILLED),
            ice.fill(6, 10, 1000).state(80, 20, 20_000, PARTIALLY_FILLED),
            fok.fill(7, 10, 1000).state(70, 30, 30_000, PARTIALLY_FILLED),
            ice.fill(8, 10, 1000).state(70, 30, 30_000, PARTIALLY_FILLED),
            fok.fill(9, 10, 1000).state(60, 40, 40_000, PARTIALLY_FILLED),
            ice.fill(10, 10, 1000).state(60, 40, 40_000, PARTIALLY_FILLED),
            fok.fill(11, 10, 1000).state(50, 50, 50_000, PARTIALLY_FILLED),
            ice.fill(12, 10, 1000).state(50, 50, 50_000, PARTIALLY_FILLED),
            fok.fill(13, 10, 1000).state(40, 60, 60_000, PARTIALLY_FILLED),
            ice.fill(14, 10, 1000).state(40, 60, 60_000, PARTIALLY_FILLED),
            fok.fill(15, 10, 1000).state(30, 70, 70_000, PARTIALLY_FILLED),
            ice.fill(16, 10, 1000).state(30, 70, 70_000, PARTIALLY_FILLED),
            fok.fill(17, 10, 1000).state(20, 80, 80_000, PARTIALLY_FILLED),
            ice.fill(18, 10, 1000).state(20, 80, 80_000, PARTIALLY_FILLED),
            fok.fill(19, 10, 1000).state(10, 90, 90_000, PARTIALLY_FILLED),
            ice.fill(20, 10, 1000).state(10, 90, 90_000, PARTIALLY_FILLED),
            fok.fill(21, 10, 1000).state(0, 100, 100_000, FILLED),
            ice.fill(22, 10, 1000).state(0, 100, 100_000, FILLED));

        Ord bid = h.buy(C, "bid", 995, 50).id(3);
        Ord seller = h.order(new Command().newOrder(A, "ice2", SYM, SELL, OrderType.LIMIT, TimeInForce.DAY, 995, 80)
            .maxFloor(20));
        h.expect(
            seller.accepted(4, 24),
            seller.fill(25, 50, 995).state(30, 50, 49_750, PARTIALLY_FILLED),
            bid.fill(26, 50, 995).state(0, 50, 49_750, FILLED));
        assertEquals(List.of("A:ice2 20/30@995"), h.displayedBook(SYM, SELL));
    }

    @Test
    void aReplaceThatKeepsItsPlaceShowsNoMoreThanItsLeavesAndOneThatLosesItShowsItsFloor() {
        Ord ice = iceberg(A, "ice", SELL, 1000, 100, 30).id(1);
        Req smaller = h.replace(ice, "ice2", 1000, 20);
        h.expect(smaller.replaced(2).state(20, 0, 0, NEW));
        assertEquals(List.of("A:ice2 20/20@1000"), h.displayedBook(SYM, SELL));
        Req moved = h.replace(smaller.replacement(), "ice3", 1005, 90);
        h.expect(moved.replaced(3).state(90, 0, 0, NEW));
        assertEquals(List.of("A:ice3 30/90@1005"), h.displayedBook(SYM, SELL));
    }

    @Test
    void aMaxFloorAboveTheQuantityOffTheLotOrOnAnOrderThatCannotRestIsRejected() {
        Ord above = iceberg(A, "above", SELL, 1000, 100, 110);
        h.expect(above.rejected(1, INVALID_MAX_FLOOR));
        Ord offLot = iceberg(A, "offLot", SELL, 1000, 100, 15);
        h.expect(offLot.rejected(2, INVALID_MAX_FLOOR));
        Ord ioc = h.order(new Command().newOrder(A, "ioc", SYM, SELL, OrderType.LIMIT, TimeInForce.IOC, 1000, 100)
            .maxFloor(10));
        h.expect(ioc.rejected(3, INVALID_MAX_FLOOR));
        Ord market = h.order(new Command().newOrder(A, "mkt", SYM, SELL, OrderType.MARKET, TimeInForce.DAY, 0, 100)
            .maxFloor(10));
        h.expect(market.rejected(4, INVALID_MAX_FLOOR));
    }
}
