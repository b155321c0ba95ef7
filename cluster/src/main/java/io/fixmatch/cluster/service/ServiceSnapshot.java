package io.fixmatch.cluster.service;

import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.logbuffer.FragmentHandler;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.EngineState;
import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The matching service's state in a cluster snapshot: the engine in its own format ({@link EngineState}, as the
 * standalone journal's snapshots hold it: orders, ids, halts, settings), and what the cluster adds: the command
 * sequence, the end-of-day deadline, and each gateway's slot with its unacknowledged egress. Big-endian:
 * <pre>
 *   "FIXMATCH-CLUSTER" u8 version (3; 2 and 1 are still read: no gateway processes or sessions' ledger; 1 no engine
 *   timer deadline)
 *   u16 symbol count, each name (u8 length, ASCII)    u16 owner count, each CompID (u8 length, ASCII)
 *   i64 command sequence    i64 end-of-day deadline (epoch ns, 0: none)    i64 venue fingerprint (0: none yet)
 *   version 2: i64 engine timer deadline (epoch ns, 0: none)
 *   i32 engine state length, the engine's state
 *   u16 slots, each: i32 gateway id, i64 session id, u8 open, i64 last applied, i64 egress sequence,
 *       i64 ignored commands, u16 owners (i32 each), version 3: i64 last heard (log ns), i64 incarnation, i64 pid,
 *       i32 FIX port, i32 admin port; i64 window's oldest sequence, i64 batches lost, i32 batches, each (i32 length,
 *       bytes)
 *   version 3: the sessions' ledger ({@link SessionLedger#write}), i64 session timer deadline (epoch ns, 0: none)
 * </pre>
 * Sent through the snapshot publication in chunks of at most {@link #CHUNK_BYTES}, each {@code u8 kind} (1: data,
 * 2: end) then the bytes. Every node writes the same bytes at the same log position.
 */
final class ServiceSnapshot {
    private static final byte[] MAGIC = "FIXMATCH-CLUSTER".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 3;
    private static final int VERSION_2 = 2;
    private static final int VERSION_1 = 1;
    static final int CHUNK_BYTES = 64 * 1024;
    private static final byte DATA = 1;
    private static final byte END = 2;

    /** The scalar state beside the engine and the slots. */
    record State(long commandSequence, long endOfDayDeadline, long venueFingerprint, long engineTimerDeadline,
                 long sessionTimerDeadline) {
    }

    private ServiceSnapshot() {
    }

    /** Writes the state into the snapshot publication (and its copy, if asked for); returns its size in bytes. */
    static int take(ExclusivePublication publication, IdleStrategy idle, ServiceSettings settings,
                    MatchingEngine engine, GatewaySlots slots, SessionLedger ledger, State state, long logPosition) {
        byte[] bytes = encode(settings, engine, slots, ledger, state);
        if (settings.snapshotCopies() != null) {
            SnapshotCopies.write(settings.snapshotCopies(), logPosition, bytes);
        }
        UnsafeBuffer chunk = new UnsafeBuffer(new byte[CHUNK_BYTES + 1]);
        for (int at = 0; at < bytes.length; at += CHUNK_BYTES) {
            int length = Math.min(CHUNK_BYTES, bytes.length - at);
            chunk.putByte(0, DATA);
            chunk.putBytes(1, bytes, at, length);
            offer(publication, idle, chunk, 1 + length);
        }
        chunk.putByte(0, END);
        offer(publication, idle, chunk, 1);
        return bytes.length;
    }

    private static void offer(ExclusivePublication publication, IdleStrategy idle, UnsafeBuffer buffer, int length) {
        idle.reset();
        while (true) {
            long result = publication.offer(buffer, 0, length);
            if (result > 0) {
                return;
            }
            if (result == ExclusivePublication.CLOSED || result == ExclusivePublication.MAX_POSITION_EXCEEDED) {
                throw new IllegalStateException("the snapshot publication failed: " + result);
            }
            idle.idle();
        }
    }

