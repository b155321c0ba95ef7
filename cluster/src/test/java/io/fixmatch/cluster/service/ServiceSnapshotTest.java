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
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The cluster's snapshot gives back every field of the service's state, compared one by one after a round trip:
 * comparing the bytes re-encoded from the restored state would not see a field that the writer and the reader both
 * leave out (a slot's egress sequence was once such a field: a node restored from the snapshot numbered its batches
 * from 1 and the gateway dropped them all as duplicates).
 *
 * <p>Robust to new fields: the slots' fields are compared by reflection, and the test fails while any of them still
 * holds a fresh slot's value before the round trip (a new field must be given a value here, and so be compared); the
 * scalar state's record components are filled and compared generically; the egress window's and the service's fields
 * are explicit lists a new field must join, saying whether and how the snapshot carries it.
 */
class ServiceSnapshotTest {
    private static final List<SymbolSpec> SYMBOLS = List.of(SymbolSpec.of("AAPL", 2, 1, 1),
        SymbolSpec.of("MSFT", 2, 1, 1));
    private static final List<String> OWNERS = List.of("CLIENT1", "CLIENT2", "CLIENT3", "CLIENT4");
    private static final EngineConfig ENGINE = new EngineConfig(SYMBOLS, 1_000, 100);
    private static final int MAX_GATEWAYS = 3;
    /** Small, so that the window drops batches and counts them lost. */
    private static final int WINDOW_BYTES = 512;

    private final ServiceSettings settings = new ServiceSettings(ENGINE, JournalConfig.at(Path.of("unused")), OWNERS,
        DropCopyRoutes.NONE, true, null, MAX_GATEWAYS, 1 << 20, null);

    @Test
    void everyFieldOfTheServicesStateComesBackAfterARoundTrip() throws Exception {
        MatchingEngine engine = engineWithOrders();
        GatewaySlots slots = new GatewaySlots(MAX_GATEWAYS, OWNERS.size(), WINDOW_BYTES);
        fill(slots, slots.slot(1), 11, 4_001, true, new int[] {1, 2}, 5);
        fill(slots, slots.slot(2), 22, 4_002, false, new int[] {4}, 40);
        // slot 3 stays free: a free slot comes back free
        ServiceSnapshot.State state = distinctState();

        byte[] bytes = ServiceSnapshot.encode(settings, engine, slots, state);
        MatchingEngine restoredEngine = new MatchingEngine(ENGINE, event -> { });
        GatewaySlots restored = new GatewaySlots(MAX_GATEWAYS, OWNERS.size(), WINDOW_BYTES);
        ServiceSnapshot.State restoredState = ServiceSnapshot.decode(bytes, settings, restoredEngine, restored);

        assertEquals(state, restoredState, "the scalar state");
        for (int i = 1; i <= MAX_GATEWAYS; i++) {
            assertSameSlot(slots.slot(i), restored.slot(i));
        }
        for (int owner = 1; owner <= OWNERS.size(); owner++) {
            assertEquals(slots.slotOfOwner(owner), restored.slotOfOwner(owner), "the slot serving owner " + owner);
        }
        assertArrayEquals(engineState(engine), engineState(restoredEngine),
            "the engine's state (its fields are EngineStateTest's)");
    }

    /** Before the round trip, every field of a used slot differs from a fresh slot's: so every field is compared. */
    @Test
    void theRoundTripExercisesEveryFieldOfASlot() throws Exception {
        GatewaySlots slots = new GatewaySlots(MAX_GATEWAYS, OWNERS.size(), WINDOW_BYTES);
        GatewaySlot used = slots.slot(1);
        fill(slots, used, 11, 4_001, true, new int[] {1, 2}, 5);
        GatewaySlot fresh = new GatewaySlot(1, WINDOW_BYTES);
        for (Field field : instanceFields(GatewaySlot.class)) {
            if (field.getName().equals("index") || field.getName().equals("window")) {
                continue; // the slot's number (fixed by its place); the window, compared by its own list below
            }
            assertNotEquals(describe(field.get(fresh)), describe(field.get(used)), "GatewaySlot." + field.getName()
                + " keeps a fresh slot's value in this test: give it one in fill(), so the round trip compares it");
        }
        EgressWindow window = used.window;
        EgressWindow freshWindow = fresh.window;
        assertNotEquals(describeWindow(freshWindow), describeWindow(window));
        assertNotEquals(0, window.lostBatches(), "the window lost batches (the count is state)");
        assertNotEquals(1, window.oldestSequence(), "the window released batches");
    }

    /**
     * The egress window's fields, each either compared after the round trip ({@link #describeWindow}) or its layout
     * (where the bytes sit in the buffer, not what they are). A new field must join one list or the other.
     */
    @Test
    void everyFieldOfTheEgressWindowIsComparedOrIsLayout() {
        Set<String> compared = Set.of("oldestSequence", "count", "lostBatches", "bytes");
        Set<String> layout = Set.of("maxBytes", "head", "tail");
        assertKnownFields(EgressWindow.class, compared, layout);
    }

