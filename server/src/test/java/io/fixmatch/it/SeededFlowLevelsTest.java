package io.fixmatch.it;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.MarketDataSink;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.loadgen.flow.LevelKey;
import io.fixmatch.loadgen.flow.OrderFlow;
import io.fixmatch.loadgen.flow.RequestKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The loadgen's feed probe rests on the seeded flow knowing which price levels each request changes
 * ({@link OrderFlow#changedLevel}): the real engine, fed the flow's requests, changes exactly those levels, each once
 * (the market data the feed numbers), request after request. Otherwise the probe would charge an update to the wrong
 * request.
 */
class SeededFlowLevelsTest {
    @Test
    void theEngineChangesExactlyTheLevelsTheSeededFlowSaysEachRequestChanges() {
        List<SymbolSpec> symbols = List.of(SymbolSpec.of("AAPL", 2, 1, 1), SymbolSpec.of("MSFT", 2, 1, 1));
        MatchingEngine engine = new MatchingEngine(new EngineConfig(symbols, 100_000, 10_000), event -> { });
        List<Long> changed = new ArrayList<>();
        engine.marketData(new MarketDataSink() {
            @Override
            public void levelChanged(int symbolId, Side side, long price, long quantity) {
                long key = LevelKey.of(symbolId, side == Side.BUY, price);
                if (changed.isEmpty() || changed.get(changed.size() - 1) != key) {
                    changed.add(key); // the feed tells a level changed several times in a row by one command once
                }
            }

            @Override
            public void traded(int symbolId, long price, long quantity) {
            }
        });
        OrderFlow flow = new OrderFlow(5, symbols.size(), 10_000);
        Command command = new Command();
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < 200_000 && wrong.size() < 10; i++) {
            RequestKind kind = flow.next();
            Side side = flow.isBuy() ? Side.BUY : Side.SELL;
            String id = "L" + flow.id();
            switch (kind) {
                case NEW_ORDER -> command.newOrder(1, id, flow.symbol(), side, OrderType.LIMIT, TimeInForce.DAY,
                    flow.price(), flow.quantity());
                case AGGRESSIVE -> command.newOrder(1, id, flow.symbol(), side, OrderType.LIMIT, TimeInForce.IOC,
                    flow.price(), flow.quantity());
                case CANCEL -> command.cancel(1, id, "L" + flow.origId(), flow.symbol(), side);
                case REPLACE -> command.replace(1, id, "L" + flow.origId(), flow.symbol(), side, flow.price(),
                    flow.quantity());
            }
            changed.clear();
            engine.process(command);
            List<Long> said = new ArrayList<>();
            for (int level = 0; level < flow.changedLevels(); level++) {
                said.add(flow.changedLevel(level));
            }
            List<Long> sortedChanged = changed.stream().sorted().toList();
            if (!said.stream().sorted().toList().equals(sortedChanged)) {
                wrong.add(i + " " + kind + ": the flow says " + describe(said) + ", the engine changed "
                    + describe(changed));
            }
        }
        assertEquals(List.of(), wrong);
    }

    private static List<String> describe(List<Long> keys) {
        return keys.stream().map(key -> LevelKey.symbol(key) + (LevelKey.isBuy(key) ? " buy " : " sell ")
            + LevelKey.price(key)).toList();
    }
}
