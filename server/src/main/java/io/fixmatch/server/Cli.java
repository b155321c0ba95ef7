package io.fixmatch.server;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintWriter;

/**
 * The command lines of the server's programs (server, journal dump): a mistyped flag or value is one line that
 * names it and, when it looks like a known flag, suggests that one; exit status 2.
 */
public final class Cli {
    private Cli() {
    }

    public static CommandLine of(Object command) {
        CommandLine commandLine = new CommandLine(command);
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