    /**
     * The service's fields, each either replicated state (carried by the snapshot: the scalar state's components, the
     * engine, the slots, the command sequence the journal counts) or the node's own (configuration, buffers, what
     * the applying of one message uses and leaves behind, the admin endpoint's). A new field must say which: a
     * replicated one forgotten by the snapshot would make a restored node apply the log differently.
     */
    @Test
    void everyFieldOfTheServiceIsInTheSnapshotOrTheNodesOwn() {
        Set<String> stateComponents = new TreeSet<>();
        for (RecordComponent component : ServiceSnapshot.State.class.getRecordComponents()) {
            stateComponents.add(component.getName());
        }
        Set<String> scalars = Set.of("venueFingerprint", "endOfDayDeadline", "engineTimerDeadline");
        for (String scalar : scalars) {
            assertEquals(true, stateComponents.contains(scalar), "MatchingService." + scalar
                + " is replicated state: ServiceSnapshot.State must carry it");
        }
        Set<String> replicated = new TreeSet<>(scalars);
        replicated.addAll(Set.of(
            "slots",    // ServiceSnapshot writes every slot
            "runtime",  // its engine: EngineState
            "journal")); // its command sequence: State.commandSequence
        Set<String> nodesOwn = Set.of("settings", "status", "clock", "scratch", "operatorCommand", "live", "kept",
            "reply", "onStagedRecord", "cluster", "leader", "building", "liveAt", "keptAt", "keptRecords", "issuer",
            "answering", "ownFingerprint", "appliedType", "bookQueryAsked", "bookQuerySymbol", "bookQueryAnswered");
        assertKnownFields(MatchingService.class, replicated, nodesOwn);
    }

    private static void assertKnownFields(Class<?> type, Set<String> compared, Set<String> other) {
        List<String> unknown = new ArrayList<>();
        for (Field field : instanceFields(type)) {
            if (!compared.contains(field.getName()) && !other.contains(field.getName())) {
                unknown.add(field.getName());
            }
        }
        assertEquals(List.of(), unknown, type.getSimpleName() + " has fields this test does not know: is each in the"
            + " cluster's snapshot (ServiceSnapshot) and compared after its round trip, or none of its business?");
    }

    /** A slot as a gateway's hello, commands and batches leave it; its window holds batches up to its sequence. */
    private static void fill(GatewaySlots slots, GatewaySlot slot, int gatewayId, long sessionId, boolean open,
                             int[] owners, long firstBatch) {
        slot.gatewayId = gatewayId;
        slot.sessionId = sessionId;
        slot.open = open;
        slots.assign(slot, owners);
        slot.lastApplied = 1_000 + gatewayId;
        slot.ignoredCommands = 7 + gatewayId;
        UnsafeBuffer batch = new UnsafeBuffer(new byte[200]);
        long sequence = firstBatch;
        for (int i = 0; i < 6; i++, sequence++) { // 6 x 204 bytes in a window of 512: the oldest are lost
            Egress.encodeBatchHeader(batch, 0, 0, sequence, 100 + sequence, 500 + sequence);
            batch.putLong(Egress.BATCH_HEADER_LENGTH, gatewayId * 1_000L + sequence); // content of its own
            slot.window.add(batch, 0, batch.capacity());
        }
        slot.egressSequence = sequence - 1;
        slot.window.release(sequence - 2); // acknowledged all but the last
    }

    /** Every component of the scalar state with a value of its own, whatever components it has. */
    private static ServiceSnapshot.State distinctState() throws Exception {
        RecordComponent[] components = ServiceSnapshot.State.class.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            if (types[i] != long.class) {
                fail("ServiceSnapshot.State." + components[i].getName() + " is a " + types[i]
                    + ": give distinctState() a value for it");
            }
            values[i] = 0x1000_0000_0000L * (i + 1) + 12_345 + i; // non-zero, distinct, not a small number
        }
        return ServiceSnapshot.State.class.getDeclaredConstructor(types).newInstance(values);
    }

    private static void assertSameSlot(GatewaySlot expected, GatewaySlot actual) throws IllegalAccessException {
        for (Field field : instanceFields(GatewaySlot.class)) {
            Object want = field.get(expected);
            Object got = field.get(actual);
            if (want instanceof EgressWindow window) {
                assertEquals(describeWindow(window), describeWindow((EgressWindow) got),
                    "slot " + expected.index + "'s window");
            } else {
                assertEquals(describe(want), describe(got), "slot " + expected.index + "'s " + field.getName());
            }
        }
    }

    private static String describe(Object value) {
        if (value instanceof int[] ints) {
            return Arrays.toString(ints);
        }
        if (value == null || value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        throw new AssertionError("a slot field of type " + value.getClass() + ": teach this test to compare it");
    }

    /** What a window holds: its counters and every batch, in order. */
    private static String describeWindow(EgressWindow window) {
        StringBuilder text = new StringBuilder("oldest " + window.oldestSequence() + ", " + window.count()
            + " batches, " + window.bytesHeld() + " bytes, lost " + window.lostBatches() + ":");
        window.forEachAfter(Long.MIN_VALUE, (buffer, offset, length) -> {
            byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            text.append(' ').append(HexFormat.of().formatHex(bytes));
        });
        return text.toString();
    }

    private static List<Field> instanceFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Field field : type.getDeclaredFields()) {
            if (!Modifier.isStatic(field.getModifiers()) && !field.isSynthetic()) {
                field.setAccessible(true);
                fields.add(field);
            }
        }
        return fields;
    }

    private static MatchingEngine engineWithOrders() {
        MatchingEngine engine = new MatchingEngine(ENGINE, event -> { });
        Command command = new Command();
        engine.process(command.newOrder(1, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 10_000, 5));
        engine.process(command.newOrder(2, "s1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 10_100, 3));
        engine.process(command.newOrder(4, "s2", 1, Side.SELL, OrderType.LIMIT, TimeInForce.DAY, 20_000, 2));
        return engine;
    }

    private static byte[] engineState(MatchingEngine engine) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            EngineState.write(engine, out);
        }
        return bytes.toByteArray();
    }
}