    static byte[] encode(ServiceSettings settings, MatchingEngine engine, GatewaySlots slots, SessionLedger ledger,
                         State state) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(MAGIC);
            out.writeByte(VERSION);
            writeNames(out, settings.engine().symbols().stream().map(SymbolSpec::name).toList());
            writeNames(out, settings.owners());
            out.writeLong(state.commandSequence());
            out.writeLong(state.endOfDayDeadline());
            out.writeLong(state.venueFingerprint());
            out.writeLong(state.engineTimerDeadline());
            ByteArrayOutputStream engineBytes = new ByteArrayOutputStream();
            try (DataOutputStream engineOut = new DataOutputStream(engineBytes)) {
                EngineState.write(engine, engineOut);
            }
            out.writeInt(engineBytes.size());
            engineBytes.writeTo(out);
            out.writeShort(slots.maxGateways());
            for (int i = 1; i <= slots.maxGateways(); i++) {
                writeSlot(out, slots.slot(i));
            }
            ledger.write(out);
            out.writeLong(state.sessionTimerDeadline());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeSlot(DataOutputStream out, GatewaySlot slot) throws IOException {
        out.writeInt(slot.gatewayId);
        out.writeLong(slot.sessionId);
        out.writeByte(slot.open ? 1 : 0);
        out.writeLong(slot.lastApplied);
        out.writeLong(slot.egressSequence);
        out.writeLong(slot.ignoredCommands);
        out.writeShort(slot.owners.length);
        for (int owner : slot.owners) {
            out.writeInt(owner);
        }
        out.writeLong(slot.lastHeardNs);
        out.writeLong(slot.incarnation);
        out.writeLong(slot.pid);
        out.writeInt(slot.fixPort);
        out.writeInt(slot.adminPort);
        out.writeLong(slot.window.oldestSequence());
        out.writeLong(slot.window.lostBatches());
        out.writeInt(slot.window.count());
        IOException[] failed = {null};
        slot.window.forEachAfter(Long.MIN_VALUE, (buffer, offset, length) -> {
            byte[] batch = new byte[length];
            buffer.getBytes(offset, batch);
            try {
                out.writeInt(length);
                out.write(batch);
            } catch (IOException e) {
                failed[0] = e;
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    private static void writeNames(DataOutputStream out, List<String> names) throws IOException {
        out.writeShort(names.size());
        for (String name : names) {
            byte[] ascii = name.getBytes(StandardCharsets.US_ASCII);
            out.writeByte(ascii.length);
            out.write(ascii);
        }
    }

    /** Reads the snapshot image into a fresh engine and slots; returns the scalar state. */
    static State load(Image image, IdleStrategy idle, ServiceSettings settings, MatchingEngine engine,
                      GatewaySlots slots, SessionLedger ledger) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean[] ended = {false};
        FragmentHandler handler = new FragmentAssembler((buffer, offset, length, header) -> {
            if (buffer.getByte(offset) == END) {
                ended[0] = true;
            } else {
                byte[] chunk = new byte[length - 1];
                buffer.getBytes(offset + 1, chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        });
        idle.reset();
        while (!ended[0]) {
            int fragments = image.poll(handler, 16);
            if (fragments == 0) {
                if (image.isClosed() || image.isEndOfStream()) {
                    throw new IllegalStateException("the snapshot ended before its end marker");
                }
                idle.idle();
            }
        }
        return decode(bytes.toByteArray(), settings, engine, slots, ledger);
    }

    static State decode(byte[] bytes, ServiceSettings settings, MatchingEngine engine, GatewaySlots slots,
                        SessionLedger ledger) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            byte[] magic = in.readNBytes(MAGIC.length);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new IllegalStateException("the cluster's snapshot is not a fixmatch matching service's");
            }
            int version = in.readUnsignedByte();
            if (version < VERSION_1 || version > VERSION) {
                throw new IllegalStateException("the cluster's snapshot has format version " + version
                    + "; this release reads " + VERSION_1 + " to " + VERSION);
            }
            List<String> symbols = readNames(in);
            List<String> configured = settings.engine().symbols().stream().map(SymbolSpec::name).toList();
            if (!symbols.equals(configured)) {
                throw new IllegalStateException("symbols: the cluster's state was built with " + symbols
                    + ", this node is configured with " + configured);
            }
            List<String> owners = readNames(in);
            if (!owners.equals(settings.owners().subList(0, Math.min(owners.size(), settings.owners().size())))
                || owners.size() > settings.owners().size()) {
                throw new IllegalStateException("sessions: the cluster's state was built with " + owners
                    + ", this node is configured with " + settings.owners() + " (sessions may only be added at the"
                    + " end)");
            }
            long commandSequence = in.readLong();
            long endOfDayDeadline = in.readLong();
            long venueFingerprint = in.readLong();
            long engineTimerDeadline = version >= VERSION_2 ? in.readLong() : 0;
            int engineLength = in.readInt();
            byte[] engineBytes = in.readNBytes(engineLength);
            try (DataInputStream engineIn = new DataInputStream(new ByteArrayInputStream(engineBytes))) {
                EngineState.read(engine, engineIn);
            }
            int slotCount = in.readUnsignedShort();
            if (slotCount > slots.maxGateways()) {
                throw new IllegalStateException("cluster.maxGateways: the cluster's state has " + slotCount
                    + " gateway slots, this node is configured with " + slots.maxGateways());
            }
            for (int i = 1; i <= slotCount; i++) {
                readSlot(in, slots.slot(i), version);
            }
            long sessionTimerDeadline = 0;
            if (version >= VERSION) {
                ledger.read(in);
                sessionTimerDeadline = in.readLong();
            }
            return new State(commandSequence, endOfDayDeadline, venueFingerprint, engineTimerDeadline,
                sessionTimerDeadline);
        } catch (IOException e) {
            throw new UncheckedIOException("the cluster's snapshot cannot be read", e);
        }
    }

    private static void readSlot(DataInputStream in, GatewaySlot slot, int version) throws IOException {
        slot.gatewayId = in.readInt();
        slot.sessionId = in.readLong();
        slot.open = in.readUnsignedByte() != 0;
        slot.lastApplied = in.readLong();
        slot.egressSequence = in.readLong();
        slot.ignoredCommands = in.readLong();
        int[] owners = new int[in.readUnsignedShort()];
        for (int i = 0; i < owners.length; i++) {
            owners[i] = in.readInt();
        }
        slot.owners = owners;
        if (version >= VERSION) {
            slot.lastHeardNs = in.readLong();
            slot.incarnation = in.readLong();
            slot.pid = in.readLong();
            slot.fixPort = in.readInt();
            slot.adminPort = in.readInt();
        }
        slot.window.restore(in.readLong(), in.readLong());
        int batches = in.readInt();
        for (int i = 0; i < batches; i++) {
            byte[] batch = in.readNBytes(in.readInt());
            slot.window.add(new UnsafeBuffer(batch), 0, batch.length);
        }
    }

    private static List<String> readNames(DataInputStream in) throws IOException {
        int count = in.readUnsignedShort();
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(new String(in.readNBytes(in.readUnsignedByte()), StandardCharsets.US_ASCII));
        }
        return names;
    }
}
