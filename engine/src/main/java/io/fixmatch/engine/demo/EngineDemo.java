package io.fixmatch.engine.demo;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.MatchingEngine;

import java.math.BigDecimal;
import java.util.List;

/** Feeds a handful of orders to an engine and prints what happens: a quick look at the engine working. */
public final class EngineDemo {
    private static final int PRICE_SCALE = 2;

    private EngineDemo() {
    }

    public static void main(String[] args) {
        List<SymbolSpec> symbols = List.of(
            SymbolSpec.of("AAPL", PRICE_SCALE, 1, 1),
            SymbolSpec.of("MSFT", PRICE_SCALE, 1, 1),
            SymbolSpec.of("GOOG", PRICE_SCALE, 1, 1));
        MatchingEngine engine = new MatchingEngine(new EngineConfig(symbols, 1_000, 1_000),
            event -> System.out.println(describe(event, symbols)));
        Command command = new Command();
        int alice = 1;
        int bob = 2;
        int aapl = 0;

        System.out.println("-- Alice rests two asks, Bob rests a bid");
        engine.process(command.newOrder(alice, "A1", aapl, Side.SELL, OrderType.LIMIT, TimeInForce.DAY, 15_010, 100));
        engine.process(command.newOrder(alice, "A2", aapl, Side.SELL, OrderType.LIMIT, TimeInForce.DAY, 15_020, 200));
        engine.process(command.newOrder(bob, "B1", aapl, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 15_000, 50));
        System.out.println("-- Bob buys 150 up to 150.20: sweeps 150.10, then part of 150.20");
        engine.process(command.newOrder(bob, "B2", aapl, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 15_020, 150));
        System.out.println("-- Alice cuts her remaining ask to 120 (keeps priority), then cancels it");
        engine.process(command.replace(alice, "A3", "A2", aapl, Side.SELL, 15_020, 120));
        engine.process(command.cancel(alice, "A4", "A3", aapl, Side.SELL));
        System.out.println("-- Alice sells 80 at market into Bob's bid; a cancel of a filled order is rejected");
        engine.process(command.newOrder(alice, "A5", aapl, Side.SELL, OrderType.MARKET, TimeInForce.IOC, 0, 80));
        engine.process(command.cancel(bob, "B3", "B1", aapl, Side.BUY));
        System.out.println("-- An order for zero shares is rejected");
        engine.process(command.newOrder(bob, "B4", aapl, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 15_000, 0));
    }

    private static String describe(ExecutionEvent e, List<SymbolSpec> symbols) {
        String symbol = e.symbolId() < symbols.size() ? symbols.get(e.symbolId()).name() : "#" + e.symbolId();
        String head = String.format("%-16s %-4s %-4s clOrdId=%-3s orderId=%d", e.type(), symbol, e.side(),
            e.clientOrderId(), e.orderId());
        if (e.type() == EventType.FILL) {
            return head + "  traded " + e.lastQuantity() + " @ " + decimal(e.lastPrice())
                + "  leaves=" + e.leavesQuantity() + " cum=" + e.cumQuantity() + " " + e.status();
        }
        if (e.type() == EventType.REJECTED || e.type() == EventType.CANCEL_REJECTED
            || e.type() == EventType.REPLACE_REJECTED) {
            return head + "  reason: " + e.rejectReason().text();
        }
        return head + "  " + e.orderQuantity() + " @ " + decimal(e.price()) + "  leaves=" + e.leavesQuantity()
            + " cum=" + e.cumQuantity() + " " + e.status();
    }

    private static String decimal(long priceUnits) {
        return BigDecimal.valueOf(priceUnits, PRICE_SCALE).toPlainString();
    }
}
