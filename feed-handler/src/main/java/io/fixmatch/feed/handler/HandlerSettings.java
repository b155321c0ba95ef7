package io.fixmatch.feed.handler;

import java.net.InetSocketAddress;

/**
 * Where a {@link FeedHandler} listens and asks (docs/FEED.md).
 *
 * @param session             the feed's session name (datagrams of another are ignored)
 * @param stream              the stream's address: a multicast group and port (joined), or the local unicast address
 *                            and port the publisher sends to (bound)
 * @param snapshots           the snapshot channel's address, the same way
 * @param retransmit          the publisher's retransmission service (null: none; gaps then cost a snapshot)
 * @param interfaceName       the network interface to join multicast groups on (null: the system's choice)
 * @param maxPerRequest       the most messages one retransmission request asks for
 * @param retransmitTimeoutMs a request not answered this long is asked again
 * @param tooFarBehind        a gap wider than this is not asked for: the handler takes a snapshot instead
 */
public record HandlerSettings(String session, InetSocketAddress stream, InetSocketAddress snapshots,
                              InetSocketAddress retransmit, String interfaceName, int maxPerRequest,
                              long retransmitTimeoutMs, long tooFarBehind) {
    public static final String DEFAULT_SESSION = "FIXMATCH";

    /** The defaults around the given addresses. */
    public static HandlerSettings of(InetSocketAddress stream, InetSocketAddress snapshots,
                                     InetSocketAddress retransmit) {
        return new HandlerSettings(DEFAULT_SESSION, stream, snapshots, retransmit, null, 1000, 200, 50_000);
    }
}
