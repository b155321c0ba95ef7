package io.fixmatch.feed.publisher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;

/**
 * Sends each datagram to every destination of a channel (a multicast group: one send reaches every subscriber; or
 * unicast addresses, one send each) from one unconnected, non-blocking socket: a subscriber that is gone or slow costs
 * nothing (UDP has no back-pressure; a full socket buffer drops the datagram, which handlers recover). One thread.
 */
final class UdpSender implements AutoCloseable {
    private final DatagramChannel channel;
    private final InetSocketAddress[] destinations;

    /** @param multicastTtl the hops a datagram to a multicast group may take (0: this host only) */
    UdpSender(List<InetSocketAddress> destinations, int multicastTtl) {
        this.destinations = destinations.toArray(InetSocketAddress[]::new);
        try {
            channel = DatagramChannel.open(StandardProtocolFamily.INET);
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, 4 * 1024 * 1024);
            channel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            channel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, multicastTtl);
        } catch (IOException e) {
            throw new UncheckedIOException("the feed's socket cannot be opened", e);
        }
    }

    /** Sends {@code buffer}'s bytes (position to limit) to every destination; returns the sends that failed. */
    int send(ByteBuffer buffer) {
        int failed = 0;
        int position = buffer.position();
        for (InetSocketAddress destination : destinations) {
            buffer.position(position);
            try {
                if (channel.send(buffer, destination) == 0) {
                    failed++; // the socket's buffer is full: dropped, as the network would
                }
            } catch (IOException e) {
                failed++;
            }
        }
        return failed;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing
        }
    }
}
