package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's own snapshot state: a fresh engine that reads it continues exactly as the one that wrote it (same
 * books, id counters, inbound positions, and the same events for the same next commands); sides and times in force
 * are written as explicit codes, and an unknown code is refused rather than guessed.
 */
class EngineStateCodecTest {
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
        EngineStateCodec.read(new DataInputStream(new ByteArrayInputStream(state)), restored);
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
        int order = 1 + 8 + 8 + 4; // version, two id counters, order count
        assertEquals('2', state[order + 4], "sell");
        assertEquals('1', state[order + 5], "GTC");

        state[order + 4] = 1; // SELL's ordinal: no longer a side
        assertThrows(IOException.class, () -> EngineStateCodec.read(new DataInputStream(new ByteArrayInputStream(state)),
            new MatchingEngine(CONFIG, e -> { })));
    }

    private static byte[] write(MatchingEngine engine) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            EngineStateCodec.write(engine, out);
        }
        return bytes.toByteArray();
    }
}
