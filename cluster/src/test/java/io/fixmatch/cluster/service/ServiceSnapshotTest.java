package io.fixmatch.cluster.service;

import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.DropCopyRoutes;
import io.fixmatch.engine.matching.EngineState;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.journal.JournalConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The service's snapshot gives back every field it holds: the scalar state's every component, each gateway slot's
 * every field (its window's batches included), the engine and the sessions' ledger. Compared field by field, by
 * reflection, so a field both the writer and the reader forget (re-encoded bytes would match) is caught, and a field
 * added later without a value here fails the test until the setup gives it one.
 */
class ServiceSnapshotTest {
    private static final List<SymbolSpec> SYMBOLS = List.of(SymbolSpec.of("AAPL", 2, 1, 1),
        SymbolSpec.of("MSFT", 2, 1, 1));
    private static final List<String> OWNERS = List.of("CLIENT1", "CLIENT2", "CLIENT3");
    private static final int MAX_GATEWAYS = 3;
    /** Small enough that the third batch pushes the first out: the window's lost count is set too. */
    private static final int WINDOW_BYTES = 256;
    private static final long TIMEOUT_NS = 2_000_000_000L;
    /** Set by the snapshot's position in the slot list, not by its contents. */
    private static final List<String> SET_BY_POSITION = List.of("index");

    private final ServiceSettings settings = new ServiceSettings(new EngineConfig(SYMBOLS, 1_000, 100),
        JournalConfig.at(Path.of("unused")), OWNERS, DropCopyRoutes.NONE, true, null, MAX_GATEWAYS, 1 << 20, null);

    @Test
    void everyFieldOfTheStateTheSlotsTheEngineAndTheLedgerSurvivesTheSnapshot() throws Exception {
        MatchingEngine engine = new MatchingEngine(settings.engine(), event -> { });
        engine.process(new Command().newOrder(1, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 15_000, 100)
            .timestampNanos(1_000));
        GatewaySlots slots = new GatewaySlots(MAX_GATEWAYS, OWNERS.size(), WINDOW_BYTES);
        GatewaySlot first = slots.slot(1);
        first.gatewayId = 7;
        first.sessionId = 4_242;
        first.open = true;
        first.lastHeardNs = 1_700_000_000_123_456_789L;
        first.incarnation = 987_654_321;
        first.pid = 31_337;
        first.fixPort = 9_876;
        first.adminPort = 9_880;
        first.owners = new int[] {1, 3};
        first.lastApplied = 1_234;
        first.egressSequence = 57;
        first.ignoredCommands = 9;
        for (long sequence = 55; sequence <= 57; sequence++) {
            addBatch(first.window, sequence);
        }
        GatewaySlot second = slots.slot(2);
        second.gatewayId = 8;
        second.owners = new int[] {2};
        second.egressSequence = 3;
        second.window.release(3);
        SessionLedger ledger = new SessionLedger(OWNERS.size(), TIMEOUT_NS, liveness(slots));
        ledger.claim(1, 1, new SessionLedger.Claim(1, false, 0), 100, ignoredDecisions());
        ledger.numberOut(1);
        ledger.inboundSeen(1, 0, 12);
        ServiceSnapshot.State state = new ServiceSnapshot.State(1_234, 1_700_000_100_000_000_000L, 0x1234_5678_9abcL,
            1_700_000_050_000_000_000L, 1_700_000_002_000_000_000L);

        byte[] bytes = ServiceSnapshot.encode(settings, engine, slots, ledger, state);
        MatchingEngine restoredEngine = new MatchingEngine(settings.engine(), event -> { });
        GatewaySlots restoredSlots = new GatewaySlots(MAX_GATEWAYS, OWNERS.size(), WINDOW_BYTES);
        SessionLedger restoredLedger = new SessionLedger(OWNERS.size(), TIMEOUT_NS, liveness(restoredSlots));
        ServiceSnapshot.State restored = ServiceSnapshot.decode(bytes, settings, restoredEngine, restoredSlots,
            restoredLedger);

        for (RecordComponent component : ServiceSnapshot.State.class.getRecordComponents()) {
            Object value = component.getAccessor().invoke(state);
            assertNotEquals(0L, value, component.getName() + " is set here, so that one the snapshot forgets is caught");
            assertEquals(value, component.getAccessor().invoke(restored), component.getName());
        }
        for (Field field : GatewaySlot.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || field.isSynthetic()) {
                continue;
            }
            field.setAccessible(true);
            boolean set = false;
            for (int i = 1; i <= MAX_GATEWAYS; i++) {
                Object before = comparable(field.get(slots.slot(i)));
                assertEquals(before, comparable(field.get(restoredSlots.slot(i))), "slot " + i + ": " + field.getName());
                set |= !before.equals(comparable(field.get(new GatewaySlot(i, WINDOW_BYTES))));
            }
            if (!SET_BY_POSITION.contains(field.getName())) {
                assertEquals(true, set, field.getName() + " is set in some slot here, so that a field the snapshot's"
                    + " writer and reader both forget is caught");
            }
        }
        assertArrayEquals(engineBytes(engine), engineBytes(restoredEngine), "the engine");
        assertArrayEquals(ledgerBytes(ledger), ledgerBytes(restoredLedger), "the sessions' ledger");
        assertArrayEquals(bytes, ServiceSnapshot.encode(settings, restoredEngine, restoredSlots, restoredLedger,
            restored), "the same bytes again");
    }

    /** A field's value in a form {@code equals} compares by content: arrays and the egress window by what they hold. */
    private static Object comparable(Object value) {
        if (value instanceof int[] array) {
            return Arrays.toString(array);
        }
        if (value instanceof EgressWindow window) {
            List<String> batches = new ArrayList<>();
            window.forEachAfter(Long.MIN_VALUE, (buffer, offset, length) -> {
                byte[] batch = new byte[length];
                buffer.getBytes(offset, batch);
                batches.add(HexFormat.of().formatHex(batch));
            });
            return "oldest " + window.oldestSequence() + ", lost " + window.lostBatches() + ", " + window.count()
                + " batches " + batches;
        }
        return Objects.requireNonNull(value, "a null field");
    }

    /** A batch of egress sequence {@code sequence} carrying one record, kept in the window. */
    private static void addBatch(EgressWindow window, long sequence) {
        UnsafeBuffer batch = new UnsafeBuffer(new byte[Egress.BATCH_HEADER_LENGTH + 80]);
        Egress.encodeBatchHeader(batch, 0, 0, sequence, sequence * 10, sequence * 100);
        batch.setMemory(Egress.BATCH_HEADER_LENGTH, 80, (byte) sequence);
        window.add(batch, 0, batch.capacity());
    }

    private static byte[] engineBytes(MatchingEngine engine) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        EngineState.write(engine, new DataOutputStream(bytes));
        return bytes.toByteArray();
    }

    private static byte[] ledgerBytes(SessionLedger ledger) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ledger.write(new DataOutputStream(bytes));
        return bytes.toByteArray();
    }

    private static SessionLedger.Liveness liveness(GatewaySlots slots) {
        return new SessionLedger.Liveness() {
            @Override
            public boolean alive(int slot, long nowNs) {
                return slots.slot(slot).alive(nowNs, TIMEOUT_NS);
            }

            @Override
            public long silentFromNs(int slot) {
                return slots.slot(slot).lastHeardNs + TIMEOUT_NS;
            }
        };
    }

    private static SessionLedger.Decisions ignoredDecisions() {
        return new SessionLedger.Decisions() {
            @Override
            public void granted(int owner, int slot, int previousSlot, int epoch, long logonAnswerSeqNum, long nextIn) {
            }

            @Override
            public void refused(int owner, int slot, String reason, long logoutSeqNum) {
            }
        };
    }
}
