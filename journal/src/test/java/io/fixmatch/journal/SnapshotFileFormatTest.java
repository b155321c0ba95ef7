package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineStateText;
import io.fixmatch.engine.matching.MatchingEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The snapshot file's bytes do not drift: {@code snapshot-format-2.snap} was written by the build before the engine's
 * state moved into {@code EngineState} (commit 90200c6; engine state format 3), from the engine {@link #engine()}
 * builds; today's build reads it back into the same engine, so the snapshots of a running venue still read after an
 * upgrade. {@code snapshot-format-2-state-4.snap} was written by the build that added the order attributes (engine
 * state format 4: stop and stop-limit orders waiting and triggered, icebergs, GTD, post-only), from the engine
 * {@link #engineWithAttributes()} builds: it reads back into that engine. {@code snapshot-format-2-state-5.snap} was
 * written by the build that added trading sessions (format 5: phases, schedules, a call's queued orders), from
 * {@link #engineWithAuctions()}: it reads back into that engine, its market data numbering at 0 (format 5 had none).
 * {@code snapshot-format-2-state-6.snap} was written by the build that added the feed (format 6: the last number
 * given to a market data entry), from the same engine: today's build writes it byte for byte the same and reads it back.
 */
class SnapshotFileFormatTest {
    private static final long JOURNAL_INDEX = 0x4_0000_0123L;
    private static final List<String> OWNERS = List.of("ALPHA", "BRAVO", "CHARLIE");

    @TempDir
    Path directory;

    @Test
    void aSnapshotOfAnEarlierStateFormatReadsBack() throws IOException {
        MatchingEngine engine = engine();
        String state = EngineStateText.of(engine);
        assertTrue(state.contains("halted=2") && state.contains("KILL_SWITCH=1") && state.contains(" reference=")
            && state.contains("GTC") && !state.contains("lastDayEndNanos=0"), state);

        byte[] earlier = resource("snapshot-format-2.snap");
        Path file = Files.write(directory.resolve("earlier.snap"), earlier);
        MatchingEngine restored = new MatchingEngine(TestFlow.ENGINE, e -> { });
        EngineSnapshot.Header header = EngineSnapshot.restore(file, restored);
        assertEquals(JOURNAL_INDEX, header.journalIndex());
        assertEquals(TestFlow.SYMBOLS, header.symbols());
        assertEquals(OWNERS, header.owners());
        assertEquals(state, EngineStateText.of(restored));
    }

    @Test
    void aSnapshotOfStateFormat4ReadsBack() throws IOException {
        MatchingEngine engine = engineWithAttributes();
        String state = EngineStateText.of(engine);
        assertTrue(state.contains(" waiting ") && state.contains("type=STOP_LIMIT") && state.contains("maxFloor=")
            && state.contains("tif=GTD") && state.contains("postOnly") && state.contains("halted=2"), state);
        Path file = Files.write(directory.resolve("format4.snap"), resource("snapshot-format-2-state-4.snap"));
        MatchingEngine restored = new MatchingEngine(TestFlow.ENGINE, e -> { });
        EngineSnapshot.restore(file, restored);
        assertEquals(state, EngineStateText.of(restored));
    }

    @Test
    void aSnapshotOfStateFormat5ReadsBack() throws IOException {
        MatchingEngine engine = engineWithAuctions();
        String state = EngineStateText.of(engine);
        assertTrue(state.contains(" queued ") && state.contains("session phase=OPENING_CALL")
            && state.contains("tif=AT_THE_CLOSE") && state.contains(" waiting ")
            && state.contains("marketDataSequence=0"), state);
        Path file = Files.write(directory.resolve("format5.snap"), resource("snapshot-format-2-state-5.snap"));
        MatchingEngine restored = new MatchingEngine(TestFlow.ENGINE, e -> { });
        EngineSnapshot.restore(file, restored);
        assertEquals(state, EngineStateText.of(restored)); // format 5 numbered no market data: 0
    }

    @Test
    void todaysBuildWritesTheSameBytesAsTheBuildThatAddedTheFeedAndReadsThemBack() throws IOException {
        MatchingEngine engine = engineWithAuctions();
        engine.advanceMarketDataSequence(4_321); // as the matching step's publisher numbers entries
        String state = EngineStateText.of(engine);
        assertTrue(state.contains("marketDataSequence=4321"), state);
        Path written = EngineSnapshot.write(directory, JOURNAL_INDEX, TestFlow.SYMBOLS, OWNERS, engine);
        assertArrayEquals(resource("snapshot-format-2-state-6.snap"), Files.readAllBytes(written));

        MatchingEngine restored = new MatchingEngine(TestFlow.ENGINE, e -> { });
        EngineSnapshot.restore(written, restored);
        assertEquals(state, EngineStateText.of(restored));
    }

    /** {@link #engineWithAttributes()}, then symbol 1 on a schedule in its opening call, with queued orders. */
    static MatchingEngine engineWithAuctions() {
        MatchingEngine engine = engineWithAttributes();
        long time = 1_800_000_000_000_000_000L + 86_400_000_000_000L; // 2027-01-16 08:00 UTC, more or less
        long hour = 3_600_000L;
        long ofDay = Math.floorMod(time / 1_000_000L, 86_400_000L);
        List<Command> commands = List.of(
            new Command().setSymbolControl(1, SymbolControl.OPENING_CALL, ofDay - hour),
            new Command().setSymbolControl(1, SymbolControl.OPENING_UNCROSS, ofDay + hour),
            new Command().setSymbolControl(1, SymbolControl.CLOSING_CALL, ofDay + 2 * hour),
            new Command().setSymbolControl(1, SymbolControl.CLOSING_UNCROSS, ofDay + 3 * hour),
            new Command().newOrder(2, "mkt", 1, Side.SELL, OrderType.MARKET, TimeInForce.DAY, 0, 30),
            new Command().newOrder(1, "opg", 1, Side.BUY, OrderType.LIMIT, TimeInForce.AT_THE_OPENING, 30_010, 20),
            new Command().newOrder(1, "cls", 1, Side.BUY, OrderType.LIMIT, TimeInForce.AT_THE_CLOSE, 29_990, 20),
            new Command().setSymbolControl(0, SymbolControl.VOLATILITY_BAND_BASIS_POINTS, 50));
        for (Command command : commands) {
            engine.process(command.timestampNanos(++time));
        }
        return engine;
    }

    /** {@link #engine()} and then orders with every attribute, some waiting, one triggered and resting. */
    static MatchingEngine engineWithAttributes() {
        MatchingEngine engine = engine();
        Command command = new Command();
        long time = 1_800_000_000_000_000_000L;
        List<Command> orders = List.of(
            command.newOrder(1, "stop1", 0, Side.BUY, OrderType.STOP, TimeInForce.DAY, 0, 5).stopPrice(99_900)
                .timestampNanos(++time),
            new Command().newOrder(2, "stop2", 0, Side.SELL, OrderType.STOP_LIMIT, TimeInForce.GTD, 100, 5)
                .stopPrice(200).expireTimeNanos(time + 1_000_000_000L).timestampNanos(++time),
            new Command().newOrder(1, "ice", 0, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 90_000, 50).maxFloor(20)
                .timestampNanos(++time),
            new Command().newOrder(2, "take", 0, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, 90_000, 25)
                .timestampNanos(++time),
            new Command().newOrder(2, "post", 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTD, 100, 3).postOnly(true)
                .expireTimeNanos(time + 2_000_000_000L).timestampNanos(++time),
            new Command().newOrder(1, "sl", 1, Side.BUY, OrderType.STOP_LIMIT, TimeInForce.GTC, 100, 10).stopPrice(100)
                .timestampNanos(++time));
        for (Command order : orders) {
            engine.process(order);
        }
        return engine;
    }

    /**
     * An engine with some of every part of the state: resting DAY and GTC orders, partly filled, of three owners with
     * inbound positions; a halted symbol; risk, firm and self-trade settings; an engaged kill switch; last trade and
     * reference prices; the journal times of the last command and of an end of day.
     */
    static MatchingEngine engine() {
        MatchingEngine engine = new MatchingEngine(TestFlow.ENGINE, e -> { });
        Command command = new Command();
        long[] time = {1_700_000_000_000_000_000L};
        TestFlow flow = new TestFlow(4);
        for (int i = 0; i < 600; i++) {
            if (i == 300) {
                engine.process(command.expireDayOrders().timestampNanos(++time[0]));
            }
            flow.next(command);
            engine.process(command.timestampNanos(++time[0]).inboundPosition(1L << 40 | i + 1));
        }
        engine.process(command.newOrder(1, "g1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 14_000, 7)
            .timestampNanos(++time[0]).inboundPosition(1L << 40 | 601));
        engine.process(command.newOrder(2, "g2", 1, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 40_000, 20)
            .timestampNanos(++time[0]).inboundPosition(2L << 40 | 5));
        engine.process(command.setSessionControl(1, SessionControl.MAX_ORDER_QUANTITY, 5_000)
            .timestampNanos(++time[0]));
        engine.process(command.setSessionControl(2, SessionControl.FIRM, 9).timestampNanos(++time[0]));
        engine.process(command.setSessionControl(2, SessionControl.SELF_TRADE_PREVENTION,
            SelfTradePrevention.CANCEL_BOTH.code()).timestampNanos(++time[0]));
        engine.process(command.setReferencePrice(1, 30_000).timestampNanos(++time[0]));
        engine.process(command.killSwitch(3).timestampNanos(++time[0]));
        engine.process(command.haltSymbol(2).timestampNanos(++time[0]));
        return engine;
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = SnapshotFileFormatTest.class.getResourceAsStream(name)) {
            assertNotNull(in, name + " beside this class");
            return in.readAllBytes();
        }
    }
}
