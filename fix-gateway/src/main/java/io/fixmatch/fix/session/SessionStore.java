package io.fixmatch.fix.session;

import io.fixmatch.engine.sequence.SequenceIndex;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

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
 *   <li>{@code seqnums}: a 32-byte memory-mapped file: the next MsgSeqNum to send, the next one expected (only
 *       counting a request once the engine's journal holds it, see {@link InboundSequence}), the reset epoch (how
 *       many times the sequence numbers were reset; 0 in files of older releases, which had 16 bytes), and the
 *       start (epoch ms) of the scheduled trading session the numbers were last reset for (0: none; files of older
 *       releases had 24 bytes);</li>
 *   <li>{@code messages/}: a Chronicle Queue of the application messages sent, so a ResendRequest can be answered
 *       after a restart. Excerpt: i64 MsgSeqNum, then either the message bytes (they start with '8'; no origin), or
 *       u8 1, i64 journal position, i32 ordinal (the engine event the message reports, see
 *       {@code ExecutionEvent#journalPosition}), then the message bytes. A record with MsgSeqNum 0 marks a sequence
 *       reset; a record with MsgSeqNum -1 and an origin (and no message) says every event up to that origin is
 *       stored (written at a clean stop, for the sessions that had no event lately). The origin of the last stored
 *       event report tells recovery which engine events the store holds: it is in the same excerpt as the report, so
 *       both survive a crash or neither does. Admin messages are not kept: a resend replaces them with a gap
 *       fill.</li>
 * </ul>
 * Not thread-safe: it belongs to its session's owning thread, and Chronicle's own single-thread checks enforce it
 * ({@link #claimOwnership()} moves them to the owner when a gateway thread takes the session over).
 */
public final class SessionStore implements AutoCloseable {
    private static final long RESET_MARKER = 0;
    /** A record that is no message: "the reports of every engine event up to this origin are stored". */
    private static final long STORED_THROUGH_MARKER = -1;
    /** After the MsgSeqNum: the message has an origin (an engine event). A FIX message starts with '8' instead. */
    private static final int WITH_ORIGIN = 1;
    private static final int ORIGIN_LENGTH = 1 + Long.BYTES + Integer.BYTES;
    private static final int SEQNUMS_LENGTH = 32;
    private static final int EPOCH = 16;
    private static final int TRADING_SESSION_START = 24;

    private final FileChannel seqnumFile;
    private final MappedByteBuffer seqnums;
    private final SingleChronicleQueue messages;
    private final ExcerptAppender appender;
    private final ExcerptTailer tailer;
    /**
     * Where each stored message is, for resends, as runs: messages with consecutive sequence numbers stored at
     * consecutive Chronicle indexes form one run (first sequence number, first index, count). A new run starts only
     * after an admin message (not stored) or a new journal cycle, so the index grows rarely and storing a message
     * allocates nothing.
     */
    private final SequenceIndex index = new SequenceIndex();
    /** The origin of the last event report stored (journal position 0: none yet). */
    private long lastOriginPosition;
    private int lastOriginOrdinal;

    public SessionStore(Path directory) {
        try {
            Files.createDirectories(directory);
            seqnumFile = FileChannel.open(directory.resolve("seqnums"), StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE);
            seqnums = seqnumFile.map(FileChannel.MapMode.READ_WRITE, 0, SEQNUMS_LENGTH); // extends a shorter file
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
        tailer = messages.createTailer();
        rebuildIndex();
    }

    /** The calling thread becomes the one allowed to use the store (Chronicle checks it on every use). */
    public void claimOwnership() {
        appender.singleThreadedCheckReset();
        tailer.singleThreadedCheckReset();
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

    /** How many times the sequence numbers were reset: it tells apart the requests of different resets. */
    public long epoch() {
        return seqnums.getLong(EPOCH);
    }

    /** The start (epoch ms) of the scheduled trading session the numbers were last reset for; 0: none. */
    public long tradingSessionStart() {
        return seqnums.getLong(TRADING_SESSION_START);
    }

    /**
     * A {@link #reset()} at the start of the scheduled trading session starting at {@code startMs}, recorded after
     * the reset itself: a crash in between resets again at the next start, which changes nothing.
     */
    public void resetForTradingSession(long startMs) {
        reset();
        seqnums.putLong(TRADING_SESSION_START, startMs);
    }

    /**
     * Both sequences back to 1, a new epoch, and the sent messages forgotten (Logon with ResetSeqNumFlag=Y). The
     * origin of the last stored event report is kept: it is about the engine's events, not the sequence numbers.
     */
    public void reset() {
        nextSenderSeqNum(1);
        nextTargetSeqNum(1);
        seqnums.putLong(EPOCH, epoch() + 1);
        try (DocumentContext dc = appender.writingDocument()) {
            dc.wire().bytes().writeLong(RESET_MARKER);
        }
        clearIndex();
    }

    /**
     * A cluster that owns the sessions decides the epoch (its sequence resets): this store, a cache of the session
     * here, takes it, forgetting what it held of another epoch.
     */
    public void adoptEpoch(long epoch) {
        if (epoch != epoch()) {
            reset();
            seqnums.putLong(EPOCH, epoch);
        }
    }

    /** Keeps a sent application message for resends (a failed write leaves nothing behind). */
    public void storeSent(long seqNum, byte[] message, int offset, int length) {
        storeSent(seqNum, message, offset, length, 0, 0);
    }

    /**
     * Keeps a sent application message for resends, with the origin of the engine event it reports (journal
     * position 0: none), in one excerpt: after a crash the store holds both or neither.
     */
    public void storeSent(long seqNum, byte[] message, int offset, int length, long originPosition, int originOrdinal) {
        long index;
        DocumentContext dc = appender.writingDocument();
        try {
            Bytes<?> bytes = dc.wire().bytes();
            bytes.writeLong(seqNum);
            if (originPosition != 0) {
                bytes.writeUnsignedByte(WITH_ORIGIN);
                bytes.writeLong(originPosition);
                bytes.writeInt(originOrdinal);
            }
            bytes.write(message, offset, length);
            index = dc.index();
        } catch (RuntimeException | Error e) {
            dc.rollbackOnClose(); // never a half-written message: a resend would send it
            throw e;
        } finally {
            dc.close();
        }
        index(seqNum, index);
        if (originPosition != 0) {
            lastOriginPosition = originPosition;
            lastOriginOrdinal = originOrdinal;
        }
    }

    /**
     * Whether the store already holds the report of the engine event with this origin: events reach a session in
     * origin order, so every event at or before the last stored one is held.
     */
    public boolean holdsEvent(long originPosition, int originOrdinal) {
        return originPosition < lastOriginPosition
            || (originPosition == lastOriginPosition && originOrdinal <= lastOriginOrdinal);
    }

    /**
     * Records that the reports of every engine event up to journal position {@code position} (all its events) are
     * stored: a clean stop says so once the last events are stored, so that recovery may start from a snapshot up to
     * there even for a session that had no event since.
     */
    public void markStoredThrough(long position) {
        if (position < lastOriginPosition
            || (position == lastOriginPosition && lastOriginOrdinal == Integer.MAX_VALUE)) {
            return; // already known
        }
        try (DocumentContext dc = appender.writingDocument()) {
            Bytes<?> bytes = dc.wire().bytes();
            bytes.writeLong(STORED_THROUGH_MARKER);
            bytes.writeUnsignedByte(WITH_ORIGIN);
            bytes.writeLong(position);
            bytes.writeInt(Integer.MAX_VALUE);
        }
        lastOriginPosition = position;
        lastOriginOrdinal = Integer.MAX_VALUE;
    }

    /**
     * A journal position through which the store holds the report of every engine event it will ever get, or 0 if
     * it holds none and has no mark (a new or pre-#14 store). After a mark, the mark's position; after a report, the
     * position before the report's (that command's later events may be missing).
     */
    public long storedThroughPosition() {
        if (lastOriginPosition == 0 || lastOriginOrdinal == Integer.MAX_VALUE) {
            return lastOriginPosition;
        }
        return lastOriginPosition - 1;
    }

    /** The origin of the last event report stored, for logs: journal position (0: none) and ordinal. */
    /** The journal position of the last engine event whose report is stored (0: none). */
    public long lastOriginPosition() {
        return lastOriginPosition;
    }

    /** The ordinal of the last engine event whose report is stored. */
    public int lastOriginOrdinal() {
        return lastOriginOrdinal;
    }

    public String lastOrigin() {
        return lastOriginPosition == 0 ? "none" : "0x" + Long.toHexString(lastOriginPosition) + "/" + lastOriginOrdinal;
    }

    /** The smallest stored sequence number >= {@code seqNum}, or -1 if there is none. */
    public long nextStoredAtOrAfter(long seqNum) {
        return index.nextAtOrAfter(seqNum);
    }

    /** The largest stored sequence number <= {@code seqNum} (since the last reset), or -1 if there is none. */
    public long previousStoredAtOrBefore(long seqNum) {
        return index.previousAtOrBefore(seqNum);
    }

    /** Reads the stored message with this sequence number into {@code target}; returns its length. */
    public int readStored(long seqNum, byte[] target) {
        long index = indexOf(seqNum);
        if (index < 0 || !tailer.moveToIndex(index)) {
            throw new IllegalStateException("stored message " + seqNum + " missing (index " + index + ")");
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            Bytes<?> bytes = dc.wire().bytes();
            bytes.readLong();
            if (bytes.peekUnsignedByte() == WITH_ORIGIN) {
                bytes.readSkip(ORIGIN_LENGTH);
            }
            int length = (int) bytes.readRemaining();
            bytes.read(target, 0, length);
            return length;
        }
    }

    private long indexOf(long seqNum) {
        return index.indexOf(seqNum);
    }

    private void index(long seqNum, long queueIndex) {
        index.add(seqNum, queueIndex);
    }

    private void clearIndex() {
        index.clear();
    }

    private void rebuildIndex() {
        tailer.toStart();
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return;
                }
                Bytes<?> bytes = dc.wire().bytes();
                long seqNum = bytes.readLong();
                if (seqNum == RESET_MARKER) {
                    clearIndex();
                } else if (seqNum == STORED_THROUGH_MARKER) {
                    bytes.readSkip(1);
                    lastOriginPosition = bytes.readLong();
                    lastOriginOrdinal = bytes.readInt();
                } else {
                    index(seqNum, dc.index());
                    if (bytes.readRemaining() > ORIGIN_LENGTH && bytes.peekUnsignedByte() == WITH_ORIGIN) {
                        bytes.readSkip(1);
                        lastOriginPosition = bytes.readLong();
                        lastOriginOrdinal = bytes.readInt();
                    }
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
