package io.fixmatch.cluster;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fixmatch.cluster.client.ClusterEngineLink;
import io.fixmatch.cluster.client.StoredOrigins;
import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.cluster.protocol.GatewayProcess;
import io.fixmatch.cluster.protocol.Ingress;
import io.fixmatch.cluster.protocol.VenueFingerprint;
import io.fixmatch.cluster.service.MatchingService;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.journal.JournalDump;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad ingress (issue #22, "Bad input and faults") in a real cluster (a node in this JVM: media driver, archive,
 * consensus module, the matching service; loopback UDP): a raw Aeron Cluster client sends what no gateway would
 * (a message empty, of an unknown type, oversized, a command before its HELLO, truncated, of an unknown record type,
 * undecodable, for an owner its gateway does not serve; malformed acknowledgements, resumes and hellos, a hello naming
 * another gateway's session), next to a well-behaved gateway ({@link ClusterEngineLink}). Each is ignored (a hello
 * refused) and logged as a WARN naming it; none reaches the engine: the node's journal holds only the well-behaved
 * gateway's commands, and the order the raw client sent for that gateway's owner never trades; the well-behaved gateway
 * is served before and after.
 */
@Timeout(120)
class HostileIngressTest {
    private static final long PRICE = 15_000;
    private static final long FINGERPRINT = VenueFingerprint.of(TestCluster.SYMBOLS, TestCluster.OWNERS);
    private static final GatewayProcess PROCESS = new GatewayProcess(42, 4242, 0, 0);

