package io.fixmatch.journal;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Where the journal lives, how its files roll, and how many to keep.
 *
 * @param directory    the Chronicle Queue folder (created if missing); snapshots go to its {@code snapshots/}
 * @param rollCycle    the name of a Chronicle {@link RollCycles} constant: FAST_DAILY (default), FAST_HOURLY, ...
 *                     (TEST_SECONDLY, one file a second, exists for tests of rolling)
 * @param retainCycles journal files (roll cycles) to keep before the one holding the latest snapshot; older files
 *                     are deleted when the server stops. -1 keeps every file (recovery can then also replay the
 *                     whole history, not only from the snapshot).
 */
public record JournalConfig(Path directory, String rollCycle, int retainCycles) {
    public static final String DEFAULT_ROLL_CYCLE = "FAST_DAILY";
    public static final int KEEP_ALL = -1;

    public JournalConfig {
        if (directory == null) {
            throw new IllegalArgumentException("journal directory is required");
        }
        parseRollCycle(rollCycle);
        if (retainCycles < KEEP_ALL) {
            throw new IllegalArgumentException("retainCycles must be -1 (keep all) or >= 0, was " + retainCycles);
        }
    }

    public static JournalConfig at(Path directory) {
        return new JournalConfig(directory, DEFAULT_ROLL_CYCLE, KEEP_ALL);
    }

    Path snapshotDirectory() {
        return directory.resolve("snapshots");
    }

    RollCycle parsedRollCycle() {
        return parseRollCycle(rollCycle);
    }

    private static RollCycle parseRollCycle(String name) {
        String upper = name == null ? "" : name.toUpperCase(Locale.ROOT);
        if (upper.equals("TEST_SECONDLY")) {
            return TestRollCycles.TEST_SECONDLY;
        }
        try {
            return RollCycles.valueOf(upper);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown roll cycle '" + name + "' (e.g. FAST_DAILY, FAST_HOURLY,"
                + " TEN_MINUTELY, FIVE_MINUTELY)", e);
        }
    }
}
