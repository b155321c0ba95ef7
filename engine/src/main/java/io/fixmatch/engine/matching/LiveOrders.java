package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.MarketDataSink;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;

import java.util.List;

/**
 * The books of all symbols and the bookkeeping of every live order in them: where it is (its price level, a book's
 * queue or its waiting stops), how it is found (the index by owner and client order id, its owner's list, the GTD
 * expiry queue, its owner's open orders), the pools orders and price levels come from, and the market data of each
 * level it changes. Every part of the engine puts orders in and takes them out here, so that bookkeeping is done in
 * one place; what decides when is elsewhere.
 */
final class LiveOrders {
    final OrderBook[] books;
    final ObjectPool<Order> orderPool;
    final ObjectPool<PriceLevel> levelPool;
    final OrderIndex orderIndex;
    final PriceLevelIndex levelIndex;
    final OwnerOrders ownerOrders = new OwnerOrders();
    final ExpiryQueue expiries;
    private final PreTradeRisk risk;
    private final EventPublisher publisher;
    /** Where the books' public changes go (levels, trades, indicative uncrosses); set before the first command. */
    MarketDataSink marketData = MarketDataSink.NONE;

    LiveOrders(EngineConfig config, PreTradeRisk risk, EventPublisher publisher) {
        List<SymbolSpec> symbols = config.symbols();
        books = new OrderBook[symbols.size()];
        for (int i = 0; i < books.length; i++) {
            books[i] = new OrderBook(i, symbols.get(i));
        }
        orderPool = new ObjectPool<>(config.maxOrders(), Order::new);
        levelPool = new ObjectPool<>(config.maxPriceLevels(), PriceLevel::new);
        orderIndex = new OrderIndex(config.maxOrders());
        levelIndex = new PriceLevelIndex(config.maxPriceLevels());
        expiries = new ExpiryQueue(config.maxOrders());
        this.risk = risk;
        this.publisher = publisher;
    }

    OrderBook bookOf(int symbolId) {
        return symbolId >= 0 && symbolId < books.length ? books[symbolId] : null;
    }

    /** Whether an order at {@code price} on {@code side} would need a new level and none is free. */
    boolean noFreeLevel(BookSide side, long price) {
        return levelIndex.find(side, price) == null && levelPool.available() == 0;
    }

    /** Puts the order at the back of the level at its price, creating the level if needed. */
    void rest(Order order) {
        BookSide side = order.book.side(order.side);
        PriceLevel level = levelIndex.find(side, order.price);
        if (level == null) {
            level = levelPool.acquire();
            if (level == null) {
                // The checks before trading guarantee a free level; reaching here is a bug, not a full book.
                throw new IllegalStateException("no free price level for " + order);
            }
            level.init(side, order.price);
            side.insert(level);
            levelIndex.add(level);
        }
        order.shown = order.displayOnRest();
        level.append(order);
        levelChanged(level);
    }

    /** Takes a resting order out of its level (dropping the level if it empties); it stays indexed. */
    void removeFromLevel(Order order) {
        PriceLevel level = order.level;
        level.unlink(order);
        levelChanged(level);
        if (level.isEmpty()) {
            level.side.remove(level);
            levelIndex.remove(level);
            levelPool.release(level);
        }
    }

    /** Market data: the level's displayed quantity now (0 once its last order left; icebergs show their floor). */
    void levelChanged(PriceLevel level) {
        marketData.levelChanged(level.side.symbolId(), level.side.side, level.price,
            level.isEmpty() ? 0 : level.displayedQuantity);
    }

    /**
     * Takes a live order out entirely: its level (or its book's queue, or its waiting stops), the index, its owner's
     * list, the expiry queue.
     */
    void removeLive(Order order) {
        if (order.level != null) {
            removeFromLevel(order);
        } else if (order.queue != null) {
            order.queue.remove(order);
        } else {
            order.book.stops.remove(order);
        }
        untrack(order);
    }

    /** A live order is done, unsolicited, for {@code reason}: CANCELED, out of the books, recycled. */
    void cancelLive(Order order, RejectReason reason) {
        removeLive(order);
        publisher.canceled(order, reason);
        release(order);
    }

    /** A live order's time is up ({@code reason}: the end of its day, its GTD expire time): EXPIRED, recycled. */
    void expireLive(Order order, RejectReason reason) {
        removeLive(order);
        publisher.expired(order, reason);
        release(order);
    }

    /**
     * An order that ends without resting (IOC/FOK/market remainder, a self-trade stop; {@code tracked}: it was live,
     * a stop just triggered): CANCELED, recycled.
     */
    void end(Order order, boolean tracked, RejectReason reason) {
        if (tracked) {
            untrack(order);
        }
        publisher.canceled(order, reason);
        release(order);
    }

    /** A live order becomes findable: by (owner, client order id), in its owner's list, and (GTD) by expiry. */
    void track(Order order) {
        orderIndex.addHashed(order); // (every order tracked here is a new order of this command: newOrder hashed it)
        ownerOrders.add(order);
        risk.orderRested(order.owner);
        if (order.timeInForce == TimeInForce.GTD) {
            expiries.add(order);
        }
    }

    void untrack(Order order) {
        orderIndex.remove(order);
        ownerOrders.remove(order);
        gone(order); // (apart: small methods inline into the matching loop)
    }

    private void gone(Order order) {
        risk.orderGone(order.owner);
        if (order.expiryIndex >= 0) {
            expiries.remove(order);
        }
    }

    void release(Order order) {
        order.clear();
        orderPool.release(order);
    }
}
