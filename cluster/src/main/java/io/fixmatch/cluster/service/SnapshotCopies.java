package io.fixmatch.cluster.service;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Each cluster snapshot's bytes also as a file of the node's, {@code snapshot-<log position>.bin} (written whole or
 * not at all: a temporary file renamed), the newest {@link #KEPT} kept. The cluster's own copy is in the node's
 * archive; this one lets ops read the state a snapshot holds, and shows every node wrote the same bytes at the same
 * position. A copy that cannot be written is logged and does not stop the snapshot.
 */
final class SnapshotCopies {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotCopies.class);
    static final int KEPT = 3;

    private SnapshotCopies() {
    }

    static void write(Path directory, long logPosition, byte[] bytes) {
        try {
            Files.createDirectories(directory);
            Path target = directory.resolve(String.format("snapshot-%016d.bin", logPosition));
            Path temporary = directory.resolve(target.getFileName() + ".tmp");
            Files.write(temporary, bytes);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            List<Path> copies;
            try (Stream<Path> files = Files.list(directory)) {
                copies = files.filter(file -> file.getFileName().toString().endsWith(".bin"))
                    .sorted(Comparator.reverseOrder()).toList();
            }
            for (Path old : copies.subList(Math.min(KEPT, copies.size()), copies.size())) {
                Files.deleteIfExists(old);
            }
        } catch (IOException e) {
            LOG.error("could not write the copy of the snapshot at log position {} into {}", logPosition, directory, e);
        }
    }
}
