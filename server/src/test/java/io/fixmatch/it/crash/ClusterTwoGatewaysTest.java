package io.fixmatch.it.crash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fixmatch.it.MarketDataBook;
import io.fixmatch.it.QfjClient;
import io.fixmatch.server.BookAtMain;
import io.fixmatch.server.JournalDumpMain;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;

import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two gateways of one replicated venue (issue #22, test 7), each a process serving its own sessions, trading with
 * each other through three node processes: QuickFIX/J traders with file stores on both gateways (CLIENT1 and CLIENT2
 * on gateway 1, CLIENT3 and CLIENT4 on gateway 2) trade one flow over two symbols. Then
 * <ul>
 *   <li>fills on both sides: every trader's reports agree with the venue's status answers, fills balance per symbol
 *       ({@link CrashChecker}), and many trades had their buyer on one gateway and their seller on the other;</li>
 *   <li>market data across gateways: a subscriber on gateway 2 rebuilds from W and X the books every node holds,
 *       and the trades its X messages report add up to every fill, gateway 1's included;</li>
 *   <li>drop copies across gateways: a drop-copy session on gateway 2 covering CLIENT1 (gateway 1) and CLIENT3
 *       (gateway 2) holds a copy of each of their reports, exactly once;</li>
 *   <li>the journal tools on every node's {@code journal/}, run as processes while the nodes run: {@code
 *       fixmatch-journal} lists the same records on each, and {@code fixmatch-book-at} rebuilds from each the books
 *       the nodes hold.</li>
 * </ul>
 */
@WholeVenue
@Tag("long") // ~60 s: -Dfixmatch.test.long=true (docs/TESTING.md)
class ClusterTwoGatewaysTest {
    private static final long SEED = 7;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> SYMBOLS = List.of("AAPL", "MSFT");
    /** The node admin endpoint's /book shows 10 levels a side; the subscription asks for as many. */
    private static final int DEPTH = 10;
    private static final List<String> GATEWAY_1 = List.of("CLIENT1", "CLIENT2");
    private static final List<String> GATEWAY_2 = List.of("CLIENT3", "CLIENT4", "DROPCOPY", "WATCHER");
    private static final List<String> COVERED = List.of("CLIENT1", "CLIENT3");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The test's folder ({@link ClusterVenue#testFolder}: kept with {@code CLUSTER_TEST_KEEP}). */
    @TempDir
    Path tempDirectory;

