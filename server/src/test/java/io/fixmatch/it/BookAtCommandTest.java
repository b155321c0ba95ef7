package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fixmatch.server.BookAtMain;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.JournalDumpMain;
import io.fixmatch.server.WaitBounds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fixmatch-book-at on the data folder of a real server that QuickFIX/J sessions traded through, while that server
 * still runs (holding its lock, its journal open for appends, snapshots every 2 commands): the books at instants
 * named by journal index and by time, as the journal dump lists them, are the books the trades left then; and the
 * tool writes nothing into the folder: every file's size and modification time, and the listing, stay as they were.
 */
class BookAtCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The server's engine and snapshot interval; the tool is given the same configuration. */
    private static final Map<String, String> SERVER = Map.of("journal.snapshotEveryCommands", "2");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void theBookAtAnInstantOfARunningServerIsTheBookThenAndNothingIsWritten() throws Exception {
        Path data = dir.resolve("data");
        Path config = dir.resolve("server.properties");
        Files.writeString(config, "data.dir=" + data + "\nengine.maxOrders=10000\nengine.maxPriceLevels=10000\n"
            + "journal.snapshotEveryCommands=2\n");
        try (FixmatchServer server = TestServers.start(data, 0, SERVER);
             QfjClient first = QfjClient.logOn("CLIENT1", server.port());
             QfjClient second = QfjClient.logOn("CLIENT2", server.port())) {
            // each step waits for every report it causes, so the journal holds the commands in this order
            first.send(Orders.limit("b1", "AAPL", Orders.BUY, 100, "150.25"));
            report(first, "b1", "0");
            second.send(Orders.limit("s1", "AAPL", Orders.SELL, 30, "150.25")); // trades 30 against b1
            report(second, "s1", "0");
            report(second, "s1", "F");
            report(first, "b1", "F");
            second.send(Orders.limit("s2", "AAPL", Orders.SELL, 40, "150.30"));
            report(second, "s2", "0");
            first.send(Orders.limit("b2", "AAPL", Orders.BUY, 50, "150.20"));
            report(first, "b2", "0");
            second.send(Orders.cancel("x2", "s2", "AAPL", Orders.SELL));
            report(second, "x2", "4");
            List<JsonNode> journal = journal(config, 5);
            assertEquals(List.of("b1", "s1", "s2", "b2", "x2"),
                journal.stream().map(command -> command.get("clOrdId").asText()).toList());

            Map<String, String> before = quietListing(data);
            // after b1: no snapshot that early, from the journal's start
            ObjectNode bid = bookAt(config, "AAPL", "--at", journal.get(0).get("time").asText(), "--json");
            assertEquals(List.of("b1 CLIENT1 150.25 100 100 0"), orders(bid.get("bids")));
            assertTrue(bid.get("snapshot").isNull(), bid.toString());
            assertEquals(1, bid.get("replayedCommands").asInt(), bid.toString());
            // after s1: b1 partly filled, nothing offered; the snapshot taken right after it, nothing replayed
            ObjectNode afterFill = bookAt(config, "AAPL", "--at",
                Long.toString(journal.get(1).get("index").asLong()), "--json");
            assertEquals(List.of("b1 CLIENT1 150.25 100 70 30"), orders(afterFill.get("bids")));
            assertEquals(List.of(), orders(afterFill.get("asks")));
            assertEquals(journal.get(1).get("index").asLong(), afterFill.get("snapshot").get("index").asLong());
            assertEquals(0, afterFill.get("replayedCommands").asInt(), afterFill.toString());
            assertEquals(journal.get(1).get("time").asText(), afterFill.get("lastCommand").get("time").asText());
            assertEquals(afterFill.deepCopy().without("requested"), bookAt(config, "AAPL", "--at",
                journal.get(1).get("time").asText(), "--json").without("requested"), "by time: the same instant");
            // after s2: offered at 150.30
            ObjectNode offered = bookAt(config, "AAPL", "--at", Long.toString(journal.get(2).get("index").asLong()),
                "--json");
            assertEquals(List.of("s2 CLIENT2 150.30 40 40 0"), orders(offered.get("asks")), journal + "\n" + offered);
            // by s2's time: every command stamped at or before it, which is the book after s2 unless a later command
            // carries the same stamp
            String s2Time = journal.get(2).get("time").asText();
            long lastAtS2Time = journal.stream().filter(e -> e.get("time").asText().compareTo(s2Time) <= 0)
                .mapToLong(e -> e.get("index").asLong()).max().orElseThrow();
            ObjectNode byTime = bookAt(config, "AAPL", "--at", s2Time, "--json");
            assertEquals(bookAt(config, "AAPL", "--at", Long.toString(lastAtS2Time), "--json")
                .without("requested"), byTime.deepCopy().without("requested"), journal + "\n" + byTime);
            // after the cancel: the snapshot after b2 plus the cancel
            ObjectNode last = bookAt(config, "AAPL", "--at",
                "0x" + Long.toHexString(journal.get(4).get("index").asLong()), "--json");
            assertEquals(List.of("b1 CLIENT1 150.25 100 70 30", "b2 CLIENT1 150.20 50 50 0"), orders(last.get("bids")));
            assertEquals(List.of(), orders(last.get("asks")));
            assertEquals(1, last.get("replayedCommands").asInt(), last.toString());
            assertEquals(journal.get(3).get("index").asLong(), last.get("snapshot").get("index").asLong());

            String text = run(config, "AAPL", "--at", journal.get(4).get("time").asText()).out();
            assertTrue(text.startsWith("AAPL as of journal record 0x" + Long.toHexString(journal.get(4).get("index")
                .asLong()) + ", " + journal.get(4).get("time").asText() + " (asked: "), text);
            assertTrue(text.contains("\nBIDS  2 orders, 2 prices, 120 open\n"
                + "   price  leaves  session  OrderID  ClOrdID  TIF  quantity  filled\n"
                + "  150.25      70  CLIENT1        1  b1       DAY       100      30\n"
                + "  150.20      50  CLIENT1        4  b2       DAY        50       0\n"
                + "ASKS  none\n"), text);

            ToolRun beyond = run(config, "AAPL", "--at", Long.toString(journal.get(4).get("index").asLong() + 1));
            assertEquals(1, beyond.status());
            assertTrue(beyond.err().startsWith("fixmatch-book-at: journal index 0x"), beyond.err());
            assertEquals(before, listing(data), "the tool wrote nothing into the data folder of the running server");
        }
    }

    @Test
    void mistakesAreOneLineWithTheirStatus() throws IOException {
        Path config = dir.resolve("server.properties");
        Files.writeString(config, "data.dir=" + dir.resolve("nowhere") + "\n");
        assertEquals(new ToolRun(1, "", "fixmatch-book-at: no data folder at " + dir.resolve("nowhere") + "\n"),
            run(config, "AAPL", "--at", "5"));
        assertEquals(new ToolRun(1, "", "fixmatch-book-at: no journal at " + dir.resolve("journal") + "\n"),
            BookAtCommandTest.run(new String[] {"AAPL", "--at", "5", "--config", config.toString(), "--data",
                dir.toString()}));
        assertEquals(new ToolRun(2, "", "fixmatch-book-at: unknown symbol IBM (the configured symbols: AAPL, MSFT,"
            + " GOOG, AMZN, NVDA, META, TSLA, JPM, V, XOM)\n"), run(config, "IBM", "--at", "5", "--data",
            dir.toString()));
        ToolRun badTime = run(config, "AAPL", "--at", "2026-11-23 14:03");
        assertEquals(2, badTime.status());
        assertEquals("fixmatch-book-at: Invalid value for option '--at': '2026-11-23 14:03' is neither a journal"
            + " index (decimal, or hexadecimal after 0x) nor a UTC time like 2026-11-23T14:03:07.123Z; --help lists"
            + " the options\n", badTime.err());
        ToolRun missing = BookAtCommandTest.run(new String[] {"AAPL"});
        assertEquals(2, missing.status());
        assertTrue(missing.err().contains("--at"), missing.err());
    }

    /** The next application message of the client: an ExecutionReport for this ClOrdID with this ExecType. */
    private static void report(QfjClient client, String clOrdId, String execType) throws Exception {
        Message report = client.nextApp("8");
        assertEquals(clOrdId + " " + execType, report.getString(11) + " " + report.getString(150),
            QfjClient.show(report));
    }

    /** The journal's commands (waiting until it holds {@code count}), as the dump's --json gives them. */
    private List<JsonNode> journal(Path config, int count) throws Exception {
        long deadline = System.nanoTime() + WaitBounds.ANSWER.toNanos();
        while (true) {
            ToolRun dump = ToolRun.of(JournalDumpMain::run, "--config", config.toString(), "--json");
            assertEquals(0, dump.status(), dump.err());
            List<JsonNode> lines = dump.out().lines().map(BookAtCommandTest::json).toList();
            if (lines.size() >= count || System.nanoTime() > deadline) {
                assertEquals(count, lines.size(), lines.toString());
                return lines;
            }
            Thread.sleep(50);
        }
    }

    /**
     * Every file under the folder with its size and modification time, taken once the server has been idle long
     * enough that two listings 300 ms apart agree (its last snapshot and stored reports are written).
     */
    private static Map<String, String> quietListing(Path folder) throws InterruptedException {
        Map<String, String> listing = listing(folder);
        for (int attempt = 0; attempt < 50; attempt++) {
            Thread.sleep(300);
            Map<String, String> again = listing(folder);
            if (again.equals(listing)) {
                return listing;
            }
            listing = again;
        }
        throw new AssertionError("the server kept writing: " + listing);
    }

    private static Map<String, String> listing(Path folder) {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.forEach(path -> {
                try {
                    BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
                    files.put(folder.relativize(path).toString(), attributes.isDirectory() ? "folder "
                        + attributes.lastModifiedTime() : attributes.size() + " bytes, modified "
                        + attributes.lastModifiedTime());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /** Each order as "ClOrdID session price quantity leaves filled". */
    private static List<String> orders(JsonNode side) {
        return side.findParents("orderId").stream().map(order -> String.join(" ", order.get("clOrdId").asText(),
            order.get("session").asText(), order.get("price").asText(), order.get("quantity").asText(),
            order.get("leaves").asText(), order.get("filled").asText())).toList();
    }

    private static ObjectNode bookAt(Path config, String... args) {
        String[] all = Stream.concat(Stream.of(args), Stream.of("--config", config.toString())).toArray(String[]::new);
        ToolRun result = run(all);
        assertEquals(0, result.status(), result.err());
        return (ObjectNode) json(result.out());
    }

    private static ToolRun run(Path config, String... args) {
        return run(Stream.concat(Stream.of(args), Stream.of("--config", config.toString())).toArray(String[]::new));
    }

    private static ToolRun run(String[] args) {
        return ToolRun.of(BookAtMain::run, args);
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
