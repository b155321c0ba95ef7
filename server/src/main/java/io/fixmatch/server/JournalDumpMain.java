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
import java.util.concurrent.Callable;

/**
 * {@code fixmatch-journal}: prints a journal, one line per record (or one JSON object per command), with decimal
 * prices and the sessions' CompIDs. The journal does not record the session table: owners are numbered 1, 2, ...
 * in the order of the configuration's {@code sessions} list, as the server numbers them, so give the
 * configuration the server ran with.
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
public final class JournalDumpMain implements Callable<Integer> {
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

    private final PrintStream out;
    private final PrintStream err;

    JournalDumpMain(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** Runs the command with these streams; returns the exit status. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        return Cli.of(new JournalDumpMain(out, err), out, err).execute(args);
    }

    @Override
    public Integer call() {
        ServerConfig config;
        try {
            config = ServerConfig.read(configFile == null ? ConfigKeys.embedded(System.getenv(), List.of())
                : ConfigKeys.load(configFile, System.getenv(), List.of()));
        } catch (ConfigException e) {
            err.println("fixmatch-journal: bad configuration: " + e.getMessage());
            return 2;
        }
        Path journal = directory != null ? directory : config.journal().directory();
        if (!Files.isDirectory(journal)) {
            err.println("fixmatch-journal: no journal at " + journal);
            return 1;
        }
        List<String> sessions = config.sessions().stream().map(SessionConfig::clientCompId).toList();
        try {
            long commands = JournalDump.dump(journal, json ? JournalDump.Format.JSON : JournalDump.Format.TEXT,
                owner -> owner >= 1 && owner <= sessions.size() ? sessions.get(owner - 1) : "#" + owner, out);
            out.flush();
            err.println(commands + " commands");
            return 0;
        } catch (JournalException e) {
            err.println("fixmatch-journal: " + e.getMessage());
            return 1;
        }
    }
}
