package io.fixmatch.journal;

import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.EngineState;
import io.fixmatch.engine.matching.MatchingEngine;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
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
 *   i64 journal index of the last record included
 *   u16 symbol count, then per symbol as in the journal's SYMBOLS record
 *   u16 owner count + 1 (0: no session table known), then per owner as in the journal's OWNERS record
 *   the engine's state in its own format ({@link EngineState}: halted symbols, id counters, resting orders, inbound
 *     positions, session settings, prices, journal times)
 *   i64 CRC32 of everything before it
 * </pre>
 * Version 1 (this module wrote the orders itself, with enum ordinals; no session table, no inbound positions, no
 * halts) is still read. Written to a temporary file, forced to disk, then renamed: a snapshot file is whole or absent.
 */
final class EngineSnapshot {
    static final String SUFFIX = ".snap";
    private static final byte[] MAGIC = "FIXMATCH-SNAPSHOT".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 2;
    private static final int VERSION_1 = 1;

    /** What a snapshot file says, before it is applied to an engine; {@code owners} null if it has none. */
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
            EngineState.write(engine, out);
            out.flush();
            out.writeLong(crc.getValue());
        }
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return target;
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
            if (version == VERSION_1) {
                return readVersion1(file, in, engine);
            }
            if (version != VERSION) {
                throw new JournalException(file + " has snapshot format version " + version + "; this release reads "
                    + VERSION_1 + " and " + VERSION);
            }
            long journalIndex = in.readLong();
            List<SymbolSpec> symbols = readSymbols(in);
            List<String> owners = null;
            int ownerCount = in.readUnsignedShort() - 1;
            if (ownerCount >= 0) {
                owners = new ArrayList<>(ownerCount);
                for (int i = 0; i < ownerCount; i++) {
                    owners.add(new String(in.readNBytes(in.readUnsignedByte()), StandardCharsets.US_ASCII));
                }
            }
            if (engine != null) {
                EngineState.read(engine, in);
            }
            return new Header(file, journalIndex, symbols, owners);
        } catch (EOFException e) {
            throw new JournalException(file + " is truncated", e);
        } catch (IOException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new JournalException(file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** The format of releases before #14: ids in the header, orders with enum ordinals, no owners or positions. */
    private static Header readVersion1(Path file, DataInputStream in, MatchingEngine engine) throws IOException {
        long journalIndex = in.readLong();
        long lastOrderId = in.readLong();
        long lastExecId = in.readLong();
        List<SymbolSpec> symbols = readSymbols(in);
        if (engine != null) {
            EngineState.readJournalFormat1Orders(engine, in, lastOrderId, lastExecId);
        }
        return new Header(file, journalIndex, symbols, null);
    }

    private static List<SymbolSpec> readSymbols(DataInputStream in) throws IOException {
        int symbolCount = in.readUnsignedShort();
        List<SymbolSpec> symbols = new ArrayList<>(symbolCount);
        for (int i = 0; i < symbolCount; i++) {
            String name = new String(in.readNBytes(in.readUnsignedByte()), StandardCharsets.US_ASCII);
            symbols.add(new SymbolSpec(name, in.readUnsignedByte(), in.readLong(), in.readLong(), in.readLong(),
                in.readLong()));
        }
        return symbols;
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
