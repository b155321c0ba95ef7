package io.fixmatch.client;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/** The client programs' command lines: a wrong option or value is named in one line, with the likely intended one. */
final class ClientCommandLine {
    static final int BAD_ARGUMENTS = 2;

    private ClientCommandLine() {
    }

    static int execute(Object command, String[] args) {
        return new CommandLine(command).setParameterExceptionHandler(ClientCommandLine::refuse).execute(args);
    }

    private static int refuse(ParameterException e, String[] args) {
        String name = e.getCommandLine().getCommandName();
        StringBuilder line = new StringBuilder(name).append(": ").append(e.getMessage());
        if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            line.append(" (did you mean ").append(String.join(" or ", unmatched.getSuggestions())).append("?)");
        }
        e.getCommandLine().getErr().println(line.append("; ").append(name).append(" --help lists the options"));
        return BAD_ARGUMENTS;
    }
}
