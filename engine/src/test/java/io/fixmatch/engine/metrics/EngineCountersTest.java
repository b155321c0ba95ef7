package io.fixmatch.engine.metrics;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.MatchingEngine;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The counts follow the events of a real engine: accepted, rejected by reason, canceled, replaced, trades. */
class EngineCountersTest {
    private final EngineCounters counters = new EngineCounters(2);
    private final MatchingEngine engine = new MatchingEngine(new EngineConfig(List.of(
        new SymbolSpec("AAA", 2, 1, 1, 1_000_000, 1_000_000), new SymbolSpec("BBB", 2, 1, 1, 1_000_000, 1_000_000)),
        100, 100), counters::onEvent);
    private final Command command = new Command();

    @Test
    void countsWhatTheEngineReports() {
        order(1, "b1", 0, Side.BUY, 1000, 100);
        order(1, "b2", 0, Side.BUY, 999, 100);
        order(2, "s1", 0, Side.SELL, 1000, 30);   // one trade of 30
        order(2, "s2", 0, Side.SELL, 999, 80);    // two trades: 70 at 1000, 10 at 999
        order(2, "s3", 1, Side.SELL, 0, 10);      // price not positive
        engine.process(command.cancel(1, "c1", "nope", 0, Side.BUY));
        engine.process(command.replace(1, "b2r", "b2", 0, Side.BUY, 998, 90));
        engine.process(command.cancel(1, "c2", "b2r", 0, Side.BUY));
        engine.process(command.haltSymbol(1));
        order(2, "s4", 1, Side.SELL, 500, 10);
        engine.process(command.replace(1, "x", "nope", 0, Side.BUY, 998, 90));

        assertEquals(4, counters.ordersAccepted());
        assertEquals(1, counters.ordersRejected(RejectReason.PRICE_NOT_POSITIVE));
        assertEquals(1, counters.ordersRejected(RejectReason.SYMBOL_HALTED));
        assertEquals(0, counters.ordersRejected(RejectReason.UNKNOWN_SYMBOL));
        assertEquals(1, counters.cancelsRejected(RejectReason.UNKNOWN_ORDER));
        assertEquals(1, counters.replacesRejected(RejectReason.UNKNOWN_ORDER));
        assertEquals(1, counters.ordersReplaced());
        assertEquals(1, counters.ordersCanceled());
        assertEquals(3, counters.trades(0));
        assertEquals(110, counters.tradedQuantity(0));
        assertEquals(0, counters.trades(1));
    }

    @Test
    void aCounterOutsideTheArrayIsRefused() {
        CounterArray array = new CounterArray(3);
        array.add(2, 5);
        array.increment(2);
        assertEquals(6, array.get(2));
        assertEquals(0, array.get(0));
        assertThrows(IndexOutOfBoundsException.class, () -> array.increment(3));
        assertThrows(IndexOutOfBoundsException.class, () -> array.get(-1));
    }

    private void order(int owner, String id, int symbol, Side side, long price, long quantity) {
        engine.process(command.newOrder(owner, id, symbol, side, OrderType.LIMIT, TimeInForce.DAY, price, quantity));
    }
}
