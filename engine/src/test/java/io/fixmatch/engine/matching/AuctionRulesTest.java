package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.api.TradingPhase;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fixmatch.engine.api.OrderStatus.FILLED;
import static io.fixmatch.engine.api.OrderStatus.PARTIALLY_FILLED;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.SYM2;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MATCHING.md "Trading phases and auctions", its worked examples included. Symbol 1 (tick 1, lot 1), schedule 08:00
 * opening call, 08:30 opening uncross, 16:00 closing call, 16:30 closing uncross, UTC; the journal times are those of
 * 1970-01-01 (day 0) and 1970-01-02.
 */
class AuctionRulesTest {
    private static final long MINUTE = 60_000_000_000L;
    private static final long HOUR = 60 * MINUTE;
    private final EngineHarness h = EngineHarness.create();

    private void schedule(long at) {
        h.at(at).send(new Command().setSymbolControl(SYM2, SymbolControl.OPENING_CALL, 8 * 3_600_000L));
        h.send(new Command().setSymbolControl(SYM2, SymbolControl.OPENING_UNCROSS, 8 * 3_600_000L + 1_800_000));
        h.send(new Command().setSymbolControl(SYM2, SymbolControl.CLOSING_CALL, 16 * 3_600_000L));
        h.send(new Command().setSymbolControl(SYM2, SymbolControl.CLOSING_UNCROSS, 16 * 3_600_000L + 1_800_000));
    }

    private Ord limit(int owner, String id, Side side, TimeInForce tif, long price, long qty) {
        return h.order(owner, id, SYM2, side, OrderType.LIMIT, tif, price, qty);
    }

    @Test
    void maximumVolumeThenNearestReferenceTheUncrossAndWhatComesAfter() {
        h.at(1).send(new Command().setReferencePrice(SYM2, 100));
        schedule(8 * HOUR + 5 * MINUTE);
        assertEquals(TradingPhase.OPENING_CALL, h.engine.phase(SYM2));
        Ord b1 = limit(A, "b1", BUY, TimeInForce.DAY, 102, 100).id(1);
        Ord b2 = limit(A, "b2", BUY, TimeInForce.DAY, 100, 100).id(2);
        Ord s1 = limit(B, "s1", SELL, TimeInForce.GTC, 99, 150).id(3);
        limit(B, "s2", SELL, TimeInForce.DAY, 101, 100);
        Ord mkt = h.order(B, "m", SYM2, SELL, OrderType.MARKET, TimeInForce.DAY, 0, 0 + 30).id(5);
        Ord opg = limit(A, "opg", BUY, TimeInForce.AT_THE_OPENING, 90, 10).id(6);
        // Volume at 99: buys 200, sells 150 + 30 market; at 100 the same; at 101 and 102 buys 100. The most volume
        // (180) at 99 and 100, imbalance 20 both: the nearer the reference (100) wins.
        assertArrayEquals(new long[] {100, 180}, h.engine.indicative(SYM2));
        assertEquals(List.of(), h.lastEvents().subList(1, h.lastEvents().size()), "nothing trades in a call");

        h.at(8 * HOUR + 31 * MINUTE).timer(); // past the uncross
        h.expect(
            b1.fill(7, 30, 100).state(70, 30, 3_000, PARTIALLY_FILLED),
            mkt.fill(8, 30, 100).state(0, 30, 3_000, FILLED),
            b1.fill(9, 70, 100).state(0, 100, 10_000, FILLED),
            s1.fill(10, 70, 100).state(80, 70, 7_000, PARTIALLY_FILLED),
            b2.fill(11, 80, 100).state(20, 80, 8_000, PARTIALLY_FILLED),
            s1.fill(12, 80, 100).state(0, 150, 15_000, FILLED),
            opg.canceledBy(13, 0, 0, RejectReason.AUCTION_ENDED));
        assertEquals(TradingPhase.CONTINUOUS, h.engine.phase(SYM2));
        h.expectBook(SYM2, BUY, "A:b2 20@100");
        h.expectBook(SYM2, SELL, "B:s2 100@101");
        assertEquals(100, h.engine.lastTradePrice(SYM2));
    }

    @Test
    void leastImbalanceThenNearestReferenceThenTheLowerPrice() {
        schedule(8 * HOUR + 5 * MINUTE);
        limit(A, "b", BUY, TimeInForce.DAY, 101, 100);
        limit(B, "s1", SELL, TimeInForce.DAY, 99, 100);
        limit(B, "s2", SELL, TimeInForce.DAY, 100, 50);
        // 100 at 99, 100 and 101; the imbalance 0 at 99, 50 at 100 and 101.
        assertArrayEquals(new long[] {99, 100}, h.engine.indicative(SYM2));

        EngineHarness other = EngineHarness.create();
        other.at(8 * HOUR + 5 * MINUTE);
        other.send(new Command().setReferencePrice(SYM2, 102));
        for (SymbolControl control : new SymbolControl[] {SymbolControl.OPENING_CALL, SymbolControl.OPENING_UNCROSS,
            SymbolControl.CLOSING_CALL, SymbolControl.CLOSING_UNCROSS}) {
            long[] times = {8 * 3_600_000L, 8 * 3_600_000L + 1_800_000, 16 * 3_600_000L, 16 * 3_600_000L + 1_800_000};
            other.send(new Command().setSymbolControl(SYM2, control, times[control.code() - 1]));
        }
        other.order(A, "b", SYM2, BUY, OrderType.LIMIT, TimeInForce.DAY, 105, 100);
        other.order(B, "s", SYM2, SELL, OrderType.LIMIT, TimeInForce.DAY, 95, 100);
        // Every price from 95 to 105 executes 100 with no imbalance: the reference, 102, between the limit prices.
        assertArrayEquals(new long[] {102, 100}, other.engine.indicative(SYM2));
        other.send(new Command().setReferencePrice(SYM2, 0));
        assertArrayEquals(new long[] {95, 100}, other.engine.indicative(SYM2), "no reference: the lowest");
    }

