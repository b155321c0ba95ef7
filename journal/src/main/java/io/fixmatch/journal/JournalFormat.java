package io.fixmatch.journal;

import io.fixmatch.engine.config.SymbolSpec;
import net.openhft.chronicle.bytes.Bytes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of the journal. Each Chronicle Queue excerpt is one record:
 * <pre>
 *   u8 format version (1)   u8 record kind   payload
 * </pre>
 * Kinds:
 * <ul>
 *   <li>{@code COMMAND} (1): payload is the command in {@code CommandCodec} form (the same bytes as in the inbound
 *       ring, with the matching thread's timestamp). The operator's halts and resumes of a symbol are commands
 *       too (owner 0), so a replay halts and resumes exactly where the live server did.</li>
 *   <li>{@code SYMBOLS} (2): the symbol table in force from here on (symbol ids index it), written whenever a
 *       server starts with a table the journal has not recorded yet: u16 count, then per symbol u8 name length,
 *       name (ASCII), u8 price scale, i64 tick size, i64 lot size, i64 max price, i64 max quantity.</li>
 * </ul>
 * A reader refuses a version it does not know, explicitly, rather than guess.
 */
final class JournalFormat {
    static final int VERSION = 1;
    static final int KIND_COMMAND = 1;
    static final int KIND_SYMBOLS = 2;

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
