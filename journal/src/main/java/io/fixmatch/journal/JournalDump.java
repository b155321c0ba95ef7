package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.config.SymbolSpec;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Prints a journal in human-readable form, one line per record, with its Chronicle index and the command's
 * timestamp, for ops and audits. Opens the queue read-only: safe on the journal of a running server.
 *
 * <pre>usage: JournalDump JOURNAL_DIR</pre>
 */
public final class JournalDump {
    private JournalDump() {
    }

    public static void main(String[] args) {
        if (args.length != 1 || args[0].equals("--help") || args[0].equals("-h")) {
            System.err.println("usage: journal-dump JOURNAL_DIR   (prints one line per journal record)");
            System.exit(args.length == 1 ? 0 : 2);
        }
        Path directory = Path.of(args[0]);
        if (!Files.isDirectory(directory)) {
            System.err.println("journal-dump: no journal directory at " + directory);
            System.exit(1);
        }
        try {
            long commands = dump(directory, System.out);
            System.err.println(commands + " commands");
        } catch (JournalException e) {
            System.err.println("journal-dump: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Writes one line per record to {@code out}; returns the number of commands. */
    public static long dump(Path directory, PrintStream out) {
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(directory.toFile()).readOnly(true)
            .build()) {
            return new JournalReader().readAll(queue, new JournalReader.Visitor() {
                private List<SymbolSpec> symbols = List.of();

                @Override
                public void onSymbols(long index, List<SymbolSpec> recorded) {
                    symbols = recorded;
                    out.println(JournalReader.describe(index) + " SYMBOLS " + recorded);
                }

                @Override
                public void onCommand(long index, Command command) {
                    int id = command.symbolId();
                    String symbol = id >= 0 && id < symbols.size() ? symbols.get(id).name() : "#" + id;
                    out.println(JournalReader.describe(index) + " " + time(command.timestampNanos()) + " " + symbol
                        + " " + command);
                }
            });
        }
    }

    private static String time(long epochNanos) {
        return Instant.ofEpochSecond(0, epochNanos).toString();
    }
}
