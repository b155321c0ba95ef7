package io.fixmatch.journal;

import io.fixmatch.engine.sequence.SequenceIndex;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.file.Path;

/**
 * A cluster node's copy of one session's numbered outbound messages: every MsgSeqNum the cluster gave the session,
 * in order, each with its kind (opaque here: the cluster module defines them), the log's time when it was numbered,
 * and its bytes (empty for a number whose message is never resent). Every node writes the same records at the same
 * log position, so any node that leads can answer a ResendRequest: the gateway that sent the messages may be gone.
 *
 * <p>Excerpt: {@code i32 epoch, i64 seqNum, u8 kind, i64 log time (epoch ns), bytes}. The epoch counts the session's
 * sequence resets; within one, numbers are consecutive, so the in-memory index is a few runs (a new one at each reset
 * and each new file of the queue), rebuilt at start by reading every excerpt's header. Appends are idempotent: a node
 * replaying the log after its snapshot passes over the numbers it holds. Files roll by the log's clock.
 *
 * <p>One thread (the node's service thread) writes and reads it.
 */
public final class SessionMessageLog implements AutoCloseable {
    /** Bytes before a message's own: epoch, number, kind, log time. */
    public static final int HEADER_LENGTH = Integer.BYTES + Long.BYTES + 1 + Long.BYTES;

    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final ExcerptTailer tailer;
    /** Runs of consecutive numbers of the last epoch at consecutive indexes: first number, first index, count. */
    private final SequenceIndex runs = new SequenceIndex();
    private int lastEpoch = -1;
    private long lastSeqNum;

    private SessionMessageLog(SingleChronicleQueue queue) {
        this.queue = queue;
        this.appender = queue.createAppender();
        this.tailer = queue.createTailer();
        rebuildIndex();
    }

    /** Opens (or creates) the log in {@code directory}; {@code logClockMs} decides which file an append goes to. */
    public static SessionMessageLog open(Path directory, TimeProvider logClockMs) {
        try {
            return new SessionMessageLog(SingleChronicleQueueBuilder.single(directory.toFile())
                .rollCycle(RollCycles.FAST_DAILY)
                .timeProvider(logClockMs)
                .build());
        } catch (Exception e) { // Chronicle throws checked exceptions undeclared (a folder that is no queue)
            throw new JournalException("cannot open the session messages at " + directory + ": " + e, e);
        }
    }

    /** The epoch of the last number held (-1: none). */
    public int lastEpoch() {
        return lastEpoch;
    }

    /** The last number held in {@link #lastEpoch()} (0: none). */
    public long lastSeqNum() {
        return lastSeqNum;
    }

    /** Whether this number (or a later one) is held already: a replay passes over it. */
    public boolean holds(int epoch, long seqNum) {
        return epoch < lastEpoch || (epoch == lastEpoch && seqNum <= lastSeqNum);
    }

    /**
     * Appends a numbered message unless it is held already; a failure leaves nothing behind (rolled back) and is
     * thrown. Returns whether it was appended.
     */
    public boolean append(int epoch, long seqNum, int kind, long logTimeNanos, DirectBuffer message, int offset,
                          int length) {
        if (holds(epoch, seqNum)) {
            return false;
        }
        long index;
        DocumentContext dc = appender.writingDocument();
        try {
            Bytes<?> bytes = dc.wire().bytes();
            bytes.writeInt(epoch);
            bytes.writeLong(seqNum);
            bytes.writeUnsignedByte(kind);
            bytes.writeLong(logTimeNanos);
            for (int i = 0; i < length; i++) {
                bytes.writeByte(message.getByte(offset + i));
            }
            index = dc.index();
        } catch (RuntimeException | Error e) {
            dc.rollbackOnClose();
            throw e;
        } finally {
            dc.close();
        }
        index(epoch, seqNum, index);
        return true;
    }

    /** The first number of {@code epoch} held (a node seeded from a snapshot lacks the earlier ones), or -1. */
    public long firstHeld(int epoch) {
        return epoch == lastEpoch ? runs.first() : -1;
    }

    /**
     * Reads message {@code seqNum} of the last epoch: its header fields into {@code header} (kind, log time) and its
     * bytes into {@code target} at {@code offset}. Returns the message's length, or -1 if it is not held.
     */
    public int read(long seqNum, Header header, MutableDirectBuffer target, int offset) {
        long index = indexOf(seqNum);
        if (index < 0 || !tailer.moveToIndex(index)) {
            return -1;
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            Bytes<?> bytes = dc.wire().bytes();
            bytes.readInt();
            bytes.readLong();
            header.kind = bytes.readUnsignedByte();
            header.logTimeNanos = bytes.readLong();
            int length = (int) bytes.readRemaining();
            for (int i = 0; i < length; i++) {
                target.putByte(offset + i, bytes.readByte());
            }
            return length;
        }
    }

    /** A read message's header. */
    public static final class Header {
        public int kind;
        public long logTimeNanos;
    }

    private long indexOf(long seqNum) {
        return runs.indexOf(seqNum);
    }

    private void index(int epoch, long seqNum, long index) {
        if (epoch != lastEpoch) {
            runs.clear();
            lastEpoch = epoch;
        }
        lastSeqNum = seqNum;
        runs.add(seqNum, index);
    }

    private void rebuildIndex() {
        tailer.toStart();
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return;
                }
                Bytes<?> bytes = dc.wire().bytes();
                int epoch = bytes.readInt();
                long seqNum = bytes.readLong();
                index(epoch, seqNum, dc.index());
            }
        }
    }

    /** The thread that calls from now on becomes the one Chronicle allows. */
    public void claimOwnership() {
        appender.singleThreadedCheckReset();
        tailer.singleThreadedCheckReset();
    }

    @Override
    public void close() {
        appender.close();
        tailer.close();
        queue.close();
    }
}
