package io.fixmatch.server;

import io.fixmatch.cluster.node.ClusterMember;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * For {@code scripts/cluster.sh}: the cluster's members as the configuration gives them (the same defaults, file and
 * {@code FIXMATCH_...} variables the nodes read), one {@code id host adminPort} line each, or with
 * {@code --gateway-admin} the gateway's admin endpoint as {@code host:port}, or with {@code --gateway-ports} one
 * {@code adminHost adminPort fixPort gatewayId dataFolder} line for each {@code --gateway-id K} (default 0), as
 * {@code fixmatch-server --mode cluster --gateway-id K} resolves them ({@link NumberedGateway}). Exit 2 with the
 * reason on a bad configuration.
 */
@Command(name = "fixmatch-cluster-members", mixinStandardHelpOptions = true,
    description = "Prints the cluster's members (id host adminPort) as the configuration lists them.")
public final class ClusterMembersTool implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "the configuration file")
    private Path configFile;

    @Option(names = "--gateway-admin", description = "print the gateway's admin endpoint (host:port) instead")
    private boolean gatewayAdmin;

    @Option(names = "--gateway-ports",
        description = "print each gateway's adminHost adminPort fixPort gatewayId dataFolder instead")
    private boolean gatewayPorts;

    @Option(names = NumberedGateway.FLAG, paramLabel = "K",
        description = "with --gateway-ports: gateway K (repeatable; default 0)")
    private List<Integer> gatewayNumbers;

    public static void main(String[] args) {
        System.exit(Cli.of(new ClusterMembersTool()).execute(args));
    }

    @Override
    public Integer call() {
        ServerConfig config;
        List<String> gateways = new ArrayList<>();
        try {
            config = ServerConfig.read(keys(List.of()));
            for (int k : !gatewayPorts ? List.<Integer>of() : gatewayNumbers == null ? List.of(0) : gatewayNumbers) {
                ServerConfig gateway = ServerConfig.read(NumberedGateway.keys(k, this::keys, List.of()));
                gateways.add(gateway.admin().host() + " " + gateway.admin().port() + " " + gateway.gateway().port()
                    + " " + gateway.cluster().gatewayId() + " " + gateway.dataDirectory().toAbsolutePath());
            }
        } catch (ConfigException e) {
            System.err.println("cluster: bad configuration: " + e.getMessage());
            return ServerMain.EXIT_BAD_CONFIGURATION;
        }
        if (gatewayPorts) {
            gateways.forEach(System.out::println);
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

    private ConfigKeys keys(List<ConfigKeys.Flag> flags) {
        return ConfigKeys.fileOrEmbedded(configFile, System.getenv(), flags);
    }
}
