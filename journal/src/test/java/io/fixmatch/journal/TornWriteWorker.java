package io.fixmatch.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.File;

/**
 * A child process for {@link JournalTailTest}: starts writing a journal record and dies (halt: no cleanup at all)
 * half way through it, leaving a torn last entry, as a crash in the middle of an append would.
 *
 * <pre>args: JOURNAL_DIR</pre>
 */
public final class TornWriteWorker {
    private TornWriteWorker() {
    }

    public static void main(String[] args) {
        SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(new File(args[0])).build();
        ExcerptAppender appender = queue.createAppender();
        DocumentContext dc = appender.writingDocument();
        Bytes<?> bytes = dc.wire().bytes();
        bytes.writeUnsignedByte(JournalFormat.VERSION);
        bytes.writeUnsignedByte(JournalFormat.KIND_COMMAND);
        bytes.writeLong(0x0102030405060708L);
        System.out.println("TORN");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
