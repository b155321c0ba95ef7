package io.fixmatch.server;

import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.journal.JournalDump;
import io.fixmatch.journal.JournalException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code fixmatch-journal}: prints a journal, one line per record (or one JSON object per command), with decimal
 * prices and the sessions' CompIDs: owners are numbered 1, 2, ... in the order of the configuration's
 * {@code sessions} list, as the server numbers them, so give the configuration the server ran with.
 */
@Command(name = "fixmatch-journal", mixinStandardHelpOptions = true, versionProvider = ServerMain.Version.class,
    sortOptions = false,
    description = "Prints a fixmatch journal, one line per record: index, time (UTC), session, command, symbol, side,"
        + " order type, time in force, quantity @ price, ClOrdID. Read-only: safe on a running server's journal.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
        "0:printed (the number of commands goes to stderr)",
        "1:no journal there, or a record that cannot be read",
        "2:bad arguments or configuration"})
public final class JournalDumpMain extends ServerTool {
    @Parameters(arity = "0..1", paramLabel = "JOURNAL_DIR",
        description = "the journal folder (default: journal/ in the configuration's data.dir)")
    private Path directory;

    @Option(names = "--config", paramLabel = "FILE",
        description = "the server's configuration: its session list names the owners, its data.dir holds the"
            + " journal (default: the embedded defaults)")
    private Path configFile;

    @Option(names = "--json", description = "one JSON object per command: index, time, type, session, symbol, side,"
        + " ordType, tif, price, qty, clOrdId, origClOrdId (keys that do not apply are left out)")
    private boolean json;

    JournalDumpMain(PrintStream out, PrintStream err) {
        super(out, err);
    }

    public static void main(String[] args) {
        System.exit(new JournalDumpMain(System.out, System.err).execute(args));
    }

    /** Runs the command with these streams; returns the exit status. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        return new JournalDumpMain(out, err).execute(args);
    }

    @Override
    Path configFile() {
        return configFile;
    }

    @Override
    int run(ServerConfig config) {
        Path journal = directory != null ? directory : config.journal().directory();
        if (!Files.isDirectory(journal)) {
            return fail(1, "no journal at " + journal);
        }
        List<String> sessions = config.sessions().stream().map(SessionConfig::clientCompId).toList();
        try {
            long commands = JournalDump.dump(journal, json ? JournalDump.Format.JSON : JournalDump.Format.TEXT,
                owner -> owner >= 1 && owner <= sessions.size() ? sessions.get(owner - 1) : "#" + owner, out);
            out.flush();
            err.println(commands + " commands");
            return 0;
        } catch (JournalException e) {
            return fail(1, e.getMessage());
        }
    }
}
