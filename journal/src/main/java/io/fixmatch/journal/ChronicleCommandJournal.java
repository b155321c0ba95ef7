package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.CommandJournal;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Consumer;

/**
 * The command journal on Chronicle Queue: one excerpt per command (see {@link JournalFormat}), written by the
 * matching thread, its only writer. An appended excerpt is in the memory-mapped queue file when
 * {@link #append} returns, so it survives the process being killed; it is not forced to the device (a power loss
 * or kernel crash can lose the last moments).
 */
public final class ChronicleCommandJournal implements CommandJournal {
    private static final Logger LOG = LoggerFactory.getLogger(ChronicleCommandJournal.class);

    private final SingleChronicleQueue queue;
    private final List<SymbolSpec> symbols;
    private final byte[] copyBuffer = new byte[CommandCodec.MAX_LENGTH];
    private List<SymbolSpec> lastRecordedSymbols;
    private ExcerptAppender appender;
    private boolean replayed;

    private ChronicleCommandJournal(SingleChronicleQueue queue, List<SymbolSpec> symbols) {
        this.queue = queue;
        this.symbols = List.copyOf(symbols);
    }

    /** Opens (or creates) the journal for an engine with these symbols. */
    public static ChronicleCommandJournal open(JournalConfig config, List<SymbolSpec> symbols) {
        SingleChronicleQueue queue;
        try {
            queue = SingleChronicleQueueBuilder.single(config.directory().toFile())
                .rollCycle(config.parsedRollCycle())
                .build();
        } catch (RuntimeException e) {
            throw new JournalException("cannot open the journal at " + config.directory() + ": " + e.getMessage(), e);
        }
        return new ChronicleCommandJournal(queue, symbols);
    }

    @Override
    public long replay(Consumer<Command> consumer) {
        if (replayed) {
            throw new IllegalStateException("the journal is replayed once, before appending");
        }
        replayed = true;
        long commands = new JournalReader().readAll(queue, new JournalReader.Visitor() {
            @Override
            public void onSymbols(long index, List<SymbolSpec> recorded) {
                String problem = JournalFormat.incompatibility(recorded, symbols);
                if (problem != null) {
                    throw new JournalException("the configured symbols do not match the journal (record "
                        + JournalReader.describe(index) + "): " + problem);
                }
                lastRecordedSymbols = recorded;
            }

            @Override
            public void onCommand(long index, Command command) {
                if (lastRecordedSymbols == null) {
                    throw new JournalException("journal record " + JournalReader.describe(index)
                        + " is a command before any symbol table");
                }
                consumer.accept(command);
            }
        });
        return commands;
    }

    /**
     * Chronicle appenders belong to one thread: the appender is made by the first append, on the matching thread,
     * which then records the symbol table if the journal does not hold this one yet.
     */
    private ExcerptAppender appender() {
        if (appender == null) {
            if (!replayed) {
                throw new IllegalStateException("replay() must run before the first append");
            }
            appender = queue.createAppender();
            if (!symbols.equals(lastRecordedSymbols)) {
                try (DocumentContext dc = appender.writingDocument()) {
                    JournalFormat.writeSymbols(dc.wire().bytes(), symbols);
                }
                lastRecordedSymbols = symbols;
                LOG.info("journal {}: recorded the symbol table ({} symbols)", queue.fileAbsolutePath(),
                    symbols.size());
            }
        }
        return appender;
    }

    @Override
    public void append(DirectBuffer encodedCommand, int offset, int length) {
        try (DocumentContext dc = appender().writingDocument()) {
            Bytes<?> bytes = dc.wire().bytes();
            bytes.writeUnsignedByte(JournalFormat.VERSION);
            bytes.writeUnsignedByte(JournalFormat.KIND_COMMAND);
            byte[] array = encodedCommand.byteArray();
            if (array != null) {
                bytes.write(array, (int) encodedCommand.wrapAdjustment() + offset, length);
            } else {
                encodedCommand.getBytes(offset, copyBuffer, 0, length);
                bytes.write(copyBuffer, 0, length);
            }
        }
    }

    /** The index the next record will have in Chronicle's numbering; for tests and tools. */
    public long lastIndex() {
        return queue.lastIndex();
    }

    @Override
    public void close() {
        if (appender != null) {
            appender.close();
        }
        queue.close();
    }
}
