package io.fixmatch.fix.session;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.LongArrayList;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What a FIX session must remember across restarts, in its own folder:
 * <ul>
 *   <li>{@code seqnums}: a 16-byte memory-mapped file, the next MsgSeqNum to send and the next one expected;</li>
 *   <li>{@code messages/}: a Chronicle Queue of the application messages sent (excerpt: i64 MsgSeqNum, then the
 *       message bytes; a record with MsgSeqNum 0 marks a sequence reset), so a ResendRequest can be answered after a
 *       restart. Admin messages are not kept: a resend replaces them with a gap fill.</li>
 * </ul>
 * Not thread-safe: its session's lock serializes all use (hence Chronicle's single-thread check is off).
 */
public final class SessionStore implements AutoCloseable {
    private static final long RESET_MARKER = 0;

    private final FileChannel seqnumFile;
    private final MappedByteBuffer seqnums;
    private final SingleChronicleQueue messages;
    private final ExcerptAppender appender;
    private final ExcerptTailer tailer;
    /** Sequence numbers of stored messages, ascending, and their Chronicle indexes, for resends. */
    private final LongArrayList storedSeqNums = new LongArrayList();
    private final LongArrayList storedIndexes = new LongArrayList();

    public SessionStore(Path directory) {
        try {
            Files.createDirectories(directory);
            seqnumFile = FileChannel.open(directory.resolve("seqnums"), StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE);
            seqnums = seqnumFile.map(FileChannel.MapMode.READ_WRITE, 0, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the session store at " + directory, e);
        }
        if (seqnums.getLong(0) == 0) {
            seqnums.putLong(0, 1);
            seqnums.putLong(8, 1);
        }
        messages = SingleChronicleQueueBuilder.single(directory.resolve("messages").toFile())
            .rollCycle(RollCycles.FAST_DAILY)
            .build();
        appender = messages.createAppender();
        appender.singleThreadedCheckDisabled(true);
        tailer = messages.createTailer();
        tailer.singleThreadedCheckDisabled(true);
        rebuildIndex();
    }

    public long nextSenderSeqNum() {
        return seqnums.getLong(0);
    }

    public long nextTargetSeqNum() {
        return seqnums.getLong(8);
    }

    public void nextSenderSeqNum(long value) {
        seqnums.putLong(0, value);
    }

    public void nextTargetSeqNum(long value) {
        seqnums.putLong(8, value);
    }

    /** Both sequences back to 1 and the sent messages forgotten (Logon with ResetSeqNumFlag=Y). */
    public void reset() {
        nextSenderSeqNum(1);
        nextTargetSeqNum(1);
        try (DocumentContext dc = appender.writingDocument()) {
            dc.wire().bytes().writeLong(RESET_MARKER);
        }
        storedSeqNums.clear();
        storedIndexes.clear();
    }

    /** Keeps a sent application message for resends. */
    public void storeSent(long seqNum, byte[] message, int offset, int length) {
        long index;
        try (DocumentContext dc = appender.writingDocument()) {
            Bytes<?> bytes = dc.wire().bytes();
            bytes.writeLong(seqNum);
            bytes.write(message, offset, length);
            index = dc.index();
        }
        storedSeqNums.addLong(seqNum);
        storedIndexes.addLong(index);
    }

    /** The position, among stored messages, of the first with a sequence number >= {@code seqNum}. */
    public int firstStoredAtOrAfter(long seqNum) {
        int low = 0;
        int high = storedSeqNums.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (storedSeqNums.getLong(mid) < seqNum) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    public int storedCount() {
        return storedSeqNums.size();
    }

    public long storedSeqNumAt(int position) {
        return storedSeqNums.getLong(position);
    }

    /** Reads the stored message at {@code position} into {@code target}; returns its length. */
    public int readStored(int position, byte[] target) {
        if (!tailer.moveToIndex(storedIndexes.getLong(position))) {
            throw new IllegalStateException("stored message missing at index " + storedIndexes.getLong(position));
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            Bytes<?> bytes = dc.wire().bytes();
            bytes.readLong();
            int length = (int) bytes.readRemaining();
            bytes.read(target, 0, length);
            return length;
        }
    }

    private void rebuildIndex() {
        tailer.toStart();
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return;
                }
                long seqNum = dc.wire().bytes().readLong();
                if (seqNum == RESET_MARKER) {
                    storedSeqNums.clear();
                    storedIndexes.clear();
                } else {
                    storedSeqNums.addLong(seqNum);
                    storedIndexes.addLong(dc.index());
                }
            }
        }
    }

    @Override
    public void close() {
        seqnums.force();
        appender.close();
        tailer.close();
        messages.close();
        try {
            seqnumFile.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
