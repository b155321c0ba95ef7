package io.fixmatch.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One server per data folder: an exclusive lock on {@code <data>/fixmatch.lock} (an OS file lock, released by the
 * kernel when the process dies, kill -9 included, so a stale file never blocks a restart), holding the owner's pid
 * for the message a second server prints before it exits. Two servers on one folder would hand out the same order
 * and execution ids into one journal and one set of sequence numbers.
 */
final class DataFolderLock implements AutoCloseable {
    static final String FILE_NAME = "fixmatch.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataFolderLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the folder's lock or throws {@link IllegalStateException} naming the folder and the holder's pid. */
    static DataFolderLock acquire(Path dataDirectory) {
        Path file = dataDirectory.resolve(FILE_NAME);
        FileChannel channel = null;
        try {
            Files.createDirectories(dataDirectory);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held by this very process (another server in the same JVM)
            }
            if (lock == null) {
                String holder = holderOf(file);
                channel.close();
                throw new IllegalStateException("the data folder " + dataDirectory.toAbsolutePath() + " is in use by"
                    + " another fixmatch server (pid " + holder + "; lock " + file.toAbsolutePath() + ")");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
                0);
            channel.force(false);
            return new DataFolderLock(channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new IllegalStateException("cannot lock the data folder " + dataDirectory.toAbsolutePath() + ": " + e,
                e);
        }
    }

    private static String holderOf(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
            return text.isEmpty() ? "unknown" : text;
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing
            }
        }
    }

    /** Releases the lock (the file stays; its content is only read while the lock is held). */
    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // the channel's close releases it as well
        }
        closeQuietly(channel);
    }
}
