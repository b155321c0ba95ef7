package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.MatchingEngine;

/**
 * Fills an engine with a resting book of a given number of orders, all owned by {@link Fixture#MAKER}, half bids
 * and half asks (the odd one an ask), each of {@link #ORDER_QUANTITY}.
 *
 * <p>Each side starts {@code bestOffset} ticks from {@link Fixture#CENTER}, one tick per level away from it. The
 * first {@link #TOUCH_LEVELS} levels of a side hold one order each, whatever the book size, so an order that
 * sweeps them does the same work in every book; every deeper level holds up to {@link #ORDERS_PER_DEEP_LEVEL}.
 * A book of 1,000,000 orders thus has 3 + 5,000 levels a side; one of 10 has 3 levels of one order and a fourth
 * of two on each side.
 */
final class BookBuilder {
    static final int TOUCH_LEVELS = 3;
    static final int ORDERS_PER_DEEP_LEVEL = 100;
    static final long ORDER_QUANTITY = 100;

    private BookBuilder() {
    }

    /** The client order id of the {@code index}-th book order of a side: {@code b0, b1, ...} and {@code a0, ...}. */
    static String id(Side side, int index) {
        return (side == Side.BUY ? "b" : "a") + index;
    }

    /** Ticks from the center of the level that holds the {@code index}-th book order of a side. */
    static long offsetOf(int index, long bestOffset) {
        long level = index < TOUCH_LEVELS ? index : TOUCH_LEVELS + (index - TOUCH_LEVELS) / ORDERS_PER_DEEP_LEVEL;
        return bestOffset + level;
    }

    /** Orders of the book on {@code side}: asks take the odd one. */
    static int ordersOn(Side side, int size) {
        return side == Side.SELL ? (size + 1) / 2 : size / 2;
    }

    /** Builds the book into an empty engine; checks that every order was accepted and rests. */
    static void build(MatchingEngine engine, CountingSink sink, int size, long bestOffset) {
        long acceptedBefore = sink.count(EventType.ACCEPTED);
        long eventsBefore = sink.events();
        Command command = new Command();
        StringBuilder id = new StringBuilder();
        for (Side side : new Side[] {Side.BUY, Side.SELL}) {
            int count = ordersOn(side, size);
            for (int i = 0; i < count; i++) {
                id.setLength(0);
                id.append(side == Side.BUY ? 'b' : 'a').append(i);
                command.newOrder(Fixture.MAKER, id, Fixture.SYMBOL, side, OrderType.LIMIT, TimeInForce.DAY,
                        Fixture.passivePrice(side, offsetOf(i, bestOffset)), ORDER_QUANTITY)
                    .timestampNanos(Fixture.TIMESTAMP);
                engine.process(command);
            }
        }
        long accepted = sink.count(EventType.ACCEPTED) - acceptedBefore;
        if (accepted != size || sink.events() - eventsBefore != size) {
            throw new IllegalStateException("book of " + size + " built with " + accepted + " accepted orders and "
                + (sink.events() - eventsBefore) + " events: " + sink.describe());
        }
    }
}
