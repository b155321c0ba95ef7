package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.matching.EngineStateText;
import io.fixmatch.engine.matching.MatchingEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pre-trade risk, self-trade prevention, kill switches, the end of day, and orders with attributes (stops triggered,
 * icebergs refilled, GTD orders expired by the journal's times, post-only, MinQty) through the real journaled loop: a
 * full replay of the journal reports exactly the events the live runs reported (so every kill switch, self-trade
 * cancel, risk reject, trigger, refill and expiry is reproduced), and recovery from a snapshot (settings, kill
 * switches, last trade prices, waiting stops, icebergs' displayed parts, the GTD expiries) plus the journal's tail
 * gives the same engine as the whole journal.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TradingRulesRecoveryTest {
    @TempDir
    Path journalDir;

    /** The journal tests' flow with the trading rules' commands mixed in. */
    private static final class RulesFlow {
        private final TestFlow orders;
        private long n;
        /** The latest GTD expire time sent (epoch ns). */
        long latestExpiry;

        RulesFlow(long seed) {
            orders = new TestFlow(seed);
        }

        Command next(Command command) {
            long i = n++;
            if (i < 12) {
                return settings((int) i, command);
            }
            if (i % 700 == 100) {
                return command.killSwitch(1 + (int) (i / 700 % 3));
            }
            if (i % 700 == 450) {
                return command.releaseKillSwitch(1 + (int) (i / 700 % 3));
            }
            if (i % 1_500 == 1_000) {
                return command.expireDayOrders();
            }
            if (i % 9 == 4) {
                return attributed(i, command);
            }
            return orders.next(command);
        }

        /**
         * On symbol 0 (tick 1, lot 1), near its mid: stops and stop-limits a few ticks away, icebergs, GTD orders that
         * expire 1 to 2 s after the wall clock (the loop stamps commands with it), post-only orders, IOC with MinQty,
         * TIMER commands.
         */
        private Command attributed(long i, Command command) {
            long mid = orders.mid(0);
            int owner = 1 + (int) (i / 9 % 3);
            String id = "a" + i;
            Side side = i / 9 % 2 == 0 ? Side.BUY : Side.SELL;
            int direction = side == Side.BUY ? 1 : -1;
            long now = System.currentTimeMillis() * 1_000_000L;
            return switch ((int) (i / 9 % 6)) {
                case 0 -> command.newOrder(owner, id, 0, side, OrderType.STOP, TimeInForce.DAY, 0, 5)
                    .stopPrice(mid + direction * (i % 4));
                case 1 -> command.newOrder(owner, id, 0, side, OrderType.STOP_LIMIT, TimeInForce.GTC,
                    mid + direction * 3, 8).stopPrice(mid + direction * (1 + i % 3));
                case 2 -> command.newOrder(owner, id, 0, side.opposite(), OrderType.LIMIT, TimeInForce.GTC,
                    mid - direction * (i % 3), 60).maxFloor(7);
                case 3 -> gtd(command, id, i % 2 == 0 ? Side.BUY : Side.SELL, mid, now + 1_000_000_000L
                    + (i % 40) * 20_000_000L);
                case 4 -> i / 54 % 2 == 0 ? command.timer()
                    : command.newOrder(owner, id, 0, side, OrderType.LIMIT, TimeInForce.DAY,
                        mid + direction * (2 + i % 4), 4).postOnly(true);
                default -> command.newOrder(owner, id, 0, side, OrderType.LIMIT, TimeInForce.IOC,
                    mid + direction * 2, 30).minQuantity(10 + i % 20);
            };
        }

        /** A GTD order of owner 3 (a firm of its own) some ticks away from the mid, so it rests until it expires. */
        private Command gtd(Command command, String id, Side side, long mid, long expireTime) {
            latestExpiry = Math.max(latestExpiry, expireTime);
            long price = side == Side.BUY ? mid - 6 - n % 4 : mid + 6 + n % 4;
            return command.newOrder(3, id, 0, side, OrderType.LIMIT, TimeInForce.GTD, price, 9)
                .expireTimeNanos(expireTime);
        }

        /** Owners 1 and 2 are one firm; each owner its own self-trade mode; limits that bite now and then. */
        private static Command settings(int i, Command command) {
            return switch (i) {
                case 0 -> command.setSessionControl(1, SessionControl.FIRM, 1);
                case 1 -> command.setSessionControl(2, SessionControl.FIRM, 1);
                case 2 -> command.setSessionControl(1, SessionControl.SELF_TRADE_PREVENTION,
                    SelfTradePrevention.CANCEL_RESTING.code());
                case 3 -> command.setSessionControl(2, SessionControl.SELF_TRADE_PREVENTION,
                    SelfTradePrevention.CANCEL_INCOMING.code());
                case 4 -> command.setSessionControl(3, SessionControl.SELF_TRADE_PREVENTION,
                    SelfTradePrevention.CANCEL_BOTH.code());
                case 5 -> command.setSessionControl(1, SessionControl.MAX_ORDER_QUANTITY, 150);
                case 6 -> command.setSessionControl(2, SessionControl.MAX_NOTIONAL, 2_000);
                case 7 -> command.setSessionControl(3, SessionControl.MAX_OPEN_ORDERS, 12);
                case 8 -> command.setSessionControl(3, SessionControl.PRICE_COLLAR_BASIS_POINTS, 30);
                case 9 -> command.setSessionControl(2, SessionControl.PRICE_COLLAR_TICKS, 6);
                case 10 -> command.setReferencePrice(0, 15_000);
                default -> command.setReferencePrice(2, 1_400_000);
            };
        }
    }

    @Test
    void replayReproducesEveryEventAndSnapshotPlusTailEqualsTheWholeJournal() throws IOException {
        RulesFlow flow = new RulesFlow(31);
        List<String> live = new ArrayList<>();
        run(flow, 4_500, live);                 // clean stop: snapshot A, with owner 1's kill switch engaged
        int firstRun = live.size();
        // The GTD orders of the first run that still rest expire at the second run's first command.
        while (System.currentTimeMillis() * 1_000_000L <= flow.latestExpiry) {
            Thread.onSpinWait();
        }
        String expected = run(flow, 3_500, live); // snapshot B
        for (String kind : List.of("SELF_TRADE_RESTING", "SELF_TRADE_INCOMING", "KILL_SWITCH_ENGAGED", "DAY_ENDED",
            "RISK_ORDER_QUANTITY", "RISK_NOTIONAL", "RISK_OPEN_ORDERS", "RISK_PRICE_COLLAR", "GTD_EXPIRED",
            "POST_ONLY_WOULD_TAKE", "MIN_QUANTITY_NOT_AVAILABLE")) {
            assertTrue(live.stream().anyMatch(e -> e.contains("reason=" + kind)), "the flow produced " + kind);
        }
        assertTrue(live.stream().filter(e -> e.startsWith("TRIGGERED")).count() > 50, "stops triggered");
        assertTrue(live.stream().filter(e -> e.startsWith("FILL") && e.contains("clOrdId=a")
            && e.contains("orderQty=60")).count() > 50, "icebergs traded");

        List<String> replayed = new ArrayList<>();
        MatchingEngine full = new MatchingEngine(TestFlow.ENGINE, e -> replayed.add(e.toString()));
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir),
            TestFlow.SYMBOLS)) {
            journal.replay(full::process);
        }
        assertEquals(live.size(), replayed.size(), "events of the live runs and of the replay");
        for (int i = 0; i < live.size(); i++) {
            assertEquals(live.get(i), replayed.get(i), "event " + i);
        }
        assertEquals(expected, EngineStateText.of(full));

        List<Path> snapshots = snapshots();
        assertEquals(2, snapshots.size());
        Files.delete(snapshots.get(snapshots.size() - 1)); // recovery must use A and replay the 3,500 after it
        List<String> tail = new ArrayList<>();
        try (MatchingRuntime fromSnapshot = JournaledRuns.runtime(JournalConfig.at(journalDir))) {
            assertEquals(3_500, fromSnapshot.recover(e -> tail.add(e.toString())));
            assertEquals(expected, EngineStateText.of(fromSnapshot.engine()));
        }
        // The tail's replay from the snapshot decides every command as the live run did: kill switch, last trade
        // prices and settings came back from the snapshot.
        assertEquals(live.subList(firstRun, live.size()), tail);
    }

    private String run(RulesFlow flow, int count, List<String> events) {
        MatchingRuntime runtime = JournaledRuns.runtime(JournalConfig.at(journalDir));
        runtime.recover();
        runtime.start();
        Command command = new Command();
        for (int i = 0; i < count; i++) {
            flow.next(command);
            command.timestampNanos(0);
            while (!runtime.inbound().offer(command)) {
                runtime.outbound().poll(e -> events.add(e.toString()), 1_000);
            }
            runtime.outbound().poll(e -> events.add(e.toString()), 1_000);
        }
        runtime.close();
        while (runtime.outbound().poll(e -> events.add(e.toString()), 1_000) > 0) {
            // collect what the drain produced
        }
        return EngineStateText.of(runtime.engine());
    }

    private List<Path> snapshots() throws IOException {
        try (Stream<Path> files = Files.list(journalDir.resolve("snapshots"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".snap")).sorted().toList();
        }
    }
}
