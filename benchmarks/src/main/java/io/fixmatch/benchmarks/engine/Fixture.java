package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.MatchingEngine;

import java.util.List;

/**
 * The benchmarks' one engine fixture. For every benchmark (the engine's, the matching loop's, the journal's replay
 * and recovery): the one symbol and an engine of it with a given capacity. For the engine benchmarks: one engine
 * capacity for every book size (as in production, where the capacity is fixed and the book size varies), fixed
 * timestamps, the owners, and the JVM flags of the forked benchmark JVM.
 */
public final class Fixture {
    // JVM flags of every fork (annotation values must be constants). 2 GB holds a 1.1M-order pool with room to spare.
    static final String ANALYTICS_OFF = "-Dchronicle.analytics.disable=true";
    static final String HEAP_MIN = "-Xms2g";
    static final String HEAP_MAX = "-Xmx2g";
    static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";

    /** The id of the one symbol, BENCH: tick 1, lot 1, two decimals (price 1,000,000 is 10,000.00). */
    public static final int SYMBOL = 0;
    public static final List<SymbolSpec> SYMBOLS = List.of(SymbolSpec.of("BENCH", 2, 1, 1));
    /** The middle of every book: bids rest below it, asks above. */
    public static final long CENTER = 1_000_000;
    /** Every command carries this timestamp: the engine copies it onto its events and never reads a clock. */
    static final long TIMESTAMP = 1_700_000_000_000_000_000L;

    /** Room for the largest book (1,000,000 resting orders) plus what a benchmark adds on top. */
    static final int MAX_ORDERS = 1_100_000;
    /** The capacity engines get: {@link #MAX_ORDERS}; the unit tests of the benchmarks lower it to run faster. */
    static int maxOrders = MAX_ORDERS;
    static final int MAX_PRICE_LEVELS = 1 << 16;

    /** Owner of the resting orders a book is built from. */
    static final int MAKER = 1;
    /** Owner of the orders a benchmark sends against the book. */
    static final int TAKER = 2;

    private Fixture() {
    }

    /**
     * Gives {@code count} owners from {@code firstOwner} every pre-trade risk limit, each too wide to refuse an
     * order of the benchmarks' flows (so the events stay the same), and the symbol a reference price: every new
     * order and replace then runs every check.
     */
    static void setWideRiskLimits(MatchingEngine engine, int firstOwner, int count) {
        Command command = new Command();
        for (int owner = firstOwner; owner < firstOwner + count; owner++) {
            engine.process(command.setSessionControl(owner, SessionControl.MAX_ORDER_QUANTITY, 1_000_000_000L));
            engine.process(command.setSessionControl(owner, SessionControl.MAX_NOTIONAL, 1_000_000_000_000L));
            engine.process(command.setSessionControl(owner, SessionControl.MAX_OPEN_ORDERS, 1_000_000_000L));
            engine.process(command.setSessionControl(owner, SessionControl.PRICE_COLLAR_BASIS_POINTS, 5_000));
        }
        engine.process(command.setReferencePrice(SYMBOL, CENTER));
    }

    /** An engine configuration of the benchmark symbol with this capacity. */
    public static EngineConfig config(int maxOrders, int maxPriceLevels) {
        return new EngineConfig(SYMBOLS, maxOrders, maxPriceLevels);
    }

    /** The engine benchmarks' engine: capacity {@link #maxOrders}, {@link #MAX_PRICE_LEVELS}. */
    static MatchingEngine engine(CountingSink sink) {
        return new MatchingEngine(config(maxOrders, MAX_PRICE_LEVELS), sink);
    }

    /** A new DAY limit order, built once and reused. */
    static Command limit(int owner, CharSequence clientOrderId, Side side, long price, long quantity) {
        return new Command()
            .newOrder(owner, clientOrderId, SYMBOL, side, OrderType.LIMIT, TimeInForce.DAY, price, quantity)
            .timestampNanos(TIMESTAMP);
    }

    /** A new limit order with the given time in force, built once and reused. */
    static Command limit(int owner, CharSequence clientOrderId, Side side, TimeInForce tif, long price,
                         long quantity) {
        return new Command()
            .newOrder(owner, clientOrderId, SYMBOL, side, OrderType.LIMIT, tif, price, quantity)
            .timestampNanos(TIMESTAMP);
    }

    static Command cancel(int owner, CharSequence clientOrderId, CharSequence origClientOrderId, Side side) {
        return new Command().cancel(owner, clientOrderId, origClientOrderId, SYMBOL, side).timestampNanos(TIMESTAMP);
    }

    static Command replace(int owner, CharSequence clientOrderId, CharSequence origClientOrderId, Side side,
                           long price, long quantity) {
        return new Command()
            .replace(owner, clientOrderId, origClientOrderId, SYMBOL, side, price, quantity)
            .timestampNanos(TIMESTAMP);
    }

    /**
     * Ends a setup: a full collection now, so that no collection or concurrent marking started by the setup's
     * allocations (a 1,000,000-order book, the engine's pools) runs into the measured iterations.
     */
    static void settle() {
        System.gc();
    }

    /** The price {@code ticks} ticks away from the center on the passive side of {@code side}. */
    static long passivePrice(Side side, long ticks) {
        return side == Side.BUY ? CENTER - ticks : CENTER + ticks;
    }
}
