package io.fixmatch.fix.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The source addresses a session may log on from: IP addresses and CIDR blocks (IPv4 or IPv6), e.g.
 * {@code 10.1.2.3,192.168.0.0/16}. Empty: any address. Only literal addresses are accepted (no host names, so that
 * nothing here waits on DNS). Immutable; any thread.
 */
public final class AllowedAddresses {
    private static final AllowedAddresses ANY = new AllowedAddresses(List.of(), "any");
    private static final Pattern LITERAL = Pattern.compile("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

    private record Block(byte[] network, int prefixBits) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int fullBytes = prefixBits / 8;
            for (int i = 0; i < fullBytes; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefixBits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return (address[fullBytes] & mask) == (network[fullBytes] & mask);
        }
    }

    private final List<Block> blocks;
    private final String text;

    private AllowedAddresses(List<Block> blocks, String text) {
        this.blocks = blocks;
        this.text = text;
    }

    public static AllowedAddresses any() {
        return ANY;
    }

    /**
     * Parses a comma-separated list; blank means any address.
     *
     * @throws IllegalArgumentException naming the entry that is not an IP address or CIDR block
     */
    public static AllowedAddresses parse(String list) {
        if (list == null || list.isBlank()) {
            return ANY;
        }
        List<Block> blocks = new ArrayList<>();
        for (String item : list.split(",")) {
            String entry = item.trim();
            int slash = entry.indexOf('/');
            String host = slash < 0 ? entry : entry.substring(0, slash);
            if (!LITERAL.matcher(host).matches()) {
                throw new IllegalArgumentException("'" + entry + "' is not an IP address or CIDR block");
            }
            byte[] network;
            try {
                network = InetAddress.getByName(host).getAddress(); // a literal: no lookup
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("'" + entry + "' is not an IP address or CIDR block", e);
            }
            int bits = network.length * 8;
            if (slash >= 0) {
                try {
                    bits = Integer.parseInt(entry.substring(slash + 1));
                } catch (NumberFormatException e) {
                    bits = -1;
                }
                if (bits < 0 || bits > network.length * 8) {
                    throw new IllegalArgumentException("'" + entry + "' has a prefix length out of 0.."
                        + network.length * 8);
                }
            }
            blocks.add(new Block(network, bits));
        }
        return new AllowedAddresses(List.copyOf(blocks), String.join(",", list.trim().split("\\s*,\\s*")));
    }

    /** Whether a connection from {@code address} may log on (null, an unknown address: only if any is allowed). */
    public boolean allows(InetAddress address) {
        if (blocks.isEmpty()) {
            return true;
        }
        if (address == null) {
            return false;
        }
        byte[] bytes = address.getAddress();
        for (Block block : blocks) {
            if (block.contains(bytes)) {
                return true;
            }
        }
        return false;
    }

    public boolean allowsAny() {
        return blocks.isEmpty();
    }

    @Override
    public String toString() {
        return text;
    }
}
