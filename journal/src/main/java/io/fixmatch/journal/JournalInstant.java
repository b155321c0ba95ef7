package io.fixmatch.journal;

import java.time.DateTimeException;
import java.time.Instant;

/**
 * A moment of a journal's history, as an audit names it. {@link AtIndex}: the state after every record whose journal
 * index is at or before it. {@link AtTime}: the state after every command journaled at or before it, by the command's
 * journal timestamp (stamped by the matching thread as it took the command, the {@code time} of the journal dump):
 * the journal's commands in their order up to, not including, the first one stamped later.
 */
public sealed interface JournalInstant {

    /** As of journal index {@code index} (Chronicle's, as the journal dump shows it). */
    record AtIndex(long index) implements JournalInstant {
        @Override
        public String toString() {
            return "journal index " + JournalReader.describe(index);
        }
    }

    /** As of {@code time} (UTC), to the nanosecond. */
    record AtTime(Instant time) implements JournalInstant {
        /** Nanoseconds since the epoch, as the journal stamps commands (saturated far beyond any journal). */
        public long epochNanos() {
            try {
                return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000_000L), time.getNano());
            } catch (ArithmeticException e) {
                return time.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
        }

        @Override
        public String toString() {
            return time.toString();
        }
    }

    /**
     * Reads what a person typed: a journal index in decimal or {@code 0x} hexadecimal (as the journal dump prints it),
     * or an ISO-8601 UTC time such as {@code 2026-11-23T14:03:07.123Z} (an offset like {@code +01:00} also names an
     * instant). Throws IllegalArgumentException with a sentence saying what was expected.
     */
    static JournalInstant parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        try {
            if (trimmed.startsWith("0x") || trimmed.startsWith("0X")) {
                return atIndex(Long.parseLong(trimmed.substring(2), 16));
            }
            if (!trimmed.isEmpty() && trimmed.chars().allMatch(Character::isDigit)) {
                return atIndex(Long.parseLong(trimmed));
            }
            return new AtTime(Instant.parse(trimmed));
        } catch (NumberFormatException | DateTimeException e) {
            throw new IllegalArgumentException("'" + text + "' is neither a journal index (decimal, or hexadecimal"
                + " after 0x) nor a UTC time like 2026-11-23T14:03:07.123Z");
        }
    }

    private static AtIndex atIndex(long index) {
        if (index < 0) {
            throw new NumberFormatException("negative");
        }
        return new AtIndex(index);
    }
}
