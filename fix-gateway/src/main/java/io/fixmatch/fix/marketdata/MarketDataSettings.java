package io.fixmatch.fix.marketdata;

/**
 * Market data over FIX (docs/FIX.md "Market data"; keys in docs/CONFIG.md).
 *
 * @param enabled         whether the engine publishes market data and the gateways serve MarketDataRequests
 * @param maxDepth        the most price levels per side a subscription may ask for; MarketDepth 0 means this many
 * @param maxPendingBytes a subscriber whose connection holds more unsent bytes than this is behind: its updates are
 *                        conflated until it is back under half of it
 */
public record MarketDataSettings(boolean enabled, int maxDepth, long maxPendingBytes) {
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
    }

    public static MarketDataSettings defaults() {
        return new MarketDataSettings(true, 20, 256 * 1024);
    }
}
