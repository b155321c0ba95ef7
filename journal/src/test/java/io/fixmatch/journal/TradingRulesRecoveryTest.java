package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
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
 * Pre-trade risk, self-trade prevention, kill switches and the end of day through the real journaled loop: a full
 * replay of the journal reports exactly the events the live runs reported (so every kill switch, self-trade cancel,
 * risk reject and expiry is reproduced), and recovery from a snapshot (settings, kill switches, last trade prices in
 * state format 2) plus the journal's tail gives the same engine as the whole journal.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TradingRulesRecoveryTest {
    @TempDir
    Path journalDir;

    /** The journal tests' flow with the trading rules' commands mixed in. */
    private static final class RulesFlow {
        private final TestFlow orders;
        private long n;

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
            return orders.next(command);
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
        String expected = run(flow, 3_500, live); // snapshot B
        for (String kind : List.of("SELF_TRADE_RESTING", "SELF_TRADE_INCOMING", "KILL_SWITCH_ENGAGED", "DAY_ENDED",
            "RISK_ORDER_QUANTITY", "RISK_NOTIONAL", "RISK_OPEN_ORDERS", "RISK_PRICE_COLLAR")) {
            assertTrue(live.stream().anyMatch(e -> e.contains("reason=" + kind)), "the flow produced " + kind);
        }

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
