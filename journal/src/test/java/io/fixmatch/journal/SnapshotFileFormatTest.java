package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
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
 * state moved into {@code EngineState} (commit 90200c6), from the engine {@link #engine()} builds. Today's build
 * writes that engine byte for byte the same, and reads the file back into the same engine, so the snapshots of a
 * running venue still read after an upgrade.
 */
class SnapshotFileFormatTest {
    private static final long JOURNAL_INDEX = 0x4_0000_0123L;
    private static final List<String> OWNERS = List.of("ALPHA", "BRAVO", "CHARLIE");

    @TempDir
    Path directory;

    @Test
    void aSnapshotOfAnEarlierBuildReadsBackAndTodaysBuildWritesTheSameBytes() throws IOException {
        MatchingEngine engine = engine();
        String state = EngineStateText.of(engine);
        assertTrue(state.contains("halted=2") && state.contains("KILL_SWITCH=1") && state.contains(" reference=")
            && state.contains("GTC") && !state.contains("lastDayEndNanos=0"), state);

        byte[] earlier = earlierFile();
        Path written = EngineSnapshot.write(directory, JOURNAL_INDEX, TestFlow.SYMBOLS, OWNERS, engine);
        assertArrayEquals(earlier, Files.readAllBytes(written));

        Path file = Files.write(directory.resolve("earlier.snap"), earlier);
        MatchingEngine restored = new MatchingEngine(TestFlow.ENGINE, e -> { });
        EngineSnapshot.Header header = EngineSnapshot.restore(file, restored);
        assertEquals(JOURNAL_INDEX, header.journalIndex());
        assertEquals(TestFlow.SYMBOLS, header.symbols());
        assertEquals(OWNERS, header.owners());
        assertEquals(state, EngineStateText.of(restored));
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

    private static byte[] earlierFile() throws IOException {
        try (InputStream in = SnapshotFileFormatTest.class.getResourceAsStream("snapshot-format-2.snap")) {
            assertNotNull(in, "snapshot-format-2.snap beside this class");
            return in.readAllBytes();
        }
    }
}