    @Test
    void badIngressIsIgnoredAndLoggedNeverAppliedAndTheGatewayIsServedThroughout() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger serviceLog = (Logger) LoggerFactory.getLogger(MatchingService.class);
        serviceLog.addAppender(log);
        Path root = TestCluster.tempRoot();
        try {
            run(root, log);
        } finally {
            serviceLog.detachAppender(log);
        }
        assertEquals(List.of("b1", "s1"), journaledClientOrderIds(root.resolve("node-0").resolve("journal")),
            "the node's journal holds the well-behaved gateway's commands only");
    }

    private static void run(Path root, ListAppender<ILoggingEvent> log) throws Exception {
        try (TestCluster cluster = new TestCluster(root, 1).startAll()) {
            cluster.awaitLeader(30_000);
            InboundCommandRing inbound = new InboundCommandRing(1 << 16);
            OutboundEventRing outbound = new OutboundEventRing(1 << 20, new BackoffIdleStrategy());
            List<String> events = new ArrayList<>();
            List<String> refusals;
            Command command = new Command();
            try (ClusterEngineLink gateway = new ClusterEngineLink(cluster.linkSettings(1, 1, 2), inbound, outbound,
                2); RawClusterClient hostile = new RawClusterClient(cluster)) {
                gateway.connect(StoredOrigins.NONE);
                gateway.start(-1);
                TestCluster.claim(inbound, outbound, event -> { }, 1, 2); // its clients log on
                assertTrue(inbound.offer(command.newOrder(1, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY,
                    PRICE, 100)));
                awaitEvents(outbound, events, 1);

                UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(256 * 1024));
                // a well-formed command, but from a session that never said hello
                hostile.send(message, command(message, 1, command.newOrder(2, "h0", 0, Side.SELL, OrderType.LIMIT,
                    TimeInForce.DAY, PRICE, 100)));
                hostile.send(message, 0);
                message.putByte(0, (byte) 99);
                hostile.send(message, 40);
                // gateway 2, serving owner 3
                hostile.send(message, Ingress.encodeHello(message, 0, 2, FINGERPRINT, new int[] {3}, PROCESS));
                hostile.awaitEgress(Egress.WELCOME);
                // command 1: oversized (a command is at most CommandCodec.MAX_LENGTH bytes)
                Ingress.encodeCommandHeader(message, 0, InboundCommandRing.COMMAND, 1, 0);
                hostile.send(message, 100 * 1024);
                hostile.send(message, 10); // truncated
                // command 2: a ring record of an unknown type
                int length = command(message, 2, command.newOrder(3, "h2", 0, Side.SELL, OrderType.LIMIT,
                    TimeInForce.DAY, PRICE, 100));
                message.putByte(1, (byte) 77);
                hostile.send(message, length);
                // command 3: for owner 2, whom the well-behaved gateway serves: it would fill b1 entirely
                hostile.send(message, command(message, 3, command.newOrder(2, "h3", 0, Side.SELL, OrderType.LIMIT,
                    TimeInForce.DAY, PRICE, 100)));
                // command 4: undecodable (a command type no release has)
                length = command(message, 4, command.newOrder(3, "h4", 0, Side.SELL, OrderType.LIMIT,
                    TimeInForce.DAY, PRICE, 100));
                message.putByte(Ingress.COMMAND_HEADER_LENGTH, (byte) 120);
                hostile.send(message, length);
                hostile.send(message, Ingress.encodeAck(message, 0, 1) - 4);
                hostile.send(message, Ingress.encodeResume(message, 0, 1) + 8);
                int hello = Ingress.encodeHello(message, 0, 3, FINGERPRINT, new int[] {3, 4}, PROCESS);
                hostile.send(message, hello - 4);
                hostile.send(message, Ingress.encodeHello(message, 0, 3, FINGERPRINT, new int[] {99}, PROCESS));
                hostile.awaitRefusals(2);
                refusals = List.copyOf(hostile.refusals());

                // the well-behaved gateway is served: s1 trades with b1, which h3 never touched
                assertTrue(inbound.offer(command.newOrder(2, "s1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.DAY,
                    PRICE, 40)));
                awaitEvents(outbound, events, 4);
            }
            assertEquals(List.of("1 ACCEPTED b1 leaves 100", "2 ACCEPTED s1 leaves 40", "2 FILL s1 leaves 0",
                "1 FILL b1 leaves 60"), events, "the gateway's events: none of the raw client's orders was applied");
            // the refusals answered the raw client's last messages: everything it sent before is behind them in the log
            assertEquals(List.of("malformed hello (gateway id 3)", "owner id 99 is not one of the cluster's 3"
                + " sessions (are the gateway's and the nodes' sessions lists the same?)"), refusals);
            List<String> warnings = warnings(log);
            for (String expected : List.of("ignored a command from a session that said no hello",
                "ignored an empty message", "ignored a message of unknown type 99",
                "ignored an undecodable command of 102376 bytes", "ignored a truncated command from gateway 2",
                "ignored a command record of unknown type 77 from gateway 2",
                "ignored a command for owner 2, whom gateway 2 does not serve",
                "ignored an undecodable command of 50 bytes from gateway 2",
                "ignored a malformed acknowledgement from gateway 2", "ignored a malformed resume from gateway 2",
                "hello refused on session", "malformed hello", "owner id 99 is not one of the cluster's")) {
                assertTrue(warnings.stream().anyMatch(warning -> warning.contains(expected)),
                    "a WARN line saying '" + expected + "': " + warnings);
            }
            assertEquals(10, cluster.node(0).status().ignoredCommands(), "ignored: " + warnings);
            assertEquals(2, cluster.node(0).status().refusedHellos());
        }
    }

    /** A COMMAND with this gateway sequence carrying the command's ring record; returns its length. */
    private static int command(UnsafeBuffer message, long sequence, Command command) {
        Ingress.encodeCommandHeader(message, 0, InboundCommandRing.COMMAND, sequence, 0);
        return Ingress.COMMAND_HEADER_LENGTH + CommandCodec.encode(command, message, Ingress.COMMAND_HEADER_LENGTH);
    }

    private static List<String> warnings(ListAppender<ILoggingEvent> log) {
        return new ArrayList<>(log.list).stream().filter(event -> event.getLevel() == Level.WARN)
            .map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static void awaitEvents(OutboundEventRing ring, List<String> events, int count)
        throws InterruptedException {
        RawClusterClient.awaitCondition(() -> {
            ring.poll((ExecutionEvent event) -> events.add(event.owner() + " " + event.type() + " "
                + event.clientOrderId() + " leaves " + event.leavesQuantity()), 1000);
            return events.size() >= count;
        }, () -> "events " + events);
    }

    private static List<String> journaledClientOrderIds(Path journal) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            JournalDump.dump(journal, JournalDump.Format.JSON, owner -> "owner-" + owner, out);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().filter(line -> line.startsWith("{\"index\""))
            .map(line -> line.replaceFirst(".*\"clOrdId\":\"([^\"]*)\".*", "$1")).toList();
    }

}
