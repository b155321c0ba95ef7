package io.fixmatch.feed.publisher;

import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.feed.codec.Datagram;
import io.fixmatch.feed.handler.FeedHandler;
import io.fixmatch.feed.handler.HandlerSettings;
import io.fixmatch.feed.handler.Recovery;
import io.fixmatch.feed.sbe.MessageHeaderDecoder;
import io.fixmatch.feed.sbe.RejectReason;
import io.fixmatch.feed.sbe.RetransmitRejectDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The publisher and the reference handler over real loopback UDP, with the real matching step (no journal) in front:
 * after a random flow of thousands of orders on three symbols the handler's books equal the engine's, through a link
 * that drops, duplicates and reorders datagrams (1 in 100 each, and bursts of 50 dropped), every gap recovered and
 * reported; a handler that joins late takes the snapshot; a gap older than the history is refused and recovered by a
 * snapshot; the retransmission service's refusals.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FeedRecoveryTest {
    private static final List<SymbolSpec> SYMBOLS = List.of(SymbolSpec.of("AAA", 2, 1, 1), SymbolSpec.of("BBB", 2, 1, 1),
        SymbolSpec.of("CCC", 4, 1, 1));
    private static final Duration WAIT = Duration.ofSeconds(90);

    private final List<AutoCloseable> open = new ArrayList<>();
    private LoopbackVenue venue;
    private FeedPublisher publisher;

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** The matching step on its own thread, the feed publishing to the given links. */
    private void startVenue(FeedSettings settings) {
        venue = new LoopbackVenue(settings, SYMBOLS, 31);
        open.add(venue);
        publisher = venue.publisher();
    }

    private FeedHandler handler(InetSocketAddress snapshots, int historyLimit) {
        FeedHandler handler = new FeedHandler(new HandlerSettings(HandlerSettings.DEFAULT_SESSION,
            new InetSocketAddress("127.0.0.1", 0), snapshots == null ? new InetSocketAddress("127.0.0.1", 0) : snapshots,
            new InetSocketAddress("127.0.0.1", publisher.counters().retransmitPort()), null, 1000, 200, historyLimit));
        open.add(handler);
        return handler;
    }

    private ImpairedLink link(long seed, int oneIn, int burstEvery) {
        ImpairedLink link = new ImpairedLink(seed, oneIn, burstEvery);
        open.add(link);
        return link;
    }

    private List<String> handlerBooks(FeedHandler handler) {
        List<String> books = new ArrayList<>();
        for (SymbolSpec symbol : SYMBOLS) {
            books.add(handler.levels(symbol.name()));
        }
        return books;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        await(() -> what, condition);
    }

    /** Waits for the condition; {@code what} is said (as it is then) if it does not come. */
    private static void await(Supplier<String> what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within " + WAIT + ": " + what.get());
            }
            Thread.sleep(20);
        }
    }

    /**
     * The matching step has taken every command offered, the publisher has published every message it numbered and
     * the handler has applied them (the numbers read again each time: the flow may still be running).
     */
    private void awaitCaughtUp(FeedHandler handler) throws InterruptedException {
        await(() -> "the handler applies every message the engine numbered (" + venue.runtime().engine().marketDataSequence()
                + "; published " + publisher.counters().lastSequence() + "): " + handler.health(),
            () -> venue.runtime().inbound().size() == 0 && handler.synced()
                && publisher.counters().lastSequence() == venue.runtime().engine().marketDataSequence()
                && handler.health().lastApplied() == publisher.counters().lastSequence());
    }

    @Test
    void theHandlersBooksEqualTheEnginesThroughDropsDuplicatesAndReordering() throws Exception {
        ImpairedLink stream = link(7, 100, 150);
        ImpairedLink snapshots = link(8, 0, 0);
        startVenue(FeedSettings.loopback(List.of(stream.address()), List.of(snapshots.address())));
        FeedHandler handler = handler(null, 50_000);
        stream.target(new InetSocketAddress("127.0.0.1", handler.streamPort()));
        snapshots.target(new InetSocketAddress("127.0.0.1", handler.snapshotPort()));
        handler.start();
        await("the handler joins through a snapshot", handler::synced);
        for (int round = 0; round < 20; round++) {
            venue.flow(1_000);
            Thread.sleep(20); // a flow in bursts, as a venue's
        }
        stream.heal(); // the impairments were in the flow; its quiet end is left to the heartbeats
        List<String> expected = venue.engineBooks();
        awaitCaughtUp(handler);
        assertEquals(expected, handlerBooks(handler), "the handler's books are the engine's");
        List<Recovery> recoveries = handler.recoveries();
        long retransmissions = recoveries.stream().filter(r -> r.kind() == Recovery.Kind.RETRANSMISSION).count();
        assertTrue(stream.dropped.get() > 0 && stream.duplicated.get() > 0 && stream.reordered.get() > 0
            && stream.bursts.get() > 0, "the link impaired the stream: " + stream);
        assertTrue(handler.health().gaps() > 0 && retransmissions > 0 && handler.health().retransmittedMessages() > 0,
            "gaps were found and filled by retransmission: " + handler.health());
        assertEquals(handler.health().retransmitRequests(), retransmissions, "every request is reported");
        assertTrue(handler.health().duplicates() > 0, "duplicates were passed over: " + handler.health());
        System.out.println("impaired link: " + stream + "; handler: " + handler.health() + "; published "
            + publisher.counters().lastSequence() + " messages in " + publisher.counters().datagrams() + " datagrams");
    }

    @Test
    void aHandlerJoiningMidDayTakesTheSnapshotAndFollows() throws Exception {
        ImpairedLink stream = link(11, 100, 0);
        ImpairedLink snapshots = link(12, 0, 0);
        startVenue(FeedSettings.loopback(List.of(stream.address()), List.of(snapshots.address())));
        venue.flow(5_000);
        await("the flow is published", () -> publisher.counters().lastSequence() > 5_000);
        FeedHandler late = handler(null, 50_000);
        stream.target(new InetSocketAddress("127.0.0.1", late.streamPort()));
        snapshots.target(new InetSocketAddress("127.0.0.1", late.snapshotPort()));
        late.start();
        venue.flow(3_000);
        await("the late handler joins through a snapshot", late::synced);
        venue.flow(3_000);
        stream.heal();
        List<String> expected = venue.engineBooks();
        awaitCaughtUp(late);
        assertEquals(expected, handlerBooks(late));
        Recovery join = late.recoveries().get(0);
        assertEquals(Recovery.Kind.SNAPSHOT, join.kind(), "joined by a snapshot: " + late.recoveries());
        assertTrue(join.from() > 5_000, "the snapshot was of the day so far: " + join);
    }

    @Test
    void aGapOlderThanTheHistoryIsRefusedAndRecoveredFromASnapshot() throws Exception {
        ImpairedLink stream = link(21, 0, 0);
        ImpairedLink snapshots = link(22, 0, 0);
        FeedSettings small = new FeedSettings(FeedSettings.DEFAULT_SESSION, List.of(stream.address()),
            List.of(snapshots.address()), "127.0.0.1", 0, 500, 1000, 1472, 1024, 10_000, 1_000_000, 1);
        startVenue(small);
        FeedHandler handler = handler(null, 1_000_000);
        stream.target(new InetSocketAddress("127.0.0.1", handler.streamPort()));
        snapshots.target(new InetSocketAddress("127.0.0.1", handler.snapshotPort()));
        handler.start();
        await("the handler joins", handler::synced);
        venue.flow(1_000);
        awaitCaughtUp(handler);
        stream.cut = true;
        long cutAt = publisher.counters().lastSequence();
        venue.flow(5_000);
        await("the flow is published", () -> publisher.counters().lastSequence() > cutAt + 2_048);
        // and taken by the link while cut: on a busy machine its thread lags, and a datagram still in its socket when
        // the cut ends would pass (seen: no gap at all). Or lost before it (its socket full), a gap as well: the
        // link then has had nothing for a second.
        long sent = publisher.counters().datagrams();
        await(() -> "the link takes what was sent: " + stream.received.get() + " of " + sent,
            () -> stream.received.get() >= sent
                || System.nanoTime() - stream.lastReceivedNanos > TimeUnit.SECONDS.toNanos(1));
        stream.cut = false;
        venue.flow(1_000);
        List<String> expected = venue.engineBooks();
        awaitCaughtUp(handler);
        assertEquals(expected, handlerBooks(handler));
        assertTrue(handler.health().retransmitRejects() > 0, "the gap was refused: " + handler.health());
        List<Recovery> recoveries = handler.recoveries();
        assertEquals(List.of(Recovery.Kind.SNAPSHOT, Recovery.Kind.RETRANSMISSION, Recovery.Kind.SNAPSHOT),
            recoveries.stream().map(Recovery::kind).toList(), "joined, asked for the gap, recovered by a snapshot");
        assertTrue(recoveries.get(1).from() <= cutAt + 1, "the gap: " + recoveries);
        assertTrue(recoveries.get(2).from() > cutAt + 2_048, "the snapshot after the refusal: " + recoveries);
    }

    @Test
    void theRetransmissionServiceRefusesWhatItCannotServe() throws Exception {
        startVenue(new FeedSettings(FeedSettings.DEFAULT_SESSION, List.of(new InetSocketAddress("127.0.0.1", 9)),
            List.of(), "127.0.0.1", 0, 1000, 1000, 1472, 1024, 500, 1_000, 1));
        venue.flow(3_000);
        venue.engineBooks();
        long last = venue.runtime().engine().marketDataSequence();
        await("the flow is published", () -> publisher.counters().lastSequence() == last);
        try (DatagramChannel client = DatagramChannel.open(StandardProtocolFamily.INET)) {
            client.bind(new InetSocketAddress("127.0.0.1", 0));
            InetSocketAddress service = new InetSocketAddress("127.0.0.1", publisher.counters().retransmitPort());
            assertEquals(RejectReason.OUT_OF_RANGE, ask(client, service, "FIXMATCH", 1, 10), "older than the history");
            assertEquals(RejectReason.OUT_OF_RANGE, ask(client, service, "FIXMATCH", last + 1, 1), "not yet published");
            assertEquals(RejectReason.TOO_MANY, ask(client, service, "FIXMATCH", last - 600, 501), "over the limit");
            assertEquals(RejectReason.WRONG_SESSION, ask(client, service, "OTHER", last - 10, 5), "another session");
            assertEquals(null, ask(client, service, "FIXMATCH", last - 400, 400), "served");
            assertEquals(null, ask(client, service, "FIXMATCH", last - 600, 500), "served");
            assertEquals(RejectReason.RATE_LIMITED, ask(client, service, "FIXMATCH", last - 400, 400),
                "over the client's 1,000 a second");
        }
    }

    /** One request; the reject's reason, or null when messages came (every one asked for, in order). */
    private static RejectReason ask(DatagramChannel client, InetSocketAddress service, String session, long from,
                                    int count) throws Exception {
        ByteBuffer request = ByteBuffer.allocate(Datagram.HEADER_LENGTH);
        Datagram.putHeader(new UnsafeBuffer(request), 0, Datagram.session(session), from, count);
        client.send(request, service);
        ByteBuffer answer = ByteBuffer.allocate(65_536);
        UnsafeBuffer view = new UnsafeBuffer(answer);
        long next = from;
        while (next < from + count) {
            answer.clear();
            client.receive(answer);
            if (Datagram.sequence(view, 0) == 0) {
                MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(view, Datagram.HEADER_LENGTH + 2);
                RetransmitRejectDecoder reject = new RetransmitRejectDecoder().wrap(view,
                    Datagram.HEADER_LENGTH + 2 + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(),
                    header.version());
                assertEquals(from, reject.fromSequence());
                return reject.reason();
            }
            assertEquals(next, Datagram.sequence(view, 0), "answers in order");
            next += Datagram.count(view, 0);
        }
        assertEquals(from + count, next);
        return null;
    }
}
