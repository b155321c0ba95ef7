package io.fixmatch.feed.codec;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * A feed channel as the configuration names it ({@code marketData.feed.channel}, {@code snapshotChannel}): a multicast
 * group and port, or one or more unicast addresses (the publisher sends each datagram to each), comma-separated.
 */
public final class Channel {
    private Channel() {
    }

    /** "host:port[,host:port...]" (a multicast group, or unicast addresses) into addresses; none for "". */
    public static List<InetSocketAddress> parse(String text) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String part : text.split(",")) {
            String item = part.trim();
            if (item.isEmpty()) {
                continue;
            }
            int colon = item.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("not host:port: " + item);
            }
            int port;
            try {
                port = Integer.parseInt(item.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not host:port: " + item, e);
            }
            if (port < 1 || port > 65_535) {
                throw new IllegalArgumentException("port out of range: " + item);
            }
            try {
                addresses.add(new InetSocketAddress(InetAddress.getByName(item.substring(0, colon)), port));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("unknown host: " + item, e);
            }
        }
        return addresses;
    }

    /** An address as the configuration writes it: "host:port". */
    public static String text(InetSocketAddress address) {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }
}
