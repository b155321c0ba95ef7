package io.fixmatch.engine.config;

import java.util.Objects;

/**
 * One tradable symbol. Prices are integers in the symbol's price units (the FIX edge converts decimals using
 * {@code priceScale}, the number of decimal places one unit stands for) and must be multiples of the tick size;
 * quantities are integers and must be multiples of the lot size.
 *
 * @param name        the FIX Symbol (tag 55)
 * @param priceScale  decimal places of one price unit: 4 means 1 unit = 0.0001
 * @param tickSize    smallest price increment, in price units
 * @param lotSize     smallest quantity increment
 * @param maxPrice    largest accepted price, in price units
 * @param maxQuantity largest accepted order quantity
 */
public record SymbolSpec(String name, int priceScale, long tickSize, long lotSize, long maxPrice, long maxQuantity) {

    public SymbolSpec {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("symbol name is empty");
        }
        if (priceScale < 0 || priceScale > 9) {
            throw new IllegalArgumentException(name + ": priceScale must be 0..9, was " + priceScale);
        }
        if (tickSize <= 0 || lotSize <= 0 || maxPrice <= 0 || maxQuantity <= 0) {
            throw new IllegalArgumentException(name + ": tick, lot, maxPrice and maxQuantity must be positive");
        }
        // The engine sums price x quantity per order (for the average price): that sum must not overflow.
        try {
            Math.multiplyExact(maxPrice, maxQuantity);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(name + ": maxPrice x maxQuantity overflows a long", e);
        }
    }

    /** A symbol with common equity limits: prices up to 1,000,000.00 and orders up to 1,000,000 lots. */
    public static SymbolSpec of(String name, int priceScale, long tickSize, long lotSize) {
        long unitsPerWhole = 1;
        for (int i = 0; i < priceScale; i++) {
            unitsPerWhole *= 10;
        }
        return new SymbolSpec(name, priceScale, tickSize, lotSize, 1_000_000L * unitsPerWhole, 1_000_000L * lotSize);
    }
}
