package io.fixmatch.engine.loop;

import com.sun.management.ThreadMXBean;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The matching step with what the admin endpoint added to it (counters on every event, halts, resumes and book
 * queries answered through the published view), and with every pre-trade risk check, its rejects, self-trade
 * prevention, kill switches and the end of day, and with stop and stop-limit orders triggered, icebergs refilled, GTD
 * orders expired (by TIMER commands and by the commands after their expiry), post-only and MinQty orders, allocates
 * nothing in steady state: offer, match, publish, drain, all on this thread (the one-thread layout), measured with
 * the JVM's per-thread allocation counter.
 */
class MatchingStepAllocationTest {
    private static final EngineConfig ENGINE = new EngineConfig(List.of(SymbolSpec.of("X", 2, 1, 1),
        SymbolSpec.of("Y", 2, 1, 1)), 10_000, 1_000);
    private static final String[] IDS = new String[64];

    static {
        for (int i = 0; i < IDS.length; i++) {
            IDS[i] = "o" + i;
        }
    }

    private final Command command = new Command();
    private final long[] events = new long[EventType.count()];
    private final EventSink sink = event -> events[event.type().ordinal()]++;

    @ParameterizedTest(name = "market data {0}")
    @ValueSource(booleans = {false, true})
    void steadyStateAllocatesNothing(boolean marketData) {
        MatchingRuntime runtime = new MatchingRuntime(ENGINE, LoopConfig.defaults(), EnginePersistence.NONE);
        runtime.publishMarketData(marketData);
        runtime.recover();
        runtime.startInline();
        for (int owner = 1; owner <= 2; owner++) {
            offer(runtime, command.setSessionControl(owner, SessionControl.MAX_ORDER_QUANTITY, 10));
            offer(runtime, command.setSessionControl(owner, SessionControl.MAX_NOTIONAL, 1_000));
            offer(runtime, command.setSessionControl(owner, SessionControl.MAX_OPEN_ORDERS, 6));
            offer(runtime, command.setSessionControl(owner, SessionControl.PRICE_COLLAR_BASIS_POINTS, 100));
            offer(runtime, command.setSessionControl(owner, SessionControl.FIRM, owner));
            offer(runtime, command.setSessionControl(owner, SessionControl.SELF_TRADE_PREVENTION,
                SelfTradePrevention.CANCEL_BOTH.code()));
        }
        offer(runtime, command.setReferencePrice(0, 1_003));
        // Symbol 1 trades in a tight volatility band: interruptions of 1 ms (calls, market orders queued, indicative
        // prices, uncrosses) come and go all through the flow.
        offer(runtime, command.setSymbolControl(1, SymbolControl.VOLATILITY_BAND_BASIS_POINTS, 30));
        offer(runtime, command.setSymbolControl(1, SymbolControl.INTERRUPTION_MILLIS, 1));
        run(runtime, 50_000); // warm up: the JIT's own allocations happen here
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        run(runtime, 200_000);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 10_000, allocated + " bytes allocated by 200,000 steps");
        assertTrue(runtime.counters().trades(0) > 1_000, "the flow trades");
        for (RejectReason reason : new RejectReason[] {RejectReason.RISK_ORDER_QUANTITY,
            RejectReason.RISK_PRICE_COLLAR, RejectReason.RISK_OPEN_ORDERS, RejectReason.KILL_SWITCH_ENGAGED}) {
            assertTrue(runtime.counters().ordersRejected(reason) > 100, "the flow is refused for " + reason);
        }
        assertTrue(runtime.counters().ordersCanceled(RejectReason.SELF_TRADE_RESTING) > 100, "self-trades prevented");
        assertTrue(runtime.counters().ordersExpired() > 100, "day orders expire");
        assertTrue(events[EventType.TRIGGERED.ordinal()] > 100, "stops trigger");
        assertTrue(runtime.counters().ordersCanceled(RejectReason.VOLATILITY_INTERRUPTION)
            + runtime.counters().ordersRejected(RejectReason.NOT_DURING_CALL) > 100, "volatility interruptions");
        // How many MinQty orders find too little depends on the wall clock, which stamps the commands (symbol 1's
        // 1 ms interruptions, the GTD expiries, and through the sellers' open-orders limit the liquidity on symbol 0):
        // 57 to 2,252 in eight runs, so "> 100" failed now and then. The path only has to be taken.
        assertTrue(runtime.counters().ordersCanceled(RejectReason.MIN_QUANTITY_NOT_AVAILABLE) > 10,
            "MinQty orders find too little");
        assertTrue(runtime.counters().ordersRejected(RejectReason.POST_ONLY_WOULD_TAKE) > 100, "post-only refused");
        assertEquals(0, runtime.inbound().size());
        runtime.close();
    }

    private void offer(MatchingRuntime runtime, Command settings) {
        runtime.inbound().offer(settings);
        runtime.doWork();
    }

    /**
     * Orders that rest and trade (owner 1 buys, owner 2 sells), cancels, and now and then a halt, a resume, a book
     * query, an order over a limit or outside the collar, owner 2 crossing its own orders, owner 2's kill switch
     * engaged (the next tenth of the flow refused) and released, the end of the day.
     */
    private void run(MatchingRuntime runtime, int steps) {
        for (int i = 0; i < steps; i++) {
            int slot = i % IDS.length;
            switch (i % 100) {
                case 17 -> command.haltSymbol(1);
                case 53 -> command.resumeSymbol(1);
                case 71 -> command.bookQuery(0, i);
                case 23 -> command.newOrder(1, IDS[slot], 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 1_000, 20);
                case 29 -> command.newOrder(1, IDS[slot], 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 1_100, 10);
                case 31 -> command.newOrder(2, IDS[slot], 0, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, 1_010, 10);
                case 41 -> command.killSwitch(2);
                case 51 -> command.releaseKillSwitch(2);
                case 97 -> command.expireDayOrders();
                case 61 -> command.newOrder(3, IDS[slot], 0, Side.BUY, OrderType.STOP, TimeInForce.DAY, 0, 10)
                    .stopPrice(1_004);
                case 89 -> command.newOrder(4, IDS[slot], 0, Side.SELL, OrderType.STOP_LIMIT, TimeInForce.GTC, 999, 10)
                    .stopPrice(1_001);
                case 91 -> command.newOrder(3, IDS[slot], 1, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, 1_050, 30);
                case 93 -> command.newOrder(4, IDS[slot], 1, Side.SELL, OrderType.MARKET, TimeInForce.DAY, 0, 5);
                case 63 -> command.newOrder(4, IDS[slot], 0, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 1_002, 30)
                    .maxFloor(10);
                case 67 -> command.newOrder(3, IDS[slot], 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTD, 999, 10)
                    .expireTimeNanos(System.currentTimeMillis() * 1_000_000L + 1_000_000L);
                case 73 -> command.timer();
                case 79 -> command.newOrder(3, IDS[slot], 0, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, 1_006, 500)
                    .minQuantity(400);
                case 83 -> command.newOrder(4, IDS[slot], 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY, 990, 10)
                    .postOnly(true);
                default -> {
                    if (i % 3 == 2) {
                        command.cancel(1, "c", IDS[slot], i % 2, Side.BUY);
                    } else {
                        Side side = (i & 4) == 0 ? Side.BUY : Side.SELL;
                        command.newOrder(side == Side.BUY ? 1 : 2, IDS[slot], i % 2, side, OrderType.LIMIT,
                            TimeInForce.DAY, 1_000 + (i % 7), 10);
                    }
                }
            }
            runtime.inbound().offer(command);
            runtime.doWork();
            runtime.outbound().poll(sink, 1_000);
        }
    }
}
