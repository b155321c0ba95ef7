package io.fixmatch.journal;

import io.fixmatch.engine.config.SymbolSpec;
import net.openhft.chronicle.bytes.Bytes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of the journal. Each Chronicle Queue excerpt is one record:
 * <pre>
 *   u8 format version (2)   u8 record kind   payload
 * </pre>
 * Kinds:
 * <ul>
 *   <li>{@code COMMAND} (1): payload is the command in {@code CommandCodec} form (the same bytes as in the inbound
 *       ring, with the matching thread's timestamp). The operator's halts and resumes of a symbol are commands
 *       too (owner 0), so a replay halts and resumes exactly where the live server did. Version 1 records lack the
 *       command's inbound position (the sender's session epoch and MsgSeqNum); they are still read, the position
 *       as 0.</li>
 *   <li>{@code SYMBOLS} (2): the symbol table in force from here on (symbol ids index it), written whenever a
 *       server starts with a table the journal has not recorded yet: u16 count, then per symbol u8 name length,
 *       name (ASCII), u8 price scale, i64 tick size, i64 lot size, i64 max price, i64 max quantity.</li>
 *   <li>{@code OWNERS} (3, version 2): the session table in force from here on: owner id k (commands' owner) is the
 *       session of the k-th name (the client's CompID), written whenever a server starts with a table the journal has
 *       not recorded yet: u16 count, then per owner u8 name length, name (ASCII).</li>
 * </ul>
 * A reader refuses a version it does not know, explicitly, rather than guess. Versions 1 and 2 can follow each
 * other in one journal (a journal written by an older release, continued by this one).
 */
final class JournalFormat {
    static final int VERSION = 2;
    /** The oldest version this release reads. */
    static final int OLDEST_READABLE_VERSION = 1;
    static final int KIND_COMMAND = 1;
    static final int KIND_SYMBOLS = 2;
    static final int KIND_OWNERS = 3;

    private JournalFormat() {
    }

    static void writeSymbols(Bytes<?> bytes, List<SymbolSpec> symbols) {
        bytes.writeUnsignedByte(VERSION);
        bytes.writeUnsignedByte(KIND_SYMBOLS);
        bytes.writeUnsignedShort(symbols.size());
        for (SymbolSpec symbol : symbols) {
            byte[] name = symbol.name().getBytes(StandardCharsets.US_ASCII);
            bytes.writeUnsignedByte(name.length);
            bytes.write(name);
            bytes.writeUnsignedByte(symbol.priceScale());
            bytes.writeLong(symbol.tickSize());
            bytes.writeLong(symbol.lotSize());
            bytes.writeLong(symbol.maxPrice());
            bytes.writeLong(symbol.maxQuantity());
        }
    }

    static void writeOwners(Bytes<?> bytes, List<String> owners) {
        bytes.writeUnsignedByte(VERSION);
        bytes.writeUnsignedByte(KIND_OWNERS);
        bytes.writeUnsignedShort(owners.size());
        for (String owner : owners) {
            byte[] name = owner.getBytes(StandardCharsets.US_ASCII);
            bytes.writeUnsignedByte(name.length);
            bytes.write(name);
        }
    }

    /** Reads an OWNERS payload (after version and kind). */
    static List<String> readOwners(Bytes<?> bytes) {
        int count = bytes.readUnsignedShort();
        List<String> owners = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] name = new byte[bytes.readUnsignedByte()];
            bytes.read(name);
            owners.add(new String(name, StandardCharsets.US_ASCII));
        }
        return owners;
    }

    /**
     * Whether orders recorded under the session table {@code recorded} keep their owners under {@code current}
     * (owner id k is the k-th name, from 1): every recorded owner id keeps its session. Adding sessions at the end is
     * fine; removing, renaming or reordering would hand journaled orders to another session.
     */
    static String ownersIncompatibility(List<String> recorded, List<String> current) {
        for (int i = 0; i < recorded.size(); i++) {
            if (i >= current.size()) {
                return "session " + recorded.get(i) + " (owner id " + (i + 1) + ") is not in the config's sessions "
                    + current + "; the journal's sessions are " + recorded + ", and may only be added to at the end";
            }
            if (!recorded.get(i).equals(current.get(i))) {
                return "owner id " + (i + 1) + " is session " + recorded.get(i) + " in the journal but "
                    + current.get(i) + " in the config; the journal's sessions are " + recorded
                    + ", in that order, and may only be added to at the end";
            }
        }
        return null;
    }

    /** Reads a SYMBOLS payload (after version and kind). */
    static List<SymbolSpec> readSymbols(Bytes<?> bytes) {
        int count = bytes.readUnsignedShort();
        List<SymbolSpec> symbols = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] name = new byte[bytes.readUnsignedByte()];
            bytes.read(name);
            int priceScale = bytes.readUnsignedByte();
            long tick = bytes.readLong();
            long lot = bytes.readLong();
            long maxPrice = bytes.readLong();
            long maxQuantity = bytes.readLong();
            symbols.add(new SymbolSpec(new String(name, StandardCharsets.US_ASCII), priceScale, tick, lot, maxPrice,
                maxQuantity));
        }
        return symbols;
    }

    /**
     * Whether books built under {@code recorded} stay valid under {@code current}: every recorded symbol keeps its
     * id, name, scale, tick and lot. Adding symbols at the end, or changing limits, is fine.
     */
    static String incompatibility(List<SymbolSpec> recorded, List<SymbolSpec> current) {
        if (current.size() < recorded.size()) {
            return "the journal has " + recorded.size() + " symbols, the config only " + current.size();
        }
        for (int id = 0; id < recorded.size(); id++) {
            SymbolSpec was = recorded.get(id);
            SymbolSpec now = current.get(id);
            if (!was.name().equals(now.name()) || was.priceScale() != now.priceScale()
                || was.tickSize() != now.tickSize() || was.lotSize() != now.lotSize()) {
                return "symbol id " + id + " was " + was + " in the journal, is " + now + " in the config";
            }
        }
        return null;
    }
}
