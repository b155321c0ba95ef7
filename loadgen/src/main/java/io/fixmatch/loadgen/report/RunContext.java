package io.fixmatch.loadgen.report;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/** Where and against what a run was made: when it started, the commit, the server's configuration. */
public final class RunContext {
    private RunContext() {
    }

    /** The working tree's commit ({@code git describe --always --dirty --abbrev=12}), or "unknown". */
    public static String gitCommit() {
        try {
            Process git = new ProcessBuilder("git", "describe", "--always", "--dirty", "--abbrev=12")
                .redirectErrorStream(true).start();
            String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (git.waitFor(5, TimeUnit.SECONDS) && git.exitValue() == 0 && !output.isEmpty()) {
                return output;
            }
        } catch (IOException e) {
            // no git here
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "unknown";
    }

    /**
     * The server's configuration as the server reported it: the properties it was started with and its "fixmatch
     * ready" line, when scripts/loadgen.sh started it and passed them; otherwise what is known and a note saying so.
     */
    public static Map<String, Object> serverConfig(Path properties, Path log, String host, int port) {
        Map<String, Object> config = new LinkedHashMap<>();
        if (properties == null && log == null) {
            config.put("source", "an external server at " + host + ":" + port + ": its configuration is not known "
                + "to the generator (scripts/loadgen.sh passes --server-config and --server-log when it starts one)");
            return config;
        }
        config.put("source", "the server's own files: " + (properties != null ? properties : "")
            + (properties != null && log != null ? " and " : "") + (log != null ? log : ""));
        if (log != null) {
            config.put("ready_line", readyLine(log));
        }
        if (properties != null) {
            Properties loaded = new Properties();
            try (Reader in = Files.newBufferedReader(properties, StandardCharsets.UTF_8)) {
                loaded.load(in);
                Map<String, String> sorted = new TreeMap<>();
                loaded.stringPropertyNames().forEach(key -> sorted.put(key, loaded.getProperty(key)));
                config.put("properties", sorted);
            } catch (IOException e) {
                config.put("properties", "unreadable: " + e.getMessage());
            }
        }
        return config;
    }

    private static String readyLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return lines.stream().filter(line -> line.contains("fixmatch ready")).findFirst()
                .orElse("(no \"fixmatch ready\" line in " + log + ")");
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    public static String now() {
        return Instant.now().toString();
    }
}
