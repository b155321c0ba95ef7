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
 * @param snapshotEveryCommands a snapshot after every this many journaled commands, taken by the matching thread
 *                     in the command stream (0: only when the server stops cleanly); bounds what recovery replays
 * @param minFreeBytes commands are refused while the journal's file system has less free space than this (checked
 *                     every {@code ChroniclePersistence.SPACE_CHECK_EVERY} appends, and at every append while short):
 *                     a memory-mapped write on a full disk faults asynchronously and can leave a damaged record
 */
public record JournalConfig(Path directory, String rollCycle, int retainCycles, long snapshotEveryCommands,
                            long minFreeBytes) {
    public static final String DEFAULT_ROLL_CYCLE = "FAST_DAILY";
    public static final int KEEP_ALL = -1;
    public static final long DEFAULT_SNAPSHOT_EVERY = 1_000_000;
    public static final long DEFAULT_MIN_FREE_BYTES = 64L << 20;

    public JournalConfig {
        if (directory == null) {
            throw new IllegalArgumentException("journal directory is required");
        }
        parseRollCycle(rollCycle);
        if (retainCycles < KEEP_ALL) {
            throw new IllegalArgumentException("retainCycles must be -1 (keep all) or >= 0, was " + retainCycles);
        }
        if (minFreeBytes < 0) {
            throw new IllegalArgumentException("minFreeBytes must be 0 or more, was " + minFreeBytes);
        }
        if (snapshotEveryCommands < 0) {
            throw new IllegalArgumentException("snapshotEveryCommands must be 0 (only at a clean stop) or more, was "
                + snapshotEveryCommands);
        }
    }

    /** Snapshots every {@link #DEFAULT_SNAPSHOT_EVERY} commands. */
    public JournalConfig(Path directory, String rollCycle, int retainCycles) {
        this(directory, rollCycle, retainCycles, DEFAULT_SNAPSHOT_EVERY, DEFAULT_MIN_FREE_BYTES);
    }

    public static JournalConfig at(Path directory) {
        return new JournalConfig(directory, DEFAULT_ROLL_CYCLE, KEEP_ALL);
    }

    public JournalConfig withSnapshotEvery(long commands) {
        return new JournalConfig(directory, rollCycle, retainCycles, commands, minFreeBytes);
    }

    public JournalConfig withMinFreeBytes(long bytes) {
        return new JournalConfig(directory, rollCycle, retainCycles, snapshotEveryCommands, bytes);
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