    @Test
    void afterTheCloseNothingIsTakenAtTheCloseOrdersWaitForTheClosingCallAndDayOrdersExpireThere() {
        schedule(9 * HOUR);
        assertEquals(TradingPhase.CONTINUOUS, h.engine.phase(SYM2));
        Ord ioc = limit(A, "ioc", BUY, TimeInForce.AT_THE_OPENING, 100, 10);
        h.expect(ioc.rejected(1, RejectReason.AUCTION_TIF_NOT_NOW));
        Ord moc = h.order(A, "moc", SYM2, BUY, OrderType.MARKET, TimeInForce.AT_THE_CLOSE, 0, 40).id(1);
        Ord day = limit(B, "day", SELL, TimeInForce.DAY, 100, 30).id(2);
        Ord gtc = limit(B, "gtc", SELL, TimeInForce.GTC, 101, 30).id(3);
        h.expectBook(SYM2, BUY); // the market At the Close order waits out of the book

        h.at(16 * HOUR + MINUTE).timer(); // the closing call takes it in
        assertEquals(TradingPhase.CLOSING_CALL, h.engine.phase(SYM2));
        assertArrayEquals(new long[] {101, 40}, h.engine.indicative(SYM2));
        Ord refused = limit(A, "x", BUY, TimeInForce.IOC, 100, 10);
        h.expect(refused.rejected(5, RejectReason.NOT_DURING_CALL));

        h.at(16 * HOUR + 31 * MINUTE).timer();
        assertEquals(TradingPhase.CLOSED, h.engine.phase(SYM2));
        h.expect(
            moc.fill(6, 30, 101).state(10, 30, 3_030, PARTIALLY_FILLED),
            day.fill(7, 30, 101).state(0, 30, 3_030, FILLED),
            moc.fill(8, 10, 101).state(0, 40, 4_040, FILLED),
            gtc.fill(9, 10, 101).state(20, 10, 1_010, PARTIALLY_FILLED));
        Ord late = limit(A, "late", BUY, TimeInForce.DAY, 100, 10);
        h.expect(late.rejected(10, RejectReason.MARKET_CLOSED));
        h.expectBook(SYM2, SELL, "B:gtc 20@101"); // GTC stays for the next day
        h.at(24 * HOUR + 8 * HOUR + MINUTE).timer();
        assertEquals(TradingPhase.OPENING_CALL, h.engine.phase(SYM2));
    }

    @Test
    void anAggressorReachingTheBandStopsThereAndTheInterruptionUncrossesAtItsEnd() {
        h.at(1).send(new Command().setSymbolControl(SYM2, SymbolControl.VOLATILITY_BAND_BASIS_POINTS, 200));
        h.send(new Command().setSymbolControl(SYM2, SymbolControl.INTERRUPTION_MILLIS, 1));
        limit(B, "s0", SELL, TimeInForce.DAY, 100, 10);
        limit(A, "b0", BUY, TimeInForce.DAY, 100, 10); // last price 100: the band is 98..102
        Ord s1 = limit(B, "s1", SELL, TimeInForce.DAY, 101, 10).id(3);
        Ord s2 = limit(B, "s2", SELL, TimeInForce.DAY, 105, 10).id(4);
        h.at(1_000);
        Ord sweep = limit(A, "sweep", BUY, TimeInForce.DAY, 105, 20).id(5);
        h.expect(
            sweep.accepted(5, 7),
            sweep.fill(8, 10, 101).state(10, 10, 1_010, PARTIALLY_FILLED),
            s1.fill(9, 10, 101).state(0, 10, 1_010, FILLED));
        assertEquals(TradingPhase.VOLATILITY_CALL, h.engine.phase(SYM2));
        assertArrayEquals(new long[] {105, 10}, h.engine.indicative(SYM2), "the rest rests crossing, at 105");
        Ord ioc = limit(B, "ioc", SELL, TimeInForce.IOC, 100, 10);
        h.expect(ioc.rejected(10, RejectReason.NOT_DURING_CALL));

        h.at(1_000 + 1_000_000).timer(); // the interruption's end
        h.expect(
            sweep.fill(11, 10, 105).state(0, 20, 2_060, FILLED),
            s2.fill(12, 10, 105).state(0, 10, 1_050, FILLED));
        assertEquals(TradingPhase.CONTINUOUS, h.engine.phase(SYM2));
    }

    @Test
    void aHaltEndsWithAReopeningAuction() {
        h.at(1).send(new Command().setSymbolControl(SYM2, SymbolControl.INTERRUPTION_MILLIS, 5));
        h.send(new Command().haltSymbol(SYM2));
        h.send(new Command().resumeSymbol(SYM2));
        assertEquals(TradingPhase.VOLATILITY_CALL, h.engine.phase(SYM2));
        limit(A, "b", BUY, TimeInForce.DAY, 102, 10);
        limit(B, "s", SELL, TimeInForce.DAY, 100, 10);
        assertTrue(h.lastEvents().get(0).startsWith("ACCEPTED"));
        assertArrayEquals(new long[] {100, 10}, h.engine.indicative(SYM2));
        h.at(10_000_000).timer();
        assertEquals(2, h.lastEvents().size());
        assertTrue(h.lastEvents().get(0).contains("lastPx=100") && h.lastEvents().get(0).contains("status="
            + OrderStatus.FILLED), h.lastEvents().toString());
        assertEquals(TradingPhase.CONTINUOUS, h.engine.phase(SYM2));
    }
}
