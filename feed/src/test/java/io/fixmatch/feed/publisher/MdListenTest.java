package io.fixmatch.feed.publisher;

import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.feed.handler.MdListen;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * md-listen ({@code scripts/md-listen.sh}) against a venue's feed over loopback: it joins through a snapshot, prints
 * the chosen symbol's top of book as it changes (and no other symbol's), and the feed's health; bad options exit 2.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MdListenTest {
    private static final List<SymbolSpec> SYMBOLS = List.of(SymbolSpec.of("AAA", 2, 1, 1), SymbolSpec.of("BBB", 2, 1, 1));
    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void printsTheSymbolsTopOfBookAsItChangesAndTheFeedsHealth() throws Exception {
        int stream = freeUdpPort();
        int snapshots = freeUdpPort();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        AtomicInteger exit = new AtomicInteger(-1);
        FeedSettings settings = FeedSettings.loopback(List.of(new InetSocketAddress("127.0.0.1", stream)),
            List.of(new InetSocketAddress("127.0.0.1", snapshots)));
        try (LoopbackVenue venue = new LoopbackVenue(settings, SYMBOLS, 5)) {
            Thread listener = new Thread(() -> {
                try {
                    exit.set(MdListen.run(new String[] {"--symbol", "BBB", "--channel", "127.0.0.1:" + stream,
                        "--snapshot-channel", "127.0.0.1:" + snapshots, "--retransmit",
                        "127.0.0.1:" + venue.publisher().counters().retransmitPort(), "--health-every", "1",
                        "--duration", "600"}, out, out));
                } catch (InterruptedException e) {
                    exit.set(130); // stopped by the test
                } catch (Exception e) {
                    e.printStackTrace(out);
                }
            }, "md-listen");
            listener.start();
            awaitOutput(bytes, "books from a snapshot as of message");
            venue.flow(2_000);
            List<String> books = venue.engineBooks();
            String bbb = books.get(1);
            String bestBid = bbb.substring(bbb.indexOf('[') + 1).split("[,\\]]")[0]; // "price x quantity"
            String[] bid = bestBid.split(" x ");
            awaitOutput(bytes, "BBB      bid " + bid[1] + " @ " + price(bid[0]));
            awaitOutput(bytes, "health: applied " + venue.publisher().counters().lastSequence() + " (");
            listener.interrupt();
            listener.join(TimeUnit.SECONDS.toMillis(30));
            assertEquals(130, exit.get());
        }
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(output.lines().noneMatch(line -> line.contains(" AAA ")), "only BBB's lines: " + output);
        assertTrue(output.startsWith("md-listen: stream 127.0.0.1:" + stream + ", snapshots 127.0.0.1:" + snapshots),
            output);
    }

    @Test
    void badOptionsExit2WithTheUsage() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertEquals(2, MdListen.run(new String[] {"--channel", "nowhere"}, err, err));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith("md-listen: --channel: not host:port: nowhere"),
            bytes.toString(StandardCharsets.UTF_8));
        assertEquals(2, MdListen.run(new String[] {"--duration", "-1"}, err, err));
        assertEquals(2, MdListen.run(new String[] {"--bogus", "1"}, err, err));
    }

    private static String price(String units) {
        return new java.math.BigDecimal(units).movePointLeft(2).toPlainString();
    }

    private static void awaitOutput(ByteArrayOutputStream bytes, String text) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!bytes.toString(StandardCharsets.UTF_8).contains(text)) {
            if (System.nanoTime() > deadline) {
                fail("md-listen did not print '" + text + "' within " + WAIT + ":\n" + bytes);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
