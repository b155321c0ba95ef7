package io.fixmatch.it.acceptance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One acceptance test definition (a QuickFIX/J {@code .def} file) read into its steps, following the format as
 * QuickFIX/J's runner reads it: {@code #} comments; {@code iCONNECT} / {@code i2,CONNECT} connect client 1 / 2;
 * {@code I...} send; {@code E...} expect; {@code eDISCONNECT} / {@code e2,DISCONNECT} expect the server to close;
 * other lines (blank ones) are ignored. A client number before a comma selects the connection (default 1).
 */
record AcceptanceDefinition(String name, List<Step> steps) {
    private static final Pattern CONNECT = Pattern.compile("^i(\\d*),?CONNECT$");
    private static final Pattern DISCONNECT = Pattern.compile("^e(\\d*),?DISCONNECT$");
    private static final Pattern CLIENT_PREFIX = Pattern.compile("^[IE](\\d+),");

    enum Kind { CONNECT, SEND, EXPECT, EXPECT_DISCONNECT }

    /**
     * One step.
     *
     * @param line   line number in the file (1-based), the key of known failures
     * @param client connection number
     * @param text   for SEND and EXPECT, the line after its letter and client prefix
     */
    record Step(Kind kind, int line, int client, String text) {
        @Override
        public String toString() {
            return "line " + line + " " + kind + (client != 1 ? " client " + client : "")
                + (text.isEmpty() ? "" : " " + text.replace('\u0001', '|'));
        }
    }

    static AcceptanceDefinition read(String name, InputStream in) {
        List<Step> steps = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1))) {
            int lineNumber = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                Step step = step(line, lineNumber);
                if (step != null) {
                    steps.add(step);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name, e);
        }
        return new AcceptanceDefinition(name, List.copyOf(steps));
    }

    private static Step step(String line, int number) {
        if (line.matches("^[ \t]*#.*")) {
            return null;
        }
        if (line.startsWith("I") || line.startsWith("E")) {
            Kind kind = line.startsWith("I") ? Kind.SEND : Kind.EXPECT;
            Matcher prefix = CLIENT_PREFIX.matcher(line);
            if (prefix.find()) {
                return new Step(kind, number, Integer.parseInt(prefix.group(1)), line.substring(prefix.end()));
            }
            return new Step(kind, number, 1, line.substring(1));
        }
        Matcher connect = CONNECT.matcher(line);
        if (connect.matches()) {
            return new Step(Kind.CONNECT, number, client(connect.group(1)), "");
        }
        Matcher disconnect = DISCONNECT.matcher(line);
        if (disconnect.matches()) {
            return new Step(Kind.EXPECT_DISCONNECT, number, client(disconnect.group(1)), "");
        }
        return null;
    }

    private static int client(String digits) {
        return digits.isEmpty() ? 1 : Integer.parseInt(digits);
    }
}
