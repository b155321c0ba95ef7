package io.fixmatch.server;

import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * A command-line tool in the server's jar that reads a data folder the server wrote (the journal dump, the book at a
 * past instant): its output streams, the configuration the server ran with, its one-line errors named after the
 * command.
 */
abstract class ServerTool implements Callable<Integer> {
    final PrintStream out;
    final PrintStream err;

    ServerTool(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The configuration file the user named; null: the embedded defaults. */
    abstract Path configFile();

    /** Does the tool's work with the server's configuration; returns the exit status. */
    abstract int run(ServerConfig config);

    @Override
    public final Integer call() {
        ServerConfig config;
        try {
            config = config(configFile());
        } catch (ConfigException e) {
            return fail(2, "bad configuration: " + e.getMessage());
        }
        return run(config);
    }

    /** Parses the arguments and runs; returns the exit status (2 for bad arguments). */
    int execute(String... args) {
        return Cli.of(this, out, err).execute(args);
    }

    /** The configuration file given (null: the embedded defaults), with the FIXMATCH_... variables applied. */
    private static ServerConfig config(Path file) {
        return ServerConfig.read(ConfigKeys.fileOrEmbedded(file, System.getenv(), List.of()));
    }

    /** Prints {@code command-name: message} to the error stream; returns {@code status}. */
    int fail(int status, String message) {
        err.println(getClass().getAnnotation(Command.class).name() + ": " + message);
        return status;
    }
}
