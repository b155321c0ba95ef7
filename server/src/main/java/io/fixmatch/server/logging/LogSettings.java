package io.fixmatch.server.logging;

import java.nio.file.Path;

/**
 * Where the server's log files go and how they roll (the {@code log.*} keys).
 *
 * @param directory    the folder of {@code fixmatch.log} and its rolled, compressed predecessors; null: the data
 *                     folder's {@code logs/}
 * @param maxFileSize  a log file rolls when it reaches this size (logback's form: 100MB, 512KB, 1GB), and at
 *                     midnight UTC
 * @param maxHistory   days of rolled files kept
 * @param totalSizeCap the most all rolled files may take together; the oldest go first
 * @param configFile   a logback configuration replacing the built-in one, or null
 */
public record LogSettings(Path directory, String maxFileSize, int maxHistory, String totalSizeCap, Path configFile) {

    /** The log folder: {@link #directory()}, or {@code logs/} in the data folder. */
    public Path directoryUnder(Path dataDirectory) {
        return directory != null ? directory : dataDirectory.resolve("logs");
    }
}
