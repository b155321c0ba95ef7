package io.fixmatch.it.crash;

import java.util.List;

/** The end of a process's output, for a failure message: the lines that say where it stood. */
final class OutputTail {
    private OutputTail() {
    }

    /** The last {@code count} lines of {@code output}. */
    static String of(String output, int count) {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }
}
