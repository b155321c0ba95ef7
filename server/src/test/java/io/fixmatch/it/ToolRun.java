package io.fixmatch.it;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What a command-line tool of the server's jar printed and returned, run in this JVM with captured streams. */
record ToolRun(int status, String out, String err) {

    /** A tool's {@code run(out, err, args)}, e.g. {@code JournalDumpMain::run}. */
    @FunctionalInterface
    interface Tool {
        int run(PrintStream out, PrintStream err, String... args);
    }

    static ToolRun of(Tool tool, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = tool.run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new ToolRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
