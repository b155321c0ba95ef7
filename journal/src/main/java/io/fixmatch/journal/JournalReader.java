package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.config.SymbolSpec;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * Reads a journal from its first record to its last, decoding each one for a {@link Visitor}. Used by recovery
 * and by the dump tool, so both read the journal exactly the same way.
 *
 * <p>A record that cannot be read (unknown version or kind, damaged command) stops the read with a
 * {@link JournalException} naming its index: the journal is never silently skipped over. A record a crashed writer
 * did not finish is not visible to readers at all (Chronicle Queue publishes an excerpt only once complete).
 */
final class JournalReader {

    interface Visitor {
        void onSymbols(long index, List<SymbolSpec> symbols);

        /** The session table (owner id k is the k-th name) in force from this record on. */
        default void onOwners(long index, List<String> owners) {
        }

        /** The command (its journal position set to {@code index}) is reused after this returns. */
        void onCommand(long index, Command command);

        /** Asked after each record: true stops the read there (a search that found what it looked for). */
        default boolean hasEnough() {
            return false;
        }
    }

    private final byte[] payload = new byte[CommandCodec.MAX_LENGTH];
    private final UnsafeBuffer payloadBuffer = new UnsafeBuffer(payload);
    private final Command command = new Command();

    /** Reads every record; returns the number of commands read. */
    long readAll(SingleChronicleQueue queue, Visitor visitor) {
        return readAfter(queue, NO_INDEX, visitor);
    }

    /** Before any index: read from the first record. */
    static final long NO_INDEX = Long.MIN_VALUE;

    /**
     * Reads every record after the one at {@code index} ({@link #NO_INDEX}: all); returns the number of commands
     * read. The record at {@code index} must exist.
     */
    long readAfter(SingleChronicleQueue queue, long index, Visitor visitor) {
        return read(queue, index, false, Long.MAX_VALUE, visitor);
    }

    /**
     * Reads the records from the one at {@code first} ({@link #NO_INDEX}: the journal's first), which must exist, up to
     * and including index {@code through} (the journal's end if it comes first); returns the number of commands read.
     */
    long readRange(SingleChronicleQueue queue, long first, long through, Visitor visitor) {
        return read(queue, first, true, through, visitor);
    }

    private long read(SingleChronicleQueue queue, long index, boolean fromIndex, long through, Visitor visitor) {
        long commands = 0;
        ExcerptTailer tailer = queue.createTailer();
        try {
            if (index != NO_INDEX) {
                if (!tailer.moveToIndex(index)) {
                    throw new JournalException("the journal has no record " + describe(index)
                        + (fromIndex ? "" : " (the snapshot's last record)") + ": it was cut or its files deleted");
                }
                if (!fromIndex) {
                    try (DocumentContext dc = tailer.readingDocument()) {
                        if (!dc.isPresent() || dc.index() != index) {
                            throw new JournalException("the journal's record " + describe(index) + " cannot be read");
                        }
                    }
                }
            }
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent() || dc.index() > through) {
                        return commands;
                    }
                    if (readRecord(dc.index(), dc.wire().bytes(), visitor)) {
                        commands++;
                    }
                }
                if (visitor.hasEnough()) {
                    return commands;
                }
            }
        } finally {
            tailer.close();
        }
    }

    private boolean readRecord(long index, Bytes<?> bytes, Visitor visitor) {
        if (bytes.readRemaining() < 2) {
            throw damaged(index, "record of " + bytes.readRemaining() + " bytes");
        }
        int version = bytes.readUnsignedByte();
        if (version < JournalFormat.OLDEST_READABLE_VERSION || version > JournalFormat.VERSION) {
            throw new JournalException("journal record " + describe(index) + " has format version " + version
                + "; this release reads versions " + JournalFormat.OLDEST_READABLE_VERSION + " to "
                + JournalFormat.VERSION);
        }
        int kind = bytes.readUnsignedByte();
        switch (kind) {
            case JournalFormat.KIND_COMMAND -> {
                int length = (int) bytes.readRemaining();
                if (length > payload.length) {
                    throw damaged(index, "command of " + length + " bytes");
                }
                bytes.read(payload, 0, length);
                boolean decoded = version == 1 ? CommandCodec.decodeVersion1(payloadBuffer, 0, length, command)
                    : CommandCodec.decode(payloadBuffer, 0, length, command);
                if (!decoded) {
                    throw damaged(index, "undecodable command");
                }
                command.journalPosition(index);
                visitor.onCommand(index, command);
                return true;
            }
            case JournalFormat.KIND_SYMBOLS -> {
                visitor.onSymbols(index, JournalFormat.readSymbols(bytes));
                return false;
            }
            case JournalFormat.KIND_OWNERS -> {
                visitor.onOwners(index, JournalFormat.readOwners(bytes));
                return false;
            }
            default -> throw damaged(index, "unknown record kind " + kind);
        }
    }

    private static JournalException damaged(long index, String what) {
        return new JournalException("journal record " + describe(index) + " is damaged: " + what);
    }

    static String describe(long index) {
        return "0x" + Long.toHexString(index);
    }
}
