package io.fixmatch.journal;

import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.MatchingEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The folder of book snapshots beside the journal ({@link EngineSnapshot} files, named by the journal index they
 * cover): finds the newest one that reads back whole, writes a new one, keeps the newest {@value #KEPT}.
 */
final class SnapshotDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotDirectory.class);
    private static final int KEPT = 2;

    private final Path directory;

    SnapshotDirectory(Path directory) {
        this.directory = directory;
    }

    /**
     * The newest snapshot that reads back whole and covers no record after {@code latest}, or null; damaged ones are
     * reported and passed over, later ones reported and passed over.
     */
    EngineSnapshot.Header newestReadable(long latest) {
        for (Path file : filesNewestFirst()) {
            try {
                EngineSnapshot.Header header = EngineSnapshot.readHeader(file);
                if (header.journalIndex() <= latest) {
                    return header;
                }
                LOG.info("passing over snapshot {}: the session stores may lack reports of the commands it covers"
                    + " (stored through 0x{} only), which a replay from an earlier point re-derives", file.getFileName(),
                    Long.toHexString(latest));
            } catch (JournalException e) {
                LOG.warn("ignoring snapshot {}: {}", file, e.getMessage());
            }
        }
        return null;
    }

    /** Writes the engine's books as of journal record {@code journalIndex}, then drops all but the newest few. */
    Path write(long journalIndex, List<SymbolSpec> symbols, List<String> owners, MatchingEngine engine)
        throws IOException {
        Path file = EngineSnapshot.write(directory, journalIndex, symbols, owners, engine);
        List<Path> snapshots = filesNewestFirst();
        for (int i = KEPT; i < snapshots.size(); i++) {
            Files.deleteIfExists(snapshots.get(i));
        }
        return file;
    }

    /** The snapshot files, newest (the latest journal index) first; none if the folder does not exist. */
    List<Path> filesNewestFirst() {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().endsWith(EngineSnapshot.SUFFIX))
                .sorted((a, b) -> b.getFileName().toString().compareTo(a.getFileName().toString()))
                .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
