package io.fixmatch.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Gateway K of a cluster ({@code fixmatch-gateway --gateway-id K}, {@code scripts/cluster.sh --gateways N}): the one
 * place that says where it listens and keeps its data. Every gateway of a cluster reads the same configuration, which
 * gives gateway 0's FIX port, admin port, data folder and {@code cluster.gatewayId}; gateway K's are those moved
 * along, so that two or more run on one machine without a clash: FIX port + K (9879 for gateway 1), admin port
 * + 3 + K (past the three nodes' admin ports that follow gateway 0's: 9884), data folder + "-K" ({@code data-1}
 * beside {@code data}), {@code cluster.gatewayId} + K, the binary feed's retransmission port + K (40459: each gateway
 * publishes the same numbered stream, docs/FEED.md, to the same channels; each answers retransmission requests on a
 * port of its own). A port of 0 (any free port; for the admin port: off) stays 0, and no retransmission service (-1)
 * stays none.
 * What this process's own flags set ({@code --port}, {@code --admin-port}, {@code --data}) stays as given: a flag
 * names this gateway's setting, the file and the environment the cluster's.
 */
final class NumberedGateway {
    static final String FLAG = "--gateway-id";
    /** The admin ports between gateway 0's and gateway 1's: the three nodes' (9881..9883 by default). */
    private static final int NODE_ADMIN_PORTS = 3;

    private NumberedGateway() {
    }

    /**
     * The keys gateway {@code k} reads: those {@code source} gives with the {@code given} flags, and flags setting the
     * keys moved for gateway {@code k} (named {@code --gateway-id K} in the start line's "set:" list). Gateway 0's are
     * the given keys themselves.
     *
     * @throws ConfigException when gateway 0's configuration is bad, or {@code k} is not below
     *                         {@code cluster.maxGateways}
     */
    static ConfigKeys keys(int k, Function<List<ConfigKeys.Flag>, ConfigKeys> source, List<ConfigKeys.Flag> given) {
        ConfigKeys keys = source.apply(given);
        if (k == 0) {
            return keys;
        }
        ServerConfig gateway0 = ServerConfig.read(keys);
        int max = gateway0.cluster().maxGateways();
        if (k < 0 || k >= max) {
            throw new ConfigException(FLAG + " must be 0.." + (max - 1) + " (cluster.maxGateways is " + max
                + "), was " + k);
        }
        String name = FLAG + " " + k;
        List<ConfigKeys.Flag> flags = new ArrayList<>(given);
        addUnlessGiven(flags, new ConfigKeys.Flag(name, "fix.port", moved(gateway0.gateway().port(), k)));
        addUnlessGiven(flags, new ConfigKeys.Flag(name, "admin.port",
            moved(gateway0.admin().port(), NODE_ADMIN_PORTS + k)));
        addUnlessGiven(flags, new ConfigKeys.Flag(name, "data.dir", folder(gateway0.dataDirectory(), k).toString()));
        addUnlessGiven(flags, new ConfigKeys.Flag(name, "cluster.gatewayId",
            Integer.toString(gateway0.cluster().gatewayId() + k)));
        if (gateway0.feed() != null && gateway0.feed().retransmitPort() > 0) {
            addUnlessGiven(flags, new ConfigKeys.Flag(name, "marketData.feed.retransmitPort",
                Integer.toString(gateway0.feed().retransmitPort() + k)));
        }
        return source.apply(flags);
    }

    /** Gateway k's data folder beside gateway 0's: {@code /srv/data} gives {@code /srv/data-1}. */
    private static Path folder(Path gateway0, int k) {
        return Path.of(gateway0.toAbsolutePath().normalize() + "-" + k);
    }

    /** A port moved along, except 0 (any free port, or off), which stays 0. */
    private static String moved(int port, int by) {
        return Integer.toString(port == 0 ? 0 : port + by);
    }

    private static void addUnlessGiven(List<ConfigKeys.Flag> flags, ConfigKeys.Flag flag) {
        if (flags.stream().noneMatch(given -> given.key().equals(flag.key()))) {
            flags.add(flag);
        }
    }
}
