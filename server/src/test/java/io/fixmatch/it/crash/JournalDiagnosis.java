package io.fixmatch.it.crash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fixmatch.server.JournalDumpMain;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the server's journal holds for each disagreement's ClOrdID, read with the journal dump tool's JSON output
 * (what {@code scripts/journal-dump.sh --json --config FILE DIR} prints). For people diagnosing a disagreement
 * only: the verdict comes from the clients' logs and the server's FIX answers, never from here.
 */
final class JournalDiagnosis {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JournalDiagnosis() {
    }

    static List<Disagreement> annotate(List<Disagreement> disagreements, Path config, Path journal, Path scratch)
        throws IOException {
        Set<String> wanted = new HashSet<>();
        for (Disagreement disagreement : disagreements) {
            if (disagreement.clOrdId() != null) {
                wanted.add(key(disagreement.session(), disagreement.clOrdId()));
            }
        }
        if (wanted.isEmpty()) {
            return disagreements;
        }
        Path dump = scratch.resolve("journal-dump.jsonl");
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status;
        try (PrintStream out = new PrintStream(Files.newOutputStream(dump), false, StandardCharsets.UTF_8)) {
            status = JournalDumpMain.run(out, new PrintStream(errors, true, StandardCharsets.UTF_8), "--json",
                "--config", config.toString(), journal.toString());
        }
        if (status != 0) {
            String failure = "the dump failed (" + status + "): " + errors.toString(StandardCharsets.UTF_8).trim();
            return disagreements.stream().map(d -> d.withDiagnosis(failure)).toList();
        }
        Map<String, List<String>> found = new HashMap<>();
        try (BufferedReader lines = Files.newBufferedReader(dump, StandardCharsets.UTF_8)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                JsonNode entry = JSON.readTree(line);
                String key = key(entry.path("session").asText(), entry.path("clOrdId").asText());
                if (wanted.contains(key)) {
                    found.computeIfAbsent(key, k -> new ArrayList<>()).add(entry.path("type").asText() + " at index "
                        + entry.path("index").asText());
                }
            }
        }
        Files.delete(dump);
        List<Disagreement> annotated = new ArrayList<>();
        for (Disagreement disagreement : disagreements) {
            if (disagreement.clOrdId() == null) {
                annotated.add(disagreement);
            } else {
                List<String> entries = found.get(key(disagreement.session(), disagreement.clOrdId()));
                annotated.add(disagreement.withDiagnosis(entries == null ? "absent" : String.join(", ", entries)));
            }
        }
        return annotated;
    }

    private static String key(String session, String clOrdId) {
        return session + '\u0001' + clOrdId;
    }
}
