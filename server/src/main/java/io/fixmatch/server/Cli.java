package io.fixmatch.server;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The command lines of the server's programs (server, journal dump): a mistyped flag or value is one line that
 * names it and, when it looks like a known flag, suggests that one; exit status 2.
 */
public final class Cli {
    private Cli() {
    }

    public static CommandLine of(Object command) {
        return of(command, System.out, System.err);
    }

    /** Help and version to {@code out}, errors to {@code err}. */
    public static CommandLine of(Object command, PrintStream out, PrintStream err) {
        CommandLine commandLine = new CommandLine(command);
        commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        commandLine.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        commandLine.setParameterExceptionHandler(Cli::refuse);
        return commandLine;
    }

    private static int refuse(ParameterException e, String[] args) {
        CommandLine commandLine = e.getCommandLine();
        PrintWriter err = commandLine.getErr();
        String suggestion = "";
        if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            suggestion = Spelling.closest(unmatched.getUnmatched().get(0), commandLine.getCommandSpec().optionsMap()
                .keySet()).map(flag -> " (did you mean " + flag + "?)").orElse("");
        }
        err.println(commandLine.getCommandName() + ": " + e.getMessage() + suggestion + "; --help lists the options");
        err.flush();
        return commandLine.getCommandSpec().exitCodeOnInvalidInput();
    }
}
