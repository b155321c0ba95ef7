package io.fixmatch.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Gateway K of a cluster ({@code fixmatch-gateway --gateway-id K}, {@code scripts/cluster.sh --gateways N}): the
 * configuration's (and the environment's) ports, data folder and {@code cluster.gatewayId} are gateway 0's, gateway
 * K's are moved along; this process's own flags stay as given.
 */
class NumberedGatewayTest {
    private static final Path DATA = Path.of("data").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void gatewayZeroIsTheConfigurationsAndGatewayKListensBesideIt() {
        ServerConfig gateway0 = gateway(0, Map.of(), List.of());
        assertEquals(9878, gateway0.gateway().port());
        assertEquals(9880, gateway0.admin().port());
        assertEquals(Path.of("data"), gateway0.dataDirectory());
        assertEquals(1, gateway0.cluster().gatewayId());

        ServerConfig gateway1 = gateway(1, Map.of(), List.of());
        assertEquals(9879, gateway1.gateway().port());
        assertEquals(9884, gateway1.admin().port(), "past the three nodes' admin ports, 9881..9883");
        assertEquals(Path.of(DATA + "-1"), gateway1.dataDirectory());
        assertEquals(2, gateway1.cluster().gatewayId());
        assertEquals(40459, gateway1.feed().retransmitPort(), "the feed's retransmission port beside gateway 0's");

        ServerConfig gateway2 = gateway(2, Map.of(), List.of());
        assertEquals(List.of(9880, 9885, 3), List.of(gateway2.gateway().port(), gateway2.admin().port(),
            gateway2.cluster().gatewayId()));
        assertEquals(Path.of(DATA + "-2"), gateway2.dataDirectory());
    }

    @Test
    void theStartLineSaysWhatTheNumberSet() {
        ConfigKeys keys = NumberedGateway.keys(1, flags -> ConfigKeys.embedded(Map.of(), flags), List.of());
        ServerConfig.read(keys);
        List<String> overrides = keys.overrides();
        for (String set : List.of("fix.port=9879 (--gateway-id 1)", "admin.port=9884 (--gateway-id 1)",
            "data.dir=" + DATA + "-1 (--gateway-id 1)", "cluster.gatewayId=2 (--gateway-id 1)")) {
            assertTrue(overrides.contains(set), set + " in " + overrides);
        }
    }

    @Test
    void theEnvironmentIsGatewayZerosAsTheFileIs() {
        Map<String, String> environment = Map.of("FIXMATCH_FIX_PORT", "7000", "FIXMATCH_ADMIN_PORT", "7100",
            "FIXMATCH_DATA_DIR", "/srv/gateway", "FIXMATCH_CLUSTER_GATEWAY_ID", "10");
        ServerConfig gateway2 = gateway(2, environment, List.of());
        assertEquals(7002, gateway2.gateway().port());
        assertEquals(7105, gateway2.admin().port());
        assertEquals(Path.of("/srv/gateway-2"), gateway2.dataDirectory());
        assertEquals(12, gateway2.cluster().gatewayId());
    }

    @Test
    void thisProcesssOwnFlagsStayAsGivenAndAPortOfZeroStaysZero() {
        ServerConfig flagged = gateway(1, Map.of("FIXMATCH_ADMIN_PORT", "0"), List.of(
            new ConfigKeys.Flag("--port", "fix.port", "5555"), new ConfigKeys.Flag("--data", "data.dir", "/srv/g")));
        assertEquals(5555, flagged.gateway().port());
        assertEquals(Path.of("/srv/g"), flagged.dataDirectory());
        assertEquals(0, flagged.admin().port(), "admin off stays off");
        assertEquals(2, flagged.cluster().gatewayId(), "its number still gives it an id of its own");

        assertEquals(0, gateway(3, Map.of("FIXMATCH_FIX_PORT", "0"), List.of()).gateway().port(), "any free port");
        assertEquals(0, gateway(3, Map.of("FIXMATCH_MARKET_DATA_FEED_RETRANSMIT_PORT", "0"), List.of()).feed()
            .retransmitPort(), "any free port");
        assertEquals(-1, gateway(3, Map.of("FIXMATCH_MARKET_DATA_FEED_RETRANSMIT_PORT", "-1"), List.of()).feed()
            .retransmitPort(), "no retransmission service stays none");
    }

    @Test
    void aNumberOutsideTheClustersGatewaysIsRefused() {
        ConfigException refused = assertThrows(ConfigException.class, () -> gateway(8, Map.of(), List.of()));
        assertEquals("--gateway-id must be 0..7 (cluster.maxGateways is 8), was 8", refused.getMessage());
        assertThrows(ConfigException.class, () -> gateway(-1, Map.of(), List.of()));
        assertThrows(ConfigException.class, () -> gateway(2, Map.of("FIXMATCH_CLUSTER_MAX_GATEWAYS", "2"), List.of()));
        ConfigException tooHigh = assertThrows(ConfigException.class,
            () -> gateway(1, Map.of("FIXMATCH_FIX_PORT", "65535"), List.of()));
        assertEquals("fix.port must be 0..65535, was 65536 (from --gateway-id 1)", tooHigh.getMessage());
    }

    /** scripts/cluster.sh reads each gateway's ports, id and folder from the tool: the server's own resolution. */
    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void theClusterScriptsToolPrintsWhatTheGatewayResolves() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(dir)) {
            Path folder = dir.resolve("cluster/gateway");
            Process tool = processes.startMain(ClusterMembersTool.class.getName(), Map.of("FIXMATCH_DATA_DIR",
                folder.toString(), "FIXMATCH_FIX_PORT", "7000"), "--gateway-ports", "--gateway-id", "0",
                "--gateway-id", "1");
            assertEquals(0, processes.awaitExit(tool), processes.output(tool));
            assertEquals("127.0.0.1 9880 7000 1 " + folder + "\n127.0.0.1 9884 7001 2 " + folder + "-1\n",
                processes.output(tool));
        }
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aNumberedGatewayIsRefusedInStandaloneMode() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(dir)) {
            Process server = processes.start("--gateway-id", "1", "--port", "0", "--admin-port", "0");
            assertEquals(2, processes.awaitExit(server), processes.output(server));
            assertEquals("fixmatch-server: bad configuration: --gateway-id numbers the gateways of a cluster: it needs"
                + " server.mode=cluster (fixmatch-gateway, or --mode cluster)\n", processes.output(server));
        }
    }

    private static ServerConfig gateway(int k, Map<String, String> environment, List<ConfigKeys.Flag> flags) {
        return ServerConfig.read(NumberedGateway.keys(k, given -> ConfigKeys.embedded(environment, given), flags));
    }
}
