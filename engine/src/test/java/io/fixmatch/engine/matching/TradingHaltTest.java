package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;

import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.SYM;
import static io.fixmatch.engine.matching.EngineHarness.SYM2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MATCHING.md "Trading halts": new orders and replaces refused, cancels accepted, resting orders kept. */
class TradingHaltTest {
    private final EngineHarness h = EngineHarness.create();

    @Test
    void aHaltedSymbolRefusesNewOrdersAndReplacesButCancelsWork() {
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1));
        Ord b2 = h.buy(A, "b2", 995, 50);
        h.expect(b2.accepted(2, 2));

        h.send(new Command().haltSymbol(SYM));
        h.expect(); // the operator's command: no event
        assertTrue(h.engine.isHalted(SYM));
        assertTrue(h.engine.view().isHalted(SYM), "published for other threads");
        assertFalse(h.engine.view().isHalted(SYM2));

        Ord s1 = h.sell(B, "s1", 1000, 100); // would trade with b1: refused, nothing trades
        h.expect(s1.rejected(3, RejectReason.SYMBOL_HALTED));
        Req r1 = h.replace(b1, "b1r", 1005, 100);
        h.expect(r1.rejectedLive(RejectReason.SYMBOL_HALTED, b1, 100, 0, 0, OrderStatus.NEW));
        h.expectBook(SYM, BUY, "A:b1 100@1000", "A:b2 50@995");

        Req c2 = h.cancel(b2, "c2");
        h.expect(c2.canceled(4, 0, 0));
        h.expectBook(SYM, BUY, "A:b1 100@1000");

        Ord other = h.order(B, "x1", SYM2, SELL, io.fixmatch.engine.api.OrderType.LIMIT,
            io.fixmatch.engine.api.TimeInForce.DAY, 7, 10);
        h.expect(other.accepted(3, 5)); // another symbol trades on

        h.send(new Command().resumeSymbol(SYM));
        h.expect();
        assertFalse(h.engine.view().isHalted(SYM));
        Ord s2 = h.sell(B, "s2", 1000, 40);
        h.expect(s2.accepted(4, 6),
            s2.fill(7, 40, 1000).state(0, 40, 40_000, OrderStatus.FILLED),
            b1.fill(8, 40, 1000).state(60, 40, 40_000, OrderStatus.PARTIALLY_FILLED));
    }

    @Test
    void haltingTwiceOrAnUnknownSymbolChangesNothing() {
        h.send(new Command().haltSymbol(SYM));
        h.send(new Command().haltSymbol(SYM));
        h.expect();
        h.send(new Command().haltSymbol(99));
        h.expect();
        h.send(new Command().resumeSymbol(SYM2));
        h.expect();
        assertTrue(h.engine.isHalted(SYM));
        assertFalse(h.engine.isHalted(SYM2));
        assertFalse(h.engine.isHalted(99));
        h.send(new Command().resumeSymbol(SYM));
        assertFalse(h.engine.isHalted(SYM));
    }

    @Test
    void aRefusedHaltTellsNoSessionAndChangesNothing() {
        Command halt = new Command().haltSymbol(SYM);
        h.engine.refuse(halt, RejectReason.JOURNAL_UNAVAILABLE);
        assertFalse(h.engine.isHalted(SYM));
        Ord b1 = h.buy(A, "b1", 1000, 100);
        h.expect(b1.accepted(1, 1)); // exec id 1: the refusal consumed none and published nothing
    }

    @Test
    void aBookQueryIsAnsweredWithTheTopLevelsAndEveryBooksSummary() {
        h.buy(A, "b1", 1000, 100);
        h.buy(B, "b2", 1000, 30);
        h.buy(A, "b3", 990, 20);
        h.sell(B, "s1", 1010, 70);
        h.order(B, "x1", SYM2, SELL, io.fixmatch.engine.api.OrderType.LIMIT, io.fixmatch.engine.api.TimeInForce.DAY,
            7, 10);
        String before = String.join("\n", h.snapshot());

        h.send(new Command().bookQuery(SYM, 42));
        h.expect();
        assertEquals(before, String.join("\n", h.snapshot()), "a query changes nothing");
        assertEquals(null, h.engine.view().answer(41), "another request's answer is not this one");
        BookQueryAnswer answer = h.engine.view().answer(42);
        assertEquals(42, answer.requestId());
        assertEquals(SYM, answer.symbolId());
        assertEquals(5, answer.liveOrders());
        assertEquals(2, answer.levelCount(Side.BUY));
        assertEquals(2, answer.shownLevels(Side.BUY));
        assertEquals(1000, answer.price(Side.BUY, 0));
        assertEquals(130, answer.quantity(Side.BUY, 0));
        assertEquals(2, answer.orders(Side.BUY, 0));
        assertEquals(990, answer.price(Side.BUY, 1));
        assertEquals(20, answer.quantity(Side.BUY, 1));
        assertEquals(1, answer.shownLevels(Side.SELL));
        assertEquals(1010, answer.price(Side.SELL, 0));
        assertEquals(70, answer.quantity(Side.SELL, 0));
        // The summary of every book.
        assertEquals(2, answer.levelCountOf(SYM, Side.BUY));
        assertEquals(1000, answer.bestPriceOf(SYM, Side.BUY));
        assertEquals(130, answer.bestQuantityOf(SYM, Side.BUY));
        assertEquals(0, answer.levelCountOf(SYM2, Side.BUY));
        assertEquals(1, answer.levelCountOf(SYM2, Side.SELL));
        assertEquals(7, answer.bestPriceOf(SYM2, Side.SELL));
        assertEquals(10, answer.bestQuantityOf(SYM2, Side.SELL));
    }

    @Test
    void anAnswerShowsAtMostTheMaximumLevels() {
        for (int i = 0; i < EngineView.MAX_LEVELS + 5; i++) {
            h.buy(A, "b" + i, 1000 - 5L * i, 10);
        }
        h.send(new Command().bookQuery(SYM, 1));
        BookQueryAnswer answer = h.engine.view().answer(1);
        assertEquals(EngineView.MAX_LEVELS + 5, answer.levelCount(Side.BUY));
        assertEquals(EngineView.MAX_LEVELS, answer.shownLevels(Side.BUY));
        assertEquals(1000 - 5L * (EngineView.MAX_LEVELS - 1), answer.price(Side.BUY, EngineView.MAX_LEVELS - 1));
    }
}
