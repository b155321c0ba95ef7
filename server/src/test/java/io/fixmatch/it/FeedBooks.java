package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.fixmatch.feed.codec.BookSide;
import io.fixmatch.feed.codec.SymbolBook;
import io.fixmatch.feed.handler.FeedHandler;
import io.fixmatch.feed.handler.HandlerSettings;

import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference feed handler in the whole-server tests: one listening on loopback ports of its own, the server's feed
 * configured to send there ({@link #overrides}), and its books compared with the admin endpoint's {@code /book}.
 */
final class FeedBooks {
    private FeedBooks() {
    }

    /** A handler on free loopback ports, not started; its retransmission service is asked once the server runs. */
    static FeedHandler handler(int retransmitPort) {
        return new FeedHandler(HandlerSettings.of(new InetSocketAddress("127.0.0.1", 0),
            new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", retransmitPort)));
    }

    /** The server's feed keys sending the stream and the snapshots to these handlers' ports. */
    static Map<String, String> overrides(int retransmitPort, FeedHandler... handlers) {
        List<String> streams = new ArrayList<>();
        List<String> snapshots = new ArrayList<>();
        for (FeedHandler handler : handlers) {
            streams.add("127.0.0.1:" + handler.streamPort());
            snapshots.add("127.0.0.1:" + handler.snapshotPort());
        }
        Map<String, String> keys = new HashMap<>();
        keys.put("marketData.feed.channel", String.join(",", streams));
        keys.put("marketData.feed.snapshotChannel", String.join(",", snapshots));
        keys.put("marketData.feed.retransmitPort", String.valueOf(retransmitPort));
        keys.put("marketData.feed.snapshotIntervalMs", "200");
        return keys;
    }

    /** Whether the handler's top {@code depth} levels of the symbol are {@code /book}'s (its JSON). */
    static boolean matches(FeedHandler handler, String symbol, JsonNode book, int depth) {
        synchronized (handler) {
            int id = handler.symbolId(symbol);
            SymbolBook held = handler.book(id);
            return held != null && handler.synced()
                && levels(held.bids, depth, handler.priceScale(id)).equals(levels(book.get("bids")))
                && levels(held.asks, depth, handler.priceScale(id)).equals(levels(book.get("asks")));
        }
    }

    static String describe(FeedHandler handler, String symbol) {
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
