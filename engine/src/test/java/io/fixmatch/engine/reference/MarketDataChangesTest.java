package io.fixmatch.engine.reference;

import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.MarketDataSink;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.engine.reference.CommandGenerator.Step;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The engine's market data ({@link MarketDataSink}) is exact: a book of levels rebuilt from nothing but the level
 * changes equals the reference engine's displayed book (icebergs showing only their displayed part, waiting stops not
 * at all) after every command of a long generated flow (every order type, replaces, cancels, cancel-all, halts), and
 * the trades reported add up to the quantity the FILL events traded, at their prices.
 */
class MarketDataChangesTest {
    private static final int STEPS = 30_000;

    /** What a market-data client keeps: per symbol and side, price -> total quantity. */
    private final List<Map<Long, Long>> levels = new ArrayList<>();
    private long tradedQuantity;
    private long tradedNotional;
    private long filledQuantity;
    private long filledNotional;

    @Test
    void levelChangesRebuildTheAggregatedBookAfterEveryCommand() {
        for (int i = 0; i < CommandGenerator.SYMBOLS.size() * 2; i++) {
            levels.add(new TreeMap<>());
        }
        MatchingEngine engine = new MatchingEngine(new EngineConfig(CommandGenerator.SYMBOLS, 4096, 4096), e -> {
            if (e.type() == EventType.FILL) { // two per trade: count the quantity once
                filledQuantity += e.lastQuantity();
                filledNotional += e.lastQuantity() * e.lastPrice();
            }
        });
        engine.marketData(new MarketDataSink() {
            @Override
            public void levelChanged(int symbolId, Side side, long price, long quantity) {
                Map<Long, Long> book = levels.get(symbolId * 2 + side.ordinal());
                if (quantity == 0) {
                    if (book.remove(price) == null) {
                        fail("a level that was not there left: " + symbolId + " " + side + " " + price);
                    }
                } else {
                    book.put(price, quantity);
                }
            }

            @Override
            public void traded(int symbolId, long price, long quantity) {
                tradedQuantity += quantity;
                tradedNotional += quantity * price;
            }
        });
        ReferenceEngine reference = new ReferenceEngine(CommandGenerator.SYMBOLS);
        CommandGenerator generator = new CommandGenerator(17, reference);
        for (int i = 0; i < STEPS; i++) {
            Step step = generator.next();
            if (step.refusal() == null) {
                reference.process(step.command());
                engine.process(step.command());
            } else {
                reference.refuse(step.command(), step.refusal());
                engine.refuse(step.command(), step.refusal());
            }
            for (int symbol = 0; symbol < CommandGenerator.SYMBOLS.size(); symbol++) {
                for (Side side : Side.values()) {
                    assertEquals(displayedLevels(reference, symbol, side), levels.get(symbol * 2 + side.ordinal()),
                        "levels of symbol " + symbol + " " + side + " after step " + i + ": " + step);
                }
            }
            assertEquals(filledQuantity / 2, tradedQuantity, "traded quantity after step " + i);
            assertEquals(filledNotional / 2, tradedNotional, "traded notional after step " + i);
        }
    }

    /** The reference's book as market data shows it: per price, the displayed quantities (icebergs show a part). */
    private static Map<Long, Long> displayedLevels(ReferenceEngine reference, int symbolId, Side side) {
        Map<Long, Long> book = new TreeMap<>();
        for (ReferenceEngine.RefOrder order : reference.restingView(symbolId, side)) {
            book.merge(order.price, order.shown, Long::sum);
        }
        return book;
    }
}
