package io.fixmatch.server;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * docs/CONFIG.md lists exactly the keys the code reads, with the code's defaults. "The keys the code reads" are
 * what {@link ConfigKeys} records while {@link ServerConfig#read} reads an empty configuration, so a key added to
 * the code fails this test until it is documented.
 */
class ConfigDocumentationTest {
    /** A table row: | `key` | default | meaning |. */
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| ([^|]*) \\|.*\\|$");
    private static final Pattern QUOTED = Pattern.compile("`([^`]*)`");

    @Test
    void everyKeyTheCodeReadsIsDocumentedWithItsDefaultAndNothingElseIs() throws IOException {
        ConfigKeys keys = ConfigKeys.of(new Properties(), "an empty configuration");
        ServerConfig.read(keys);
        Map<String, String> read = new LinkedHashMap<>();
        for (ConfigKeys.Read key : keys.reads()) {
            read.putIfAbsent(key.name(), key.defaultValue());
        }
        // an auction group's keys are read only for the groups named: one more configuration with one
        Properties withGroup = new Properties();
        withGroup.setProperty("symbols", "AAPL");
        withGroup.setProperty("engine.auctionGroups", "G");
        withGroup.setProperty("auctionGroup.G.symbols", "AAPL");
        ConfigKeys groupKeys = ConfigKeys.of(withGroup, "a configuration with an auction group");
        ServerConfig.read(groupKeys);
        for (ConfigKeys.Read key : groupKeys.reads()) {
            read.putIfAbsent(key.name(), key.defaultValue());
        }
        Map<String, String> documented = documentedKeys();

        Set<String> undocumented = new TreeSet<>(read.keySet());
        undocumented.removeAll(documented.keySet());
        Set<String> notRead = new TreeSet<>(documented.keySet());
        notRead.removeAll(read.keySet());
        assertEquals(Set.of(), undocumented, "keys the code reads that docs/CONFIG.md does not list");
        assertEquals(Set.of(), notRead, "keys docs/CONFIG.md lists that the code does not read");
        read.forEach((name, codeDefault) -> {
            if (!name.contains("<")) { // a session's or symbol's default is another key's value, documented in words
                assertEquals(codeDefault == null ? "" : codeDefault, documented.get(name), "default of " + name);
            }
        });
    }

    /** Key -> its default (the first `quoted` value of the default column, "" when there is none). */
    private static Map<String, String> documentedKeys() throws IOException {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "CONFIG.md"))) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                Matcher quoted = QUOTED.matcher(row.group(2));
                keys.put(row.group(1), quoted.find() ? quoted.group(1) : "");
            }
        }
        return keys;
    }
}
