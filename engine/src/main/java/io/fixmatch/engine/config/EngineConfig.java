package io.fixmatch.engine.config;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Capacity and symbols of one engine. All memory is taken at start from these numbers; running out is a reject
 * ({@code BOOK_FULL}), never a resize on the hot path.
 *
 * @param symbols        the symbols; a symbol's id is its index in this list
 * @param maxOrders      live orders across all books at once
 * @param maxPriceLevels non-empty price levels across all books and sides at once
 */
public record EngineConfig(List<SymbolSpec> symbols, int maxOrders, int maxPriceLevels) {

    /** Keeps the hash indexes at most half full; see {@code LinearProbingTable}. */
    public static final int MAX_CAPACITY = 1 << 28;

    public EngineConfig {
        symbols = List.copyOf(symbols);
        if (symbols.isEmpty()) {
            throw new IllegalArgumentException("at least one symbol is required");
        }
        Set<String> names = new HashSet<>();
        for (SymbolSpec symbol : symbols) {
            if (!names.add(symbol.name())) {
                throw new IllegalArgumentException("symbol listed twice: " + symbol.name());
            }
        }
        if (maxOrders <= 0 || maxOrders > MAX_CAPACITY) {
            throw new IllegalArgumentException("maxOrders must be 1.." + MAX_CAPACITY + ", was " + maxOrders);
        }
        if (maxPriceLevels <= 0 || maxPriceLevels > MAX_CAPACITY) {
            throw new IllegalArgumentException("maxPriceLevels must be 1.." + MAX_CAPACITY + ", was " + maxPriceLevels);
        }
    }
}
