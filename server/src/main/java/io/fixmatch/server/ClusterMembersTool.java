package io.fixmatch.server;

import io.fixmatch.cluster.node.ClusterMember;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * For {@code scripts/cluster.sh}: the cluster's members as the configuration gives them (the same defaults, file and
 * {@code FIXMATCH_...} variables the nodes read), one {@code id host adminPort} line each, or with
 * {@code --gateway-admin} the gateway's admin endpoint as {@code host:port}, or with {@code --gateway-ports} the
 * gateway's {@code adminHost adminPort fixPort} (the first gateway's: scripts/cluster.sh numbers the others' from
 * them). Exit 2 with the reason on a bad configuration.
 */
@Command(name = "fixmatch-cluster-members", mixinStandardHelpOptions = true,
    description = "Prints the cluster's members (id host adminPort) as the configuration lists them.")
public final class ClusterMembersTool implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "the configuration file")
    private Path configFile;

    @Option(names = "--gateway-admin", description = "print the gateway's admin endpoint (host:port) instead")
    private boolean gatewayAdmin;

    @Option(names = "--gateway-ports", description = "print the gateway's adminHost adminPort fixPort instead")
    private boolean gatewayPorts;

    public static void main(String[] args) {
        System.exit(Cli.of(new ClusterMembersTool()).execute(args));
    }

    @Override
    public Integer call() {
        ServerConfig config;
        try {
            ConfigKeys keys = configFile == null ? ConfigKeys.embedded(System.getenv(), List.of())
                : ConfigKeys.load(configFile, System.getenv(), List.of());
            config = ServerConfig.read(keys);
        } catch (ConfigException e) {
            System.err.println("cluster: bad configuration: " + e.getMessage());
            return ServerMain.EXIT_BAD_CONFIGURATION;
        }
        if (gatewayPorts) {
            System.out.println(config.admin().host() + " " + config.admin().port() + " " + config.gateway().port());
            return 0;
        }
        if (gatewayAdmin) {
            System.out.println(config.admin().host() + ":" + config.admin().port());
            return 0;
        }
        for (ClusterMember member : config.cluster().members().members()) {
            System.out.println(member.id() + " " + member.host() + " " + member.adminPort());
        }
        return 0;
    }
}
