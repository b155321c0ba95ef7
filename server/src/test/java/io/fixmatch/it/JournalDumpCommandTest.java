package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.JournalDumpMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fixmatch-journal on the journal of a real server that real FIX sessions traded through: it names the sessions
 * as the server numbered them (the configuration's session order), prices are the decimals the clients sent.
 */
class JournalDumpCommandTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theDumpNamesTheSessionsAndShowsDecimalPrices() throws Exception {
        Path data = dir.resolve("data");
        try (FixmatchServer server = TestServers.start(data, 0, Map.of());
             QfjClient second = QfjClient.logOn("CLIENT2", server.port());
             QfjClient first = QfjClient.logOn("CLIENT1", server.port())) {
            second.send(Orders.limit("b1", "AAPL", Orders.BUY, 100, "150.25"));
            second.nextApp("8");
            first.send(Orders.limit("s1", "MSFT", Orders.SELL, 5, "301.5"));
            first.nextApp("8");
            second.send(Orders.cancel("x1", "b1", "AAPL", Orders.BUY));
            second.nextApp("8");
        }
        Path config = dir.resolve("server.properties");
        Files.writeString(config, "data.dir=" + data + "\n");

        ToolRun json = dump("--config", config.toString(), "--json");
        assertEquals(0, json.status(), json.err());
        assertEquals("3 commands\n", json.err());
        ObjectMapper mapper = new ObjectMapper();
        List<JsonNode> lines = json.out().lines().map(line -> read(mapper, line)).toList();
        assertEquals(3, lines.size(), json.out());
        assertEquals("CLIENT2", lines.get(0).get("session").asText());
        assertEquals("150.25", lines.get(0).get("price").asText());
        assertEquals(100, lines.get(0).get("qty").asLong());
        assertEquals("CLIENT1", lines.get(1).get("session").asText());
        assertEquals("301.50", lines.get(1).get("price").asText());
        assertEquals("SELL", lines.get(1).get("side").asText());
        assertEquals("CANCEL", lines.get(2).get("type").asText());
        assertEquals("b1", lines.get(2).get("origClOrdId").asText());
        assertFalse(lines.get(2).has("price"));

        ToolRun text = dump("--config", config.toString(), data.resolve("journal").toString());
        assertEquals(0, text.status(), text.err());
        assertTrue(text.out().lines().anyMatch(line -> line.matches(
            "0x[0-9a-f]+ \\S+Z CLIENT2 NEW_ORDER AAPL BUY LIMIT DAY 100 @ 150.25 clOrdId=b1")), text.out());
    }

    @Test
    void mistakesAreOneLineWithTheirStatus() {
        ToolRun mistyped = dump("--jsn");
        assertEquals(2, mistyped.status());
        assertEquals("fixmatch-journal: Unknown option: '--jsn' (did you mean --json?); --help lists the options\n",
            mistyped.err());

        ToolRun missing = dump(dir.resolve("nowhere").toString());
        assertEquals(1, missing.status());
        assertEquals("fixmatch-journal: no journal at " + dir.resolve("nowhere") + "\n", missing.err());

        ToolRun help = dump("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().contains("--json") && help.out().contains("Exit status:"), help.out());
    }

    private static ToolRun dump(String... args) {
        return ToolRun.of(JournalDumpMain::run, args);
    }

    private static JsonNode read(ObjectMapper mapper, String line) {
        try {
            return mapper.readTree(line);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + line, e);
        }
    }
}
