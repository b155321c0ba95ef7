package io.fixmatch.journal;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Where the journal lives and how its files roll.
 *
 * @param directory the Chronicle Queue folder (created if missing)
 * @param rollCycle the name of a Chronicle {@link RollCycles} constant: FAST_DAILY (default), FAST_HOURLY, ...
 */
public record JournalConfig(Path directory, String rollCycle) {
    public static final String DEFAULT_ROLL_CYCLE = "FAST_DAILY";

    public JournalConfig {
        if (directory == null) {
            throw new IllegalArgumentException("journal directory is required");
        }
        parseRollCycle(rollCycle);
    }

    public static JournalConfig at(Path directory) {
        return new JournalConfig(directory, DEFAULT_ROLL_CYCLE);
    }

    RollCycle parsedRollCycle() {
        return parseRollCycle(rollCycle);
    }

    private static RollCycle parseRollCycle(String name) {
        try {
            return RollCycles.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("unknown roll cycle '" + name + "' (e.g. FAST_DAILY, FAST_HOURLY,"
                + " TEN_MINUTELY, FIVE_MINUTELY)", e);
        }
    }
}
