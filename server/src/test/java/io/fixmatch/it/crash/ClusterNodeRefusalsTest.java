package io.fixmatch.it.crash;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.it.Orders;
import io.fixmatch.it.QfjClient;
import io.fixmatch.server.NodeMain;
import io.fixmatch.server.ServerProcesses;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import quickfix.field.Side;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node that must not run refuses to start, exit 2, naming what is wrong (issue #22, "Bad input and faults"), as a
 * process ({@code fixmatch-node}): a wrong or inconsistent {@code cluster.members} or a node id not among them, before
 * anything touches its data folder; a data folder of another cluster ({@code cluster.name}); a cluster state built
 * with other symbols or sessions, as the node's own journal records them (its state from the replicated log alone) or
 * as the cluster's snapshot does. The refused starts leave the folder as it was: the node then starts with its own
 * configuration and holds its book.
 */
@WholeVenue
class ClusterNodeRefusalsTest {
    /** The test's folder ({@link ClusterVenue#testFolder}: kept with {@code CLUSTER_TEST_KEEP}). */
    @TempDir
    Path tempDirectory;

    @ParameterizedTest(name = "{0}")
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    @CsvSource(delimiter = '|', textBlock = """
        an entry that is not id,host,basePort,adminPort | 0,127.0.0.1,21010,9881;1,127.0.0.1,21020 | 0 | cluster.members | is not id,host,basePort,adminPort
        a port that is no number | 0,127.0.0.1,21010,9881;1,127.0.0.1,21o20,9882;2,127.0.0.1,21030,9883 | 0 | cluster.members | a number that is not one
        a port out of range | 0,127.0.0.1,70000,9881 | 0 | cluster.members | has port 70000 out of range
        two members on the same ports | 0,127.0.0.1,21010,9881;1,127.0.0.1,21010,9882;2,127.0.0.1,21030,9883 | 1 | cluster.members | member 1 uses 127.0.0.1:21010
        port ranges that overlap | 0,127.0.0.1,21010,9881;1,127.0.0.1,21013,9882;2,127.0.0.1,21030,9883 | 0 | cluster.members | member 1 uses 127.0.0.1:21013
        an admin port on another member's port | 0,127.0.0.1,21010,9881;1,127.0.0.1,21020,21012;2,127.0.0.1,21030,9883 | 2 | cluster.members | member 1 uses 127.0.0.1:21012
        ids out of order | 1,127.0.0.1,21010,9881;0,127.0.0.1,21020,9882;2,127.0.0.1,21030,9883 | 0 | cluster.members | must run 0..2 in order
        a node that is no member | 0,127.0.0.1,21010,9881;1,127.0.0.1,21020,9882;2,127.0.0.1,21030,9883 | 3 | cluster.nodeId | 3 is not among the 3 members
        """)
    void aWrongMembersListOrNodeIdStopsTheNodeBeforeItTouchesItsFolder(String what, String members, String node,
                                                                       String key, String problem) throws Exception {
        Path directory = ClusterVenue.testFolder(tempDirectory);
        Path config = directory.resolve("node.properties");
        Files.writeString(config, "cluster.name=test\ncluster.members=" + members + "\n");
        Path data = directory.resolve("data");
        try (ServerProcesses processes = new ServerProcesses(directory)) {
            Process process = processes.startMain(NodeMain.class.getName(), Map.of(), "--config", config.toString(),
                "--node", node, "--data", data.toString());
            assertEquals(2, processes.awaitExit(process), processes.output(process));
            String output = processes.output(process);
            assertTrue(output.contains("fixmatch-node: bad configuration: " + key + " ") && output.contains(problem),
                what + ": " + output);
            assertFalse(output.contains("\tat "), "no stack trace: " + output);
        }
        assertFalse(Files.exists(data), "nothing written: the data folder was not even made");
    }

    @Tag("long") // ~50 s
    @Test
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void aNodeRefusesAnotherClustersFolderAndAStateBuiltWithOtherSymbolsOrSessions() throws Exception {
        Path directory = ClusterVenue.testFolder(tempDirectory);
        try (ClusterVenue venue = new ClusterVenue(directory.resolve("venue"), 1, List.of("CLIENT1", "CLIENT2"),
            List.of("AAPL", "MSFT"), List.of())) {
            ClusterVenue.Gateway gateway = venue.gateway(1, List.of());
            venue.startNodes();
            venue.startGateways(gateway);
            try (QfjClient buyer = QfjClient.logOn("CLIENT1", gateway.fixPort);
                 QfjClient seller = QfjClient.logOn("CLIENT2", gateway.fixPort)) {
                buyer.send(Orders.limit("b1", "AAPL", Side.BUY, 100, "100.00"));
                Orders.assertFields(buyer.nextApp("8"), 11, "b1", 150, "0");
                seller.send(Orders.limit("s1", "AAPL", Side.SELL, 40, "100.00"));
                Orders.assertFields(seller.nextApp("8"), 11, "s1", 150, "0");
                Orders.assertFields(seller.nextApp("8"), 11, "s1", 150, "F", 32, "40");
                Orders.assertFields(buyer.nextApp("8"), 11, "b1", 150, "F", 32, "40");
            }
            assertEquals(0, gateway.stop());
            assertEquals(0, venue.stop(0), "SIGTERM: the node stops alone, no snapshot: its state is the log");

            // the node's journal says which tables its state was built with
            assertRefused(venue, "cluster.name=another", "cluster.name");
            assertRefused(venue, "symbols=MSFT,AAPL", "symbols");
            assertRefused(venue, "sessions=CLIENT2,CLIENT1", "sessions");
            venue.startNode(0);
            assertBidOf60(venue);

            // the log alone says so too (no journal, no snapshot: a node on an empty disk of its own rebuilds from
            // the log, whose first gateway's hello carried the venue's tables)
            assertEquals(0, venue.stop(0));
            ClusterVenue.deleteTree(venue.nodeData(0).resolve("journal"));
            assertRefused(venue, "symbols=MSFT,AAPL", "symbols, sessions: this node's configuration differs");
            venue.startNode(0);
            assertBidOf60(venue);

            // the cluster's snapshot says so too (here without the node's journal, which would say it first)
            assertTrue(venue.requestShutdown(), "the leader took the cluster's clean stop");
            assertEquals(0, venue.processes().awaitExit(venue.node(0)), "a snapshot, then exit 0");
            ClusterVenue.deleteTree(venue.nodeData(0).resolve("journal"));
            assertRefused(venue, "symbols=MSFT,AAPL", "symbols: the cluster's state was built with [AAPL, MSFT]");
        }
    }

    /** The node started with this configuration line exits 2, saying it cannot start and why, naming the key. */
    private static void assertRefused(ClusterVenue venue, String line, String key) throws Exception {
        Process node = venue.launchNodeWith(0, List.of(line));
        int status = venue.processes().awaitExit(node);
        String output = venue.processes().output(node);
        assertEquals(2, status, line + ": " + output);
        assertTrue(output.lines().anyMatch(text -> text.contains("cannot start: ") && text.contains(key)),
            line + ": " + output);
    }

    /** b1 rests with 60 of its 100 left: the node's state is the one the trades left, whatever was refused since. */
    private static void assertBidOf60(ClusterVenue venue) throws Exception {
        JsonNode book = venue.book(0, "AAPL");
        assertEquals(1, book.get("bids").size(), book.toString());
        assertEquals("100.00", book.get("bids").get(0).get("price").asText(), book.toString());
        assertEquals(60, book.get("bids").get(0).get("quantity").asLong(), book.toString());
        assertEquals(0, book.get("asks").size(), book.toString());
    }
}
