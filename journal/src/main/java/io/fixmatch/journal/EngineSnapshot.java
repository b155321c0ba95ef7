package io.fixmatch.journal;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.engine.matching.RestingOrderView;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/**
 * The engine's whole state as of one journal record, so recovery can start there instead of at the journal's
 * beginning. File {@code snapshot-<index hex>.snap}, big-endian:
 * <pre>
 *   "FIXMATCH-SNAPSHOT" (ASCII)   u8 format version (2)
 *   i64 journal index of the last record included    i64 last order id    i64 last exec id
 *   u16 symbol count, then per symbol as in the journal's SYMBOLS record
 *   (version 2) u16 owner count + 1 (0: no session table known), then per owner as in the journal's OWNERS record
 *   i32 order count, then per resting order, in priority order (symbol, side, price level, time):
 *     i32 symbol id, u8 side, u8 time in force, i64 order id, i32 owner, u8 id length, ClOrdID bytes,
 *     i64 price, i64 order qty, i64 leaves, i64 cum, i64 cum notional
 *   (version 2) i32 owner count, then per owner: i32 owner, i64 inbound position of its last journaled command
 *   i64 CRC32 of everything before it
 * </pre>
 * Version 1 (no inbound positions) is still read.
 * Written to a temporary file, forced to disk, then renamed: a snapshot file is whole or absent.
 */
final class EngineSnapshot {
    static final String SUFFIX = ".snap";
    private static final byte[] MAGIC = "FIXMATCH-SNAPSHOT".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 2;
    private static final int VERSION_WITHOUT_INBOUND_POSITIONS = 1;

    /** What a snapshot file says, before it is applied to an engine. */
    record Header(Path file, long journalIndex, List<SymbolSpec> symbols, List<String> owners) {
    }

    private EngineSnapshot() {
    }

    static Path fileFor(Path directory, long journalIndex) {
        return directory.resolve(String.format("snapshot-%016x%s", journalIndex, SUFFIX));
    }