    @Test
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void sessionsOnTwoGatewaysTradeWithEachOtherAndGetEachOthersMarketDataAndDropCopies() throws Exception {
        Path directory = ClusterVenue.testFolder(tempDirectory);
        List<String> sessions = new ArrayList<>(GATEWAY_1);
        sessions.addAll(GATEWAY_2);
        try (ClusterVenue venue = new ClusterVenue(directory.resolve("venue"), 3, sessions, SYMBOLS,
            List.of("session.DROPCOPY.dropCopyFor=" + String.join(",", COVERED)))) {
            ClusterVenue.Gateway one = venue.gateway(1, GATEWAY_1);
            ClusterVenue.Gateway two = venue.gateway(2, GATEWAY_2);
            venue.startNodes();
            venue.startGateways(one, two);
            Map<String, Integer> ports = new LinkedHashMap<>();
            List.of("CLIENT1", "CLIENT2").forEach(compId -> ports.put(compId, one.fixPort));
            List.of("CLIENT3", "CLIENT4").forEach(compId -> ports.put(compId, two.fixPort));
            Traders traders = new Traders(ports, directory.resolve("clients"));
            Traders dropCopy = new Traders(List.of("DROPCOPY"), two.fixPort, directory.resolve("dropcopy"));
            QfjClient watcher = null;
            MarketDataBook book = new MarketDataBook(DEPTH);
            List<TraderLog> logs;
            TraderLog copyLog;
            int requests;
            try {
                watcher = QfjClient.logOn("WATCHER", two.fixPort);
                watcher.send(MarketDataBook.request("BOOK", '1', DEPTH, SYMBOLS, '0', '1', '2'));
                for (int i = 0; i < SYMBOLS.size(); i++) {
                    book.apply(watcher.nextApp("W"));
                }
                traders.start();
                dropCopy.start();
                traders.awaitLogons(1, TIMEOUT);
                dropCopy.awaitLogons(1, TIMEOUT);
                traders.startLoad(SYMBOLS, SEED, 100);
                TimeUnit.SECONDS.sleep(5); // the length of the flow: 2,000 requests
                traders.stopLoad();
                traders.awaitQuiet(TIMEOUT);
                requests = TraderLog.total(traders.logs(), log -> log.requests().size());
                traders.queryStatus(TIMEOUT.plusSeconds(requests / 1_000));
                logs = traders.logs();
                copyLog = dropCopy.logs().get(0);
                List<TraderLog> covered = logs.stream().filter(log -> COVERED.contains(log.compId())).toList();
                DropCopyCheck.awaitNoCopyMissing(covered, copyLog, TIMEOUT);
                dropCopy.awaitQuiet(TIMEOUT);
                traders.finish();
                dropCopy.finish();
                awaitSameBooks(venue, watcher, book);
                watcher.assertNoProtocolErrors();
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\ngateway 1:\n"
                    + OutputTail.of(venue.output(one.process), 40) + "\ngateway 2:\n"
                    + OutputTail.of(venue.output(two.process), 40), e);
            } finally {
                traders.close();
                dropCopy.close();
                if (watcher != null) {
                    watcher.stopForcibly();
                }
            }

            // fills on both sides, across the gateways
            assertEquals(List.of(), CrashChecker.check(logs));
            Map<String, Integer> crossTrades = crossGatewayTrades(logs);
            System.out.println("fills " + fills(logs) + "; trades across gateways " + crossTrades
                + "; traded quantity in market data " + book.tradedQuantity() + " in " + book.trades() + " trades");
            assertTrue(crossTrades.get("buyer on 1, seller on 2") >= 10
                && crossTrades.get("buyer on 2, seller on 1") >= 10,
                "trades across the gateways both ways: " + crossTrades);
            traders.logons().forEach((session, logons) -> assertEquals(1, logons, session + " logged on again"));

            // market data across gateways: every trade of the flow, gateway 1's sessions' too
            assertEquals(boughtQuantity(logs), book.tradedQuantity(),
                "the trades of the X messages gateway 2's subscriber got add up to every fill of the flow");

            // drop copies across gateways
            List<TraderLog> covered = logs.stream().filter(log -> COVERED.contains(log.compId())).toList();
            long copiedFromGateway1 = DropCopyCheck.expected(covered).keySet().stream()
                .filter(key -> key.startsWith("CLIENT1 ")).count();
            assertTrue(copiedFromGateway1 > 300, "CLIENT1's reports to copy: " + copiedFromGateway1);
            assertEquals(List.of(), copyLog.sequenceProblems(), "the drop copy's sequence");
            assertEquals(List.of(), DropCopyCheck.differences(covered, copyLog),
                "reports and their copies (count in the covered sessions vs in the drop copy)");

            assertJournalToolsAgreeOnEveryNode(venue, book, requests);
        }
    }

    /** Applies what the subscriber receives until its books are every node's (the flow is over: they stand still). */
    private static void awaitSameBooks(ClusterVenue venue, QfjClient watcher, MarketDataBook book) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            for (Message message = watcher.pollApp(Duration.ofMillis(50)); message != null;
                 message = watcher.pollApp(Duration.ofMillis(20))) {
                book.apply(message);
            }
            List<String> differing = new ArrayList<>();
            for (int node = 0; node < 3; node++) {
                for (String symbol : SYMBOLS) {
                    try {
                        JsonNode nodeBook = venue.book(node, symbol);
                        if (!book.matches(symbol, nodeBook)) {
                            differing.add("node " + node + ": " + nodeBook);
                        }
                    } catch (HttpTimeoutException e) {
                        differing.add("node " + node + " did not answer /book/" + symbol + " in time (asked again)");
                    }
                }
            }
            if (differing.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gateway 2's subscriber's books " + book + " are not the nodes': "
                    + differing);
            }
        }
    }

    /**
     * Trades whose buyer was on one gateway and seller on the other, each way. The two fills of a trade carry the
     * same symbol, TransactTime (the time of the command that traded), LastPx and LastQty; where every buy fill of
     * such a group is on one gateway and every sell fill on the other, each of its trades crossed the gateways.
     * (Commands of one millisecond share a TransactTime: groups mixing both ways are not counted.)
     */
    private static Map<String, Integer> crossGatewayTrades(List<TraderLog> logs) {
        Map<String, Set<Integer>[]> gatewaysBySide = new HashMap<>();
        for (TraderLog log : logs) {
            int gateway = GATEWAY_1.contains(log.compId()) ? 1 : 2;
            for (Report report : log.reports()) {
                if (report.isFill()) {
                    @SuppressWarnings("unchecked")
                    Set<Integer>[] sides = gatewaysBySide.computeIfAbsent(report.symbol() + " " + report.transactTime()
                        + " " + report.lastPx() + " " + report.lastQty(),
                        key -> new Set[] {new TreeSet<>(), new TreeSet<>()});
                    sides[report.side() == '1' ? 0 : 1].add(gateway);
                }
            }
        }
        Map<String, Integer> counts = new TreeMap<>(Map.of("buyer on 1, seller on 2", 0, "buyer on 2, seller on 1", 0));
        for (Set<Integer>[] sides : gatewaysBySide.values()) {
            if (sides[0].equals(Set.of(1)) && sides[1].equals(Set.of(2))) {
                counts.merge("buyer on 1, seller on 2", 1, Integer::sum);
            } else if (sides[0].equals(Set.of(2)) && sides[1].equals(Set.of(1))) {
                counts.merge("buyer on 2, seller on 1", 1, Integer::sum);
            }
        }
        return counts;
    }

    private static long fills(List<TraderLog> logs) {
        return logs.stream().flatMap(log -> log.reports().stream()).filter(Report::isFill).count();
    }

    /** The quantity bought over every fill of the flow (each ExecID once). */
    private static long boughtQuantity(List<TraderLog> logs) {
        Map<String, Long> bought = new HashMap<>();
        for (TraderLog log : logs) {
            for (Report report : log.reports()) {
                if (report.isFill() && report.side() == '1') {
                    bought.put(report.execId(), report.lastQty());
                }
            }
        }
        return bought.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * The journal tools, as processes, on each node's {@code journal/} while the nodes run: the dump lists the same
     * records (indexes included) on every node, and the book each node's journal rebuilds after its last record is
     * the book that node holds, and the one gateway 2's subscriber rebuilt.
     */
    private static void assertJournalToolsAgreeOnEveryNode(ClusterVenue venue, MarketDataBook book, int requests)
        throws Exception {
        String config = venue.config().toString();
        List<Process> dumps = new ArrayList<>();
        for (int node = 0; node < 3; node++) {
            dumps.add(venue.processes().startMain(JournalDumpMain.class.getName(), Map.of(), "--config", config,
                "--json", venue.nodeData(node).resolve("journal").toString()));
        }
        List<List<String>> records = new ArrayList<>();
        for (Process dump : dumps) {
            assertEquals(0, venue.processes().awaitExit(dump), venue.processes().output(dump));
            records.add(venue.processes().output(dump).lines().filter(line -> line.startsWith("{\"index\"")).toList());
        }
        // Every request of the flow is a journaled command (refused ones too), besides the logons' and settings'.
        assertTrue(records.get(0).size() >= requests, "node 0's journal holds the flow's " + requests + " requests: "
            + records.get(0).size());
        assertEquals(records.get(0), records.get(1), "nodes 0 and 1 journaled the same records");
        assertEquals(records.get(0), records.get(2), "nodes 0 and 2 journaled the same records");
        long lastIndex = JSON.readTree(records.get(0).get(records.get(0).size() - 1)).get("index").asLong();

        List<Process> bookAts = new ArrayList<>();
        for (int node = 0; node < 3; node++) {
            for (String symbol : SYMBOLS) {
                bookAts.add(venue.processes().startMain(BookAtMain.class.getName(), Map.of(), symbol, "--at",
                    Long.toString(lastIndex), "--config", config, "--data", venue.nodeData(node).toString(),
                    "--json"));
            }
        }
        int at = 0;
        for (int node = 0; node < 3; node++) {
            for (String symbol : SYMBOLS) {
                Process bookAt = bookAts.get(at++);
                String output = venue.processes().output(bookAt);
                assertEquals(0, venue.processes().awaitExit(bookAt), output);
                output = venue.processes().output(bookAt);
                JsonNode rebuilt = JSON.readTree(output.substring(output.indexOf('{'), output.lastIndexOf('}') + 1));
                JsonNode levels = levels(rebuilt);
                assertEquals(levels(venue.book(node, symbol)), levels, "node " + node + "'s " + symbol
                    + " rebuilt by fixmatch-book-at from its journal vs its engine's");
                assertTrue(book.matches(symbol, levels), symbol + " rebuilt from node " + node + "'s journal "
                    + levels + " vs gateway 2's subscriber's " + book.describe(symbol));
            }
        }
    }

    /**
     * A book's top {@link #DEPTH} levels a side as {@code {"bids": [{price, quantity}...], "asks": [...]}}: from the
     * node's {@code /book} levels, or from the orders in priority order {@code fixmatch-book-at} lists.
     */
    private static JsonNode levels(JsonNode book) {
        com.fasterxml.jackson.databind.node.ObjectNode levels = JSON.createObjectNode();
        for (String side : List.of("bids", "asks")) {
            Map<String, Long> quantities = new LinkedHashMap<>();
            for (JsonNode entry : book.get(side)) {
                long quantity = entry.has("leaves") ? entry.get("leaves").asLong() : entry.get("quantity").asLong();
                quantities.merge(entry.get("price").asText(), quantity, Long::sum);
            }
            com.fasterxml.jackson.databind.node.ArrayNode array = levels.putArray(side);
            quantities.entrySet().stream().limit(DEPTH).forEach(level -> array.addObject()
                .put("price", level.getKey()).put("quantity", level.getValue()));
        }
        return levels;
    }
}
