package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;

/**
 * Messages a session received above the expected MsgSeqNum, kept to be processed in order once the gap before them is
 * filled (FIX: a message that arrives too high is queued while the missing ones are requested).
 *
 * <p>Bounded: at most {@link #MAX_MESSAGES} messages and {@code capacityBytes} bytes; a message beyond that is not
 * kept, which loses nothing: the session's ResendRequest asks for everything from the gap on (EndSeqNo 0), so a
 * conformant client resends it. The storage is allocated at the first use and reused; adding and taking allocate
 * nothing after that. One owner thread, as its session.
 */
final class QueuedMessages {
    static final int MAX_MESSAGES = 64;

    private final int capacityBytes;
    private final long[] seqNums = new long[MAX_MESSAGES];
    private final int[] starts = new int[MAX_MESSAGES];
    private final int[] lengths = new int[MAX_MESSAGES];
    private byte[] bytes;
    private FixMessage taken;
    private int count;
    private int used;

    QueuedMessages(int capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    int size() {
        return count;
    }

    /**
     * Keeps a copy of a parsed message numbered {@code seqNum}; false if it is not kept (full, or that number is
     * already queued: the first one stays).
     */
    boolean add(long seqNum, FixMessage message) {
        int free = count == 0 ? capacityBytes : capacityBytes - used;
        if (indexOf(seqNum) >= 0 || count == MAX_MESSAGES || message.length() > free) {
            return false;
        }
        if (bytes == null) {
            bytes = new byte[capacityBytes];
            taken = new FixMessage();
        }
        if (count == 0) {
            used = 0; // the space of messages taken is reused once none is left
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
