package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's own snapshot state: a fresh engine that reads it continues exactly as the one that wrote it (same
 * books, id counters, inbound positions, and the same events for the same next commands); sides and times in force
 * are written as explicit codes, and an unknown code is refused rather than guessed; a buffer carries the same bytes
 * as a stream.
 */
class EngineStateTest {
    private static final EngineConfig CONFIG = new EngineConfig(List.of(EngineHarness.ACME, EngineHarness.BETA),
        1_000, 1_000);

    @Test
    void aRestoredEngineContinuesExactlyAsTheOriginal() throws IOException {
        List<String> originalEvents = new ArrayList<>();
        MatchingEngine original = new MatchingEngine(CONFIG, e -> originalEvents.add(e.toString()));
        Command command = new Command();
        original.process(command.newOrder(1, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 1_000, 100)
            .inboundPosition(7));
        original.process(command.newOrder(2, "s1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 1_000, 40)
            .inboundPosition(3L << 40 | 9));
        original.process(command.newOrder(2, "s2", 1, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 500, 5));
        byte[] state = write(original);

        List<String> restoredEvents = new ArrayList<>();
        MatchingEngine restored = new MatchingEngine(CONFIG, e -> restoredEvents.add(e.toString()));
        read(restored, state);
        assertEquals(EngineStateText.of(original), EngineStateText.of(restored));
        assertEquals(7, restored.lastInboundPosition(1));
        assertEquals(3L << 40 | 9, restored.lastInboundPosition(2));

        originalEvents.clear();
        Command next = new Command().newOrder(3, "s3", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY, 1_000, 100);
        original.process(next);
        restored.process(next);
        assertEquals(originalEvents, restoredEvents, "same fills, same order and exec ids");
        assertTrue(restoredEvents.size() > 2, "the next order traded: " + restoredEvents);
    }

    @Test
    void sidesAndTimesInForceAreExplicitCodesAndUnknownOnesAreRefused() throws IOException {
        MatchingEngine engine = new MatchingEngine(CONFIG, e -> { });
        engine.process(new Command().newOrder(1, "g", 1, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 500, 5));
        byte[] state = write(engine);
        int order = 2 + 1 + 8 + 8 + 4; // halted symbol count (none), version, two id counters, order count
        assertEquals('2', state[order + 4], "sell");
        assertEquals('1', state[order + 5], "GTC");

        state[order + 4] = 1; // SELL's ordinal: no longer a side
        assertThrows(IOException.class, () -> read(new MatchingEngine(CONFIG, e -> { }), state));
    }

    @Test
    void settingsKillSwitchesAndPricesSurviveAndDecideTheSameWay() throws IOException {
        MatchingEngine original = new MatchingEngine(CONFIG, e -> { });
        Command command = new Command();
        original.process(command.setSessionControl(1, io.fixmatch.engine.api.SessionControl.MAX_ORDER_QUANTITY, 50));
        original.process(command.setSessionControl(2, io.fixmatch.engine.api.SessionControl.SELF_TRADE_PREVENTION,
            io.fixmatch.engine.api.SelfTradePrevention.CANCEL_BOTH.code()));
        original.process(command.setSessionControl(2, io.fixmatch.engine.api.SessionControl.FIRM, 9));
        original.process(command.setSessionControl(2, io.fixmatch.engine.api.SessionControl.PRICE_COLLAR_TICKS, 4));
        original.process(command.setReferencePrice(1, 480));
        original.process(command.newOrder(3, "s1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 1_000, 10));
        original.process(command.newOrder(2, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 1_000, 10));
        original.process(command.killSwitch(3));
        byte[] state = write(original);

        MatchingEngine restored = new MatchingEngine(CONFIG, e -> { });
        read(restored, state);
        assertEquals(EngineStateText.of(original), EngineStateText.of(restored));
        assertTrue(restored.view().isKillSwitchEngaged(3), "published after the restore");
        assertEquals(1_000, restored.lastTradePrice(0));
        assertEquals(480, restored.referencePrice(1));
        assertEquals(9, restored.sessionControl(2, io.fixmatch.engine.api.SessionControl.FIRM));

        List<String> originalEvents = new ArrayList<>();
        List<String> restoredEvents = new ArrayList<>();
        MatchingEngine originalRecorded = new MatchingEngine(CONFIG, e -> originalEvents.add(e.toString()));
        MatchingEngine restoredRecorded = new MatchingEngine(CONFIG, e -> restoredEvents.add(e.toString()));
        read(originalRecorded, state);
        read(restoredRecorded, write(restored));
        for (Command next : List.of(
            new Command().newOrder(1, "big", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 1_000, 60),
            new Command().newOrder(3, "k", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 1_000, 10),
            new Command().newOrder(2, "far", 1, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 500, 10))) {
            originalRecorded.process(next);
            restoredRecorded.process(next);
        }
        assertEquals(originalEvents, restoredEvents);
        assertTrue(restoredEvents.get(0).contains("RISK_ORDER_QUANTITY"), restoredEvents.toString());
        assertTrue(restoredEvents.get(1).contains("KILL_SWITCH_ENGAGED"), restoredEvents.toString());
        assertTrue(restoredEvents.get(2).contains("RISK_PRICE_COLLAR"), restoredEvents.toString());
    }

    @Test
    void version1StateIsStillRead() throws IOException {
        MatchingEngine engine = new MatchingEngine(CONFIG, e -> { });
        engine.process(new Command().newOrder(1, "g", 1, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 500, 5));
        byte[] version2 = write(engine);
        // Version 1 ended after the inbound positions: no settings (i32 0), no prices (i32 count + 2 x 16 bytes).
        byte[] version1 = java.util.Arrays.copyOf(version2, version2.length - 4 - 4 - 2 * 16);
        version1[2] = 1; // after the halted symbol count (none)
        MatchingEngine restored = new MatchingEngine(CONFIG, e -> { });
        read(restored, version1);
        assertEquals(EngineStateText.of(engine), EngineStateText.of(restored));
    }

    @Test
    void aBufferCarriesTheSameBytesAsAStreamHaltsIncluded() throws IOException {
        MatchingEngine original = new MatchingEngine(CONFIG, e -> { });
        Command command = new Command();
        original.process(command.newOrder(1, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 1_000, 100)
            .inboundPosition(7));
        original.process(command.newOrder(2, "s1", 1, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 500, 5));
        original.process(command.haltSymbol(1));
        byte[] streamed = write(original);

        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16); // grows as the state is written
        int offset = 5;
        int length = EngineState.write(original, buffer, offset);
        assertArrayEquals(streamed, Arrays.copyOfRange(buffer.byteArray(), offset, offset + length));

        MatchingEngine restored = new MatchingEngine(CONFIG, e -> { });
        EngineState.read(restored, buffer, offset, length);
        assertEquals(EngineStateText.of(original), EngineStateText.of(restored));
        assertTrue(restored.isHalted(1));
        assertTrue(restored.view().isHalted(1), "published after the restore");

        UnsafeBuffer fixed = new UnsafeBuffer(new byte[length]); // a plain byte[]
        assertEquals(length, EngineState.write(original, fixed, 0));
        assertArrayEquals(streamed, fixed.byteArray());
        assertThrows(IllegalStateException.class,
            () -> EngineState.write(original, new UnsafeBuffer(new byte[length - 1]), 0), "a fixed buffer too small");
        assertThrows(EOFException.class,
            () -> EngineState.read(new MatchingEngine(CONFIG, e -> { }), buffer, offset, length - 1), "cut short");
    }

    private static byte[] write(MatchingEngine engine) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            EngineState.write(engine, out);
        }
        return bytes.toByteArray();
    }

    private static void read(MatchingEngine engine, byte[] state) throws IOException {
        EngineState.read(engine, new DataInputStream(new ByteArrayInputStream(state)));
    }
}
