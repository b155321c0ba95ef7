package io.fixmatch.fix.codec;

/** Reads FIX decimal values (Price, Qty) into integers of a given number of decimal places, allocation-free. */
public final class FixDecimals {
    /** Returned for a value that is not a plain decimal or has more decimals than allowed. */
    public static final long INVALID = Long.MIN_VALUE;

    private FixDecimals() {
    }

    /**
     * Parses an optionally signed decimal ({@code 150}, {@code 150.1}, {@code -0.25}) into units of
     * {@code scale} decimal places: "150.1" at scale 2 is 15010. Trailing zeros beyond the scale are accepted
     * ("150.100" at scale 2); any other extra precision, exponents, or more than 18 significant digits give
     * {@link #INVALID}.
     */
    public static long parse(byte[] buffer, int offset, int length, int scale) {
        if (length <= 0) {
            return INVALID;
        }
        int i = offset;
        int end = offset + length;
        boolean negative = buffer[i] == '-';
        if (negative) {
            i++;
        }
        long value = 0;
        int digits = 0;
        int fractionDigits = -1;
        boolean sawDigit = false;
        for (; i < end; i++) {
            byte b = buffer[i];
            if (b == '.') {
                if (fractionDigits >= 0) {
                    return INVALID;
                }
                fractionDigits = 0;
                continue;
            }
            if (b < '0' || b > '9') {
                return INVALID;
            }
            sawDigit = true;
            if (fractionDigits >= 0) {
                if (fractionDigits == scale) {
                    if (b != '0') {
                        return INVALID;
                    }
                    continue;
                }
                fractionDigits++;
            }
            if (value != 0 || b != '0') {
                digits++;
            }
            if (digits > 18) {
                return INVALID;
            }
            value = value * 10 + (b - '0');
        }
        if (!sawDigit) {
            return INVALID;
        }
        for (int k = Math.max(fractionDigits, 0); k < scale; k++) {
            if (value > Long.MAX_VALUE / 10) {
                return INVALID;
            }
            value *= 10;
        }
        return negative ? -value : value;
    }
}
