package io.fixmatch.feed.publisher;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * The binary feed's settings (docs/FEED.md, docs/CONFIG.md {@code marketData.feed.*}).
 *
 * @param session                 the datagrams' session name (up to 10 ASCII characters)
 * @param channel                 where the stream goes: a multicast group, or one or more unicast addresses
 * @param snapshotChannel         where the snapshot cycles go (the same kinds of address)
 * @param retransmitHost          the address the retransmission service listens on
 * @param retransmitPort          its UDP port (0: any free one, -1: no retransmission service)
 * @param snapshotIntervalMs      a cycle of every symbol's book this often
 * @param heartbeatIntervalMs     a heartbeat on the stream when it was quiet this long
 * @param maxDatagramBytes        the most one datagram carries
 * @param historyMessages         messages kept for retransmission (the newest ones)
 * @param maxMessagesPerRequest   the most one retransmission request may ask for
 * @param maxMessagesPerClientPerSecond the most messages one requester (address and port) is sent a second
 * @param multicastTtl            the hops a multicast datagram may take (0: this host only, 1: the local network)
 */
public record FeedSettings(String session, List<InetSocketAddress> channel, List<InetSocketAddress> snapshotChannel,
                           String retransmitHost, int retransmitPort, long snapshotIntervalMs,
                           long heartbeatIntervalMs, int maxDatagramBytes, int historyMessages,
                           int maxMessagesPerRequest, int maxMessagesPerClientPerSecond, int multicastTtl) {
    public static final String DEFAULT_SESSION = "FIXMATCH";

    public FeedSettings {
        if (channel.isEmpty()) {
            throw new IllegalArgumentException("the feed's channel names no address");
        }
        if (maxDatagramBytes < 256 || maxDatagramBytes > 65_507) {
            throw new IllegalArgumentException("maxDatagramBytes must be 256..65507, was " + maxDatagramBytes);
        }
        if (multicastTtl < 0 || multicastTtl > 255) {
            throw new IllegalArgumentException("multicastTtl must be 0..255, was " + multicastTtl);
        }
        if (Integer.bitCount(historyMessages) != 1) {
            throw new IllegalArgumentException("historyMessages must be a power of two, was " + historyMessages);
        }
        channel = List.copyOf(channel);
        snapshotChannel = List.copyOf(snapshotChannel);
    }

    /** Loopback defaults around the given channels (tests). */
    public static FeedSettings loopback(List<InetSocketAddress> channel, List<InetSocketAddress> snapshotChannel) {
        return new FeedSettings(DEFAULT_SESSION, channel, snapshotChannel, "127.0.0.1", 0, 1000, 1000,
            1472, 1 << 18, 10_000, 200_000, 1);
    }
}
