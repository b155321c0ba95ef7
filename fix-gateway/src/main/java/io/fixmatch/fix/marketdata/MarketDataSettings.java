package io.fixmatch.fix.marketdata;

import java.util.Set;

/**
 * Market data over FIX (docs/FIX.md "Market data"; keys in docs/CONFIG.md).
 *
 * @param enabled            whether the engine publishes market data and the gateways serve MarketDataRequests
 * @param maxDepth           the most price levels per side a subscription may ask for; MarketDepth 0 means this many
 * @param maxPendingBytes    a subscriber whose connection holds more unsent bytes than this is behind: its updates
 *                           are conflated until it is back under half of it
 * @param indicativeSessions the client CompIDs of the sessions that may ask for the indicative uncross (269=Q,
 *                           {@code session.<ID>.marketData.indicative}): Q is no FIX 4.4 MDEntryType, and a client
 *                           validating with the standard FIX 4.4 dictionary rejects every message carrying it, so
 *                           no other session is ever sent one
 */
public record MarketDataSettings(boolean enabled, int maxDepth, long maxPendingBytes, Set<String> indicativeSessions) {
    /** The largest maxDepth whose snapshot fits in one message of this size with symbols this long. */
    public static int maxDepthFor(int maxMessageSize, int longestSymbol) {
        return IncrementalBody.entriesPerMessage(maxMessageSize, longestSymbol) / 2;
    }

    public MarketDataSettings {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("marketData.maxDepth must be positive, was " + maxDepth);
        }
        if (maxPendingBytes < 1) {
            throw new IllegalArgumentException("marketData.maxPendingBytes must be positive, was " + maxPendingBytes);
        }
        indicativeSessions = indicativeSessions == null ? Set.of() : Set.copyOf(indicativeSessions);
    }

    /** Whether the session of this client CompID may ask for 269=Q. */
    public boolean indicativeFor(String clientCompId) {
        return indicativeSessions.contains(clientCompId);
    }

    /** No session configured for 269=Q. */
    public static MarketDataSettings defaults() {
        return new MarketDataSettings(true, 20, 256 * 1024, Set.of());
    }
}
