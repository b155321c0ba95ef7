package io.fixmatch.fix.app;

import io.fixmatch.engine.config.SymbolSpec;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** The symbols by FIX Symbol(55) text and by engine id, looked up from raw bytes without allocating. */
public final class SymbolTable {
    private final byte[][] names;
    private final int[] priceScales;

    public SymbolTable(List<SymbolSpec> symbols) {
        names = new byte[symbols.size()][];
        priceScales = new int[symbols.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = symbols.get(i).name().getBytes(StandardCharsets.US_ASCII);
            priceScales[i] = symbols.get(i).priceScale();
        }
    }

    /** The id of the symbol spelled by these bytes, or -1. A linear scan: symbol lists are short. */
    public int idOf(byte[] buffer, int offset, int length) {
        for (int id = 0; id < names.length; id++) {
            byte[] name = names[id];
            if (name.length == length && equalBytes(name, buffer, offset)) {
                return id;
            }
        }
        return -1;
    }

    public boolean contains(int symbolId) {
        return symbolId >= 0 && symbolId < names.length;
    }

    public byte[] name(int symbolId) {
        return names[symbolId];
    }

    public int priceScale(int symbolId) {
        return priceScales[symbolId];
    }

    private static boolean equalBytes(byte[] name, byte[] buffer, int offset) {
        for (int i = 0; i < name.length; i++) {
            if (name[i] != buffer[offset + i]) {
                return false;
            }
        }
        return true;
    }
}
