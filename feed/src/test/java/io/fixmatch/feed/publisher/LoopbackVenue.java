package io.fixmatch.feed.publisher;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.EnginePersistence;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.feed.codec.BookSide;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The real matching step (no journal) on its own thread with the feed's publisher behind it, the gateways' ring drained
 * and thrown away, and a seeded random order flow: the venue the feed's tests listen to.
 */
final class LoopbackVenue implements AutoCloseable {
    private final List<SymbolSpec> symbols;
    private final MatchingRuntime runtime;
    private final FeedPublisher publisher;
    private final Thread drainer;
    private volatile boolean draining = true;
    private final Command command = new Command();
    private final Random random;
    private int orders;

    LoopbackVenue(FeedSettings settings, List<SymbolSpec> symbols, long seed) {
        this.symbols = symbols;
        this.random = new Random(seed);
        runtime = new MatchingRuntime(new EngineConfig(symbols, 200_000, 20_000), LoopConfig.defaults(),
            EnginePersistence.NONE);
        runtime.publishMarketData(true);
        OutboundEventRing ring = runtime.addMarketDataRing();
        runtime.recover();
        publisher = new FeedPublisher(settings, ring, symbols);
        publisher.seedFrom(runtime.engine());
        runtime.start();
        publisher.start(-1);
        drainer = new Thread(() -> {
            while (draining) {
                if (runtime.outbound().poll(event -> { }, 1000) == 0) {
                    Thread.onSpinWait();
                }
            }
        }, "gateway-drain");
        drainer.setDaemon(true);
        drainer.start();
    }

    MatchingRuntime runtime() {
        return runtime;
    }

    FeedPublisher publisher() {
        return publisher;
    }

    /** A random flow: limit orders around 100.00 (a third of them crossing), some canceled. */
    void flow(int count) {
        for (int i = 0; i < count; i++) {
            int owner = 1 + random.nextInt(2);
            int symbol = random.nextInt(symbols.size());
            if (orders > 10 && random.nextInt(5) == 0) {
                int target = random.nextInt(orders);
                offer(command.cancel(owner, "c" + i + "-" + orders, "o" + target, symbol, Side.BUY));
                continue;
            }
            Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
            long price = 10_000 + (side == Side.BUY ? -1 : 1) * (random.nextInt(20) - 4);
            offer(command.newOrder(owner, "o" + orders++, symbol, side, OrderType.LIMIT, TimeInForce.DAY, price,
                1 + random.nextInt(20)));
        }
    }

    private void offer(Command order) {
        while (!runtime.inbound().offer(order)) {
            Thread.onSpinWait();
        }
    }

    /** Stops the matching step and returns its books as the handler keeps them ("bids [..] asks [..]"). */
    List<String> engineBooks() {
        runtime.close();
        MatchingEngine engine = runtime.engine();
        List<String> books = new ArrayList<>();
        for (int symbol = 0; symbol < symbols.size(); symbol++) {
            BookSide bids = new BookSide(true);
            BookSide asks = new BookSide(false);
            for (Side side : Side.values()) {
                engine.forEachRestingOrder(symbol, side, order -> (order.side() == Side.BUY ? bids : asks)
                    .add(order.price(), order.displayedQuantity()));
            }
            books.add("bids [" + bids + "] asks [" + asks + "]");
        }
        return books;
    }

    @Override
    public void close() throws InterruptedException {
        runtime.close();
        draining = false;
        drainer.join(5000);
        publisher.close();
    }
}
