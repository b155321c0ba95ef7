package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.feed.codec.BookSide;
import io.fixmatch.feed.codec.SymbolBook;
import io.fixmatch.feed.handler.FeedHandler;
import io.fixmatch.feed.handler.HandlerSettings;
import io.fixmatch.server.WaitBounds;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The reference feed handler in the whole-server tests: handlers listening on loopback ports of their own, the server's
 * feed configured to send there ({@link #overrides}), their books compared with the admin endpoint's {@code /book}.
 */
public final class FeedBooks {
    private FeedBooks() {
    }

    /** A handler on free loopback ports, not started; its retransmission service is asked once the server runs. */
    public static FeedHandler handler(int retransmitPort) {
        return handler(0, 0, retransmitPort);
    }

    /** A handler on these loopback ports (0: free ones), not started. */
    public static FeedHandler handler(int streamPort, int snapshotPort, int retransmitPort) {
        return new FeedHandler(settings(streamPort, snapshotPort, retransmitPort));
    }

    /** A handler on these loopback ports (0: free ones) hearing only the feed session {@code session}, not started. */
    public static FeedHandler handler(int streamPort, int snapshotPort, int retransmitPort, String session) {
        HandlerSettings settings = settings(streamPort, snapshotPort, retransmitPort);
        return new FeedHandler(new HandlerSettings(session, settings.stream(), settings.snapshots(),
            settings.retransmit(), settings.interfaceName(), settings.maxPerRequest(), settings.retransmitTimeoutMs(),
            settings.tooFarBehind()));
    }

    private static HandlerSettings settings(int streamPort, int snapshotPort, int retransmitPort) {
        return HandlerSettings.of(new InetSocketAddress("127.0.0.1", streamPort),
            new InetSocketAddress("127.0.0.1", snapshotPort), new InetSocketAddress("127.0.0.1", retransmitPort));
    }

    /**
     * A feed session name of the test server whose retransmission service is on {@code retransmitPort}: that server
     * binds the port while it runs, so no two running servers share the name, and a handler of one test hears no
     * datagram of another's server sent to a port it happens to reuse ({@code marketData.feed.session}).
     */
    public static String session(int retransmitPort) {
        return "T" + retransmitPort;
    }

    /** The server's feed keys sending the stream and the snapshots to these handlers' ports. */
    public static Map<String, String> overrides(int retransmitPort, FeedHandler... handlers) {
        List<Integer> streams = new ArrayList<>();
        List<Integer> snapshots = new ArrayList<>();
        for (FeedHandler handler : handlers) {
            streams.add(handler.streamPort());
            snapshots.add(handler.snapshotPort());
        }
        return overrides(retransmitPort, streams, snapshots);
    }

    /** The server's feed keys sending the stream and the snapshots to these loopback ports. */
    public static Map<String, String> overrides(int retransmitPort, List<Integer> streamPorts,
                                                List<Integer> snapshotPorts) {
        Map<String, String> keys = new HashMap<>();
        keys.put("marketData.feed.channel", loopback(streamPorts));
        keys.put("marketData.feed.snapshotChannel", loopback(snapshotPorts));
        keys.put("marketData.feed.retransmitPort", String.valueOf(retransmitPort));
        keys.put("marketData.feed.snapshotIntervalMs", "200");
        return keys;
    }

    private static String loopback(List<Integer> ports) {
        return String.join(",", ports.stream().map(port -> "127.0.0.1:" + port).toList());
    }

    /**
     * Waits until the handler holds books and has applied the feed's last message ({@code lastPublished}, read again
     * each time: the publisher may still be sending); returns that number.
     */
    public static long awaitCaughtUp(FeedHandler handler, LongSupplier lastPublished) throws InterruptedException {
        long deadline = System.nanoTime() + WaitBounds.ANSWER.toNanos();
        while (true) {
            long last = lastPublished.getAsLong();
            if (handler.synced() && last > 0 && handler.health().lastApplied() == last) {
                return last;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the handler did not apply the feed's last message " + last + " within "
                    + WaitBounds.ANSWER + ": " + handler.health());
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /** The last number {@code GET /feed} says the server published; -1 if it does not answer. */
    static long lastPublished(AdminClient admin) {
        try {
            return admin.getJson("/feed", 200).get("lastSequence").asLong();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Whether the handler's top {@code depth} levels of the symbol are {@code /book}'s (its JSON). */
    public static boolean matches(FeedHandler handler, String symbol, JsonNode book, int depth) {
        synchronized (handler) {
            int id = handler.symbolId(symbol);
            SymbolBook held = handler.book(id);
            return held != null && handler.synced()
                && levels(held.bids, depth, handler.priceScale(id)).equals(levels(book.get("bids")))
                && levels(held.asks, depth, handler.priceScale(id)).equals(levels(book.get("asks")));
        }
    }

    public static String describe(FeedHandler handler, String symbol) {
        return symbol + " " + handler.levels(symbol) + " (" + handler.health() + ")";
    }

    private static List<String> levels(BookSide side, int depth, int scale) {
        List<String> levels = new ArrayList<>();
        for (int i = 0; i < Math.min(depth, side.size()); i++) {
            levels.add(BigDecimal.valueOf(side.price(i), scale).stripTrailingZeros().toPlainString() + " x "
                + side.quantity(i));
        }
        return levels;
    }

    private static List<String> levels(JsonNode levels) {
        List<String> list = new ArrayList<>();
        for (JsonNode level : levels) {
            list.add(new BigDecimal(level.get("price").asText()).stripTrailingZeros().toPlainString() + " x "
                + level.get("quantity").asLong());
        }
        return list;
    }
}
