package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;

/**
 * Messages a session received above the expected MsgSeqNum, kept to be processed in order once the gap before them is
 * filled (FIX: a message that arrives too high is queued while the missing ones are requested).
 *
 * <p>Bounded: at most {@link #MAX_MESSAGES} messages and {@code capacityBytes} bytes; a message beyond that is not
 * kept, which loses nothing: the session's ResendRequest asks for everything from the gap on (EndSeqNo 0), so a
 * conformant client resends it. The bound is large enough for a client that comes back after a few seconds away at a
 * few thousand messages a second (QuickFIX/J keeps numbering what its application sends while it is disconnected and
 * goes on sending new messages while it resends those): with a small bound the messages sent during each resend were
 * not kept, each resend ended in a new gap, and under load the session chased its gaps for good. The storage is
 * allocated at the first use (only a session with a gap pays for it) and reused; adding and taking allocate nothing
 * after that. One owner thread, as its session.
 */
final class QueuedMessages {
    static final int MAX_MESSAGES = 4_096; // adding and taking scan the queue: a bound that keeps a full drain in milliseconds

    private final int capacityBytes;
    private long[] seqNums;
    private int[] starts;
    private int[] lengths;
    private byte[] bytes;
    private FixMessage taken;
    private int count;
    private int used;
    private int notKept;

    QueuedMessages(int capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    int size() {
        return count;
    }

    /** Messages not kept since the queue was last empty (to log the first of a run only). */
    int notKept() {
        return notKept;
    }

    /**
     * Keeps a copy of a parsed message numbered {@code seqNum}; false if it is not kept (full, or that number is
     * already queued: the first one stays).
     */
    boolean add(long seqNum, FixMessage message) {
        int free = count == 0 ? capacityBytes : capacityBytes - used;
        if (indexOf(seqNum) >= 0 || count == MAX_MESSAGES || message.length() > free) {
            notKept++;
            return false;
        }
        if (bytes == null) {
            bytes = new byte[capacityBytes];
            seqNums = new long[MAX_MESSAGES];
            starts = new int[MAX_MESSAGES];
            lengths = new int[MAX_MESSAGES];
            taken = new FixMessage();
        }
        if (count == 0) {
            used = 0; // the space of messages taken is reused once none is left
            notKept = 0;
        }
        System.arraycopy(message.buffer(), message.offset(), bytes, used, message.length());
        seqNums[count] = seqNum;
        starts[count] = used;
        lengths[count] = message.length();
        used += message.length();
        count++;
        return true;
    }

    /**
     * Removes and returns the queued message numbered {@code seqNum}, parsed (valid until the next {@link #add} or
     * {@link #take}), after dropping every queued message below it (a gap fill or reset skipped them); null if there is none.
     */
    FixMessage take(long seqNum) {
        for (int i = count - 1; i >= 0; i--) {
            if (seqNums[i] < seqNum) {
                remove(i);
            }
        }
        int index = indexOf(seqNum);
        if (index < 0) {
            return null;
        }
        int result = FixParser.parse(bytes, starts[index], lengths[index], taken);
        if (result != FixParser.OK) {
            throw new IllegalStateException("a queued message no longer parses: " + result);
        }
        remove(index);
        return taken;
    }

    void clear() {
        count = 0;
        used = 0;
        notKept = 0;
    }

    private int indexOf(long seqNum) {
        for (int i = 0; i < count; i++) {
            if (seqNums[i] == seqNum) {
                return i;
            }
        }
        return -1;
    }

    private void remove(int index) {
        count--;
        seqNums[index] = seqNums[count];
        starts[index] = starts[count];
        lengths[index] = lengths[count];
    }
}