    /** Writes the engine's state as of journal record {@code journalIndex}; the engine must not be running. */
    static Path write(Path directory, long journalIndex, List<SymbolSpec> symbols, List<String> owners,
                      MatchingEngine engine) throws IOException {
        Files.createDirectories(directory);
        Path target = fileFor(directory, journalIndex);
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        CRC32 crc = new CRC32();
        try (OutputStream file = Files.newOutputStream(temporary);
             DataOutputStream out = new DataOutputStream(new CheckedOutputStream(new BufferedOutputStream(file), crc))) {
            out.write(MAGIC);
            out.writeByte(VERSION);
            out.writeLong(journalIndex);
            out.writeLong(engine.lastOrderId());
            out.writeLong(engine.lastExecId());
            out.writeShort(symbols.size());
            for (SymbolSpec symbol : symbols) {
                byte[] name = symbol.name().getBytes(StandardCharsets.US_ASCII);
                out.writeByte(name.length);
                out.write(name);
                out.writeByte(symbol.priceScale());
                out.writeLong(symbol.tickSize());
                out.writeLong(symbol.lotSize());
                out.writeLong(symbol.maxPrice());
                out.writeLong(symbol.maxQuantity());
            }
            out.writeShort(owners == null ? 0 : owners.size() + 1);
            for (String owner : owners == null ? List.<String>of() : owners) {
                byte[] name = owner.getBytes(StandardCharsets.US_ASCII);
                out.writeByte(name.length);
                out.write(name);
            }
            List<byte[]> orders = new ArrayList<>();
            for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
                for (Side side : new Side[] {Side.BUY, Side.SELL}) {
                    engine.forEachRestingOrder(symbol, side, order -> orders.add(encode(order)));
                }
            }
            out.writeInt(orders.size());
            for (byte[] order : orders) {
                out.write(order);
            }
            ByteArrayOutputStream positions = new ByteArrayOutputStream();
            DataOutputStream positionsOut = new DataOutputStream(positions);
            int[] owners = new int[1];
            engine.forEachInboundPosition((owner, position) -> {
                try {
                    positionsOut.writeInt(owner);
                    positionsOut.writeLong(position);
                    owners[0]++;
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            out.writeInt(owners[0]);
            out.write(positions.toByteArray());
            out.flush();
            out.writeLong(crc.getValue());
        }
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    private static byte[] encode(RestingOrderView order) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(96);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(order.symbolId());
            out.writeByte(order.side().ordinal());
            out.writeByte(order.timeInForce().ordinal());
            out.writeLong(order.orderId());
            out.writeInt(order.owner());
            ClientOrderId id = order.clientOrderId();
            out.writeByte(id.length());
            for (int i = 0; i < id.length(); i++) {
                out.writeByte(id.byteAt(i));
            }
            out.writeLong(order.price());
            out.writeLong(order.orderQuantity());
            out.writeLong(order.leavesQuantity());
            out.writeLong(order.cumQuantity());
            out.writeLong(order.cumNotional());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    /** Reads a snapshot's header; throws {@link JournalException} if the file is not a whole, valid snapshot. */
    static Header readHeader(Path file) {
        return read(file, null);
    }

    /** Puts the snapshot's state into a fresh engine (orders, then id counters). */
    static Header restore(Path file, MatchingEngine engine) {
        return read(file, engine);
    }

    private static Header read(Path file, MatchingEngine engine) {
        verifyChecksum(file);
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            byte[] magic = in.readNBytes(MAGIC.length);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new JournalException(file + " is not a fixmatch snapshot");
            }
            int version = in.readUnsignedByte();
            if (version != VERSION && version != VERSION_WITHOUT_INBOUND_POSITIONS) {
                throw new JournalException(file + " has snapshot format version " + version + "; this release reads "
                    + VERSION_WITHOUT_INBOUND_POSITIONS + " and " + VERSION);
            }
            long journalIndex = in.readLong();
            long lastOrderId = in.readLong();
            long lastExecId = in.readLong();
            int symbolCount = in.readUnsignedShort();
            List<SymbolSpec> symbols = new ArrayList<>(symbolCount);
            for (int i = 0; i < symbolCount; i++) {
                String name = new String(in.readNBytes(in.readUnsignedByte()), StandardCharsets.US_ASCII);
                symbols.add(new SymbolSpec(name, in.readUnsignedByte(), in.readLong(), in.readLong(), in.readLong(),
                    in.readLong()));
            }
            List<String> owners = null;
            if (version == VERSION) {
                int ownerCount = in.readUnsignedShort() - 1;
                if (ownerCount >= 0) {
                    owners = new ArrayList<>(ownerCount);
                    for (int i = 0; i < ownerCount; i++) {
                        owners.add(new String(in.readNBytes(in.readUnsignedByte()), StandardCharsets.US_ASCII));
                    }
                }
            }
            if (engine != null) {
                int orders = in.readInt();
                ClientOrderId id = new ClientOrderId();
                for (int i = 0; i < orders; i++) {
                    int symbol = in.readInt();
                    Side side = Side.fromOrdinal(in.readUnsignedByte());
                    TimeInForce tif = TimeInForce.fromOrdinal(in.readUnsignedByte());
                    long orderId = in.readLong();
                    int owner = in.readInt();
                    byte[] idBytes = in.readNBytes(in.readUnsignedByte());
                    id.copyFrom(idBytes, 0, idBytes.length);
                    engine.restoreRestingOrder(symbol, side, orderId, owner, id, tif, in.readLong(), in.readLong(),
                        in.readLong(), in.readLong(), in.readLong());
                }
                if (version == VERSION) {
                    int owners = in.readInt();
                    for (int i = 0; i < owners; i++) {
                        engine.restoreInboundPosition(in.readInt(), in.readLong());
                    }
                }
                engine.finishRestore(lastOrderId, lastExecId);
            }
            return new Header(file, journalIndex, symbols, owners);
        } catch (EOFException e) {
            throw new JournalException(file + " is truncated", e);
        } catch (IOException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new JournalException(file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** The last 8 bytes are the CRC32 of all before them. */
    private static void verifyChecksum(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < MAGIC.length + 8) {
                throw new JournalException(file + " is truncated");
            }
            ByteBuffer trailer = ByteBuffer.allocate(8);
            while (trailer.hasRemaining() && channel.read(trailer, size - 8 + trailer.position()) > 0) {
                // read the 8 trailer bytes
            }
            if (trailer.flip().getLong() != crcOfPrefix(file, size - 8)) {
                throw new JournalException(file + " fails its checksum (damaged or incomplete)");
            }
        } catch (IOException e) {
            throw new JournalException(file + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static long crcOfPrefix(Path file, long length) throws IOException {
        CRC32 crc = new CRC32();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            byte[] buffer = new byte[65536];
            long remaining = length;
            while (remaining > 0) {
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
                if (read < 0) {
                    throw new EOFException();
                }
                crc.update(buffer, 0, read);
                remaining -= read;
            }
        }
        return crc.getValue();
    }
}
