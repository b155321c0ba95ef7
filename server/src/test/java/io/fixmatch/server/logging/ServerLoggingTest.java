package io.fixmatch.server.logging;

import io.fixmatch.server.ServerProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's logging under a flood: the log files roll by size, INFO lines may be dropped (no thread waits for
 * them), WARN and ERROR lines never are.
 */
class ServerLoggingTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aFloodRollsTheFilesAndKeepsEveryWarnAndError() throws Exception {
        Path logs = dir.resolve("logs");
        try (ServerProcesses processes = new ServerProcesses(dir)) {
            Process flood = processes.startMain(LogFlood.class.getName(), Map.of(), logs.toString());
            assertEquals(0, processes.awaitExit(flood), processes.output(flood));
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(logs)) {
            files = list.sorted().toList();
        }
        assertTrue(files.stream().filter(f -> f.getFileName().toString().endsWith(".log.gz")).count() >= 2,
            "rolled by size: " + files);
        assertTrue(files.stream().noneMatch(f -> f.getFileName().toString().endsWith(".tmp")),
            "every rolled file compressed before the stop (a .tmp is one whose compression was cut off): " + files);

        long warn = 0;
        long error = 0;
        long info = 0;
        for (Path file : files) {
            try (BufferedReader lines = reader(file)) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    warn += line.contains(" WARN  [flood-") && line.contains("flood-warn") ? 1 : 0;
                    error += line.contains(" ERROR [flood-") && line.contains("flood-error") ? 1 : 0;
                    info += line.contains("flood-info") ? 1 : 0;
                }
            }
        }
        long perLevel = (long) LogFlood.THREADS * LogFlood.LINES_PER_THREAD / LogFlood.WARN_EVERY;
        long infoSent = (long) LogFlood.THREADS * LogFlood.LINES_PER_THREAD - 2 * perLevel;
        assertEquals(perLevel, warn, "WARN lines written");
        assertEquals(perLevel, error, "ERROR lines written");
        assertTrue(info > 0 && info < infoSent,
            "the flood must overflow the queue (else this test proves nothing): " + info + " of " + infoSent
                + " INFO lines written");
    }

    private static BufferedReader reader(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        if (file.getFileName().toString().endsWith(".gz")) {
            in = new GZIPInputStream(in);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }
}
