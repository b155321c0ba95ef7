package io.fixmatch.server;

import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.journal.BookAt;
import io.fixmatch.journal.JournalException;
import io.fixmatch.journal.JournalInstant;
import io.fixmatch.journal.PastBook;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code fixmatch-book-at}: one symbol's book as it was at a past instant (a journal index, or a UTC time), rebuilt
 * read-only from a data folder's snapshots and journal by the server's own matching engine ({@link BookAt}). For
 * audits and disputes; safe on the data folder of a running server.
 */
@Command(name = "fixmatch-book-at", mixinStandardHelpOptions = true, versionProvider = ServerMain.Version.class,
    sortOptions = false,
    description = "Prints the book of SYMBOL as it was at a past instant: after every journal record at or before a"
        + " journal index, or after every command journaled at or before a UTC time (the journal's timestamps)."
        + " Rebuilt from the newest snapshot at or before it and the journal, by the server's matching engine."
        + " Read-only: safe on a running server's data folder.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
        "0:printed",
        "1:no data folder or journal there, the instant is outside the journal, or a record cannot be read",
        "2:bad arguments (an unknown symbol, an instant that is neither an index nor a UTC time) or configuration"})
public final class BookAtMain extends ServerTool {
    @Parameters(index = "0", paramLabel = "SYMBOL", description = "the symbol, as configured")
    private String symbol;

    @Option(names = "--at", required = true, paramLabel = "INDEX|UTC_TIME", converter = InstantConverter.class,
        description = "a journal index, decimal or 0x hexadecimal as fixmatch-journal prints it (the book after"
            + " the records at or before it), or an ISO-8601 UTC time such as 2026-11-23T14:03:07.123Z (the book after"
            + " the commands journaled at or before it)")
    private JournalInstant at;

    @Option(names = "--data", paramLabel = "DIR",
        description = "the server's data folder (default: data.dir of the configuration)")
    private Path dataDirectory;

    @Option(names = "--config", paramLabel = "FILE",
        description = "the configuration the server ran with: its symbols, capacities and sessions (default: the"
            + " embedded defaults)")
    private Path configFile;

    @Option(names = "--json", description = "one JSON object: symbol, requested {index or time}, throughIndex, lastCommand {index,"
        + " time}, snapshot {file, index}, replayedCommands, halted, bids and asks (orders in priority order:"
        + " orderId, session, clOrdId, tif, price, quantity, leaves, filled)")
    private boolean json;

    BookAtMain(PrintStream out, PrintStream err) {
        super(out, err);
    }

    public static void main(String[] args) {
        System.exit(new BookAtMain(System.out, System.err).execute(args));
    }

    /** Runs the command with these streams; returns the exit status. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        return new BookAtMain(out, err).execute(args);
    }

    @Override
    Path configFile() {
        return configFile;
    }

    @Override
    int run(ServerConfig config) {
        if (dataDirectory != null) {
            config = config.withDataDirectory(dataDirectory);
        }
        if (!Files.isDirectory(config.dataDirectory())) {
            return fail(1, "no data folder at " + config.dataDirectory());
        }
        List<String> sessions = config.sessions().stream().map(SessionConfig::clientCompId).toList();
        BookAt bookAt = new BookAt(config.journal().directory(), config.engine(), sessions);
        PastBook book;
        try {
            book = bookAt.rebuild(symbol, at);
        } catch (IllegalArgumentException e) {
            return fail(2, e.getMessage());
        } catch (JournalException e) {
            return fail(1, e.getMessage());
        }
        out.print(json ? PastBookReport.json(book) : PastBookReport.text(book));
        out.flush();
        return 0;
    }

    /** {@code --at}: a journal index or a UTC time. */
    static final class InstantConverter implements ITypeConverter<JournalInstant> {
        @Override
        public JournalInstant convert(String value) {
            try {
                return JournalInstant.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
