package io.fixmatch.server;

import io.fixmatch.loadgen.LoadgenMain;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No Docker engine runs here, so docker-compose.yml and the Dockerfile are checked against what they name: every
 * file, command, port, variable and path must exist in the repository or the distribution and agree with the
 * configuration's defaults, and the configuration they give the server must be one it accepts.
 */
@SuppressWarnings("unchecked")
class ComposeFileTest {
    private static final Path REPOSITORY = Path.of("..");
    /** The distribution's bin/ commands, as they are in the repository (dist/src/assembly copies them). */
    private static final Path BIN = REPOSITORY.resolve("dist/src/bin");
    private static final Pattern FLAG = Pattern.compile("^--[a-z-]+$");

    private static Map<String, Object> services;
    private static Map<String, Object> compose;
    private static List<String[]> dockerfile;
    private static ServerConfig defaults;

    @TempDir
    Path dir;

    @BeforeAll
    static void read() throws IOException {
        try (Reader in = Files.newBufferedReader(REPOSITORY.resolve("docker-compose.yml"), StandardCharsets.UTF_8)) {
            compose = new Yaml().load(in);
        }
        services = (Map<String, Object>) compose.get("services");
        dockerfile = instructions(REPOSITORY.resolve("Dockerfile"));
        defaults = ServerConfig.embedded();
    }

    @Test
    void theServerIsBuiltFromThisRepositoryAndTheLoadGeneratorRunsOnlyWhenAskedFor() throws IOException {
        assertEquals(Set.of("server", "loadgen", "node-0", "node-1", "node-2", "gateway", "gateway-1"),
            services.keySet());
        Map<String, Object> server = service("server");
        assertEquals(".", server.get("build"));
        assertTrue(Files.isRegularFile(REPOSITORY.resolve("Dockerfile")));
        assertFalse(server.containsKey("profiles"), "the server starts with a plain docker compose up");
        Map<String, Object> loadgen = service("loadgen");
        assertEquals(List.of("loadgen"), loadgen.get("profiles"));
        assertEquals(server.get("image"), loadgen.get("image"), "the load generator runs the server's image");
        assertEquals(Map.of("server", Map.of("condition", "service_healthy")), loadgen.get("depends_on"));
        assertTrue(Files.readString(REPOSITORY.resolve(".dockerignore")).contains("**/target/"));
    }

    /**
     * The replicated venue runs only when asked for (profile cluster): three nodes, a volume and a {@code --node} id
     * each, whose members are the services themselves, with room in /dev/shm for Aeron; and two gateways, gateway 0 on
     * the server's ports and gateway 1 beside it, each waiting for the nodes to be healthy and telling them where to
     * send its reports.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theClusterProfileRunsThreeNodesAndTwoGatewaysThatReachThemByTheirNames() {
        for (int id = 0; id < 3; id++) {
            String name = "node-" + id;
            Map<String, Object> node = service(name);
            ServerConfig cluster = ServerConfig.read(ConfigKeys.embedded(containerEnvironment(name), List.of()));
            assertEquals(List.of("cluster"), node.get("profiles"), name);
            assertEquals(List.of("bin/fixmatch-node"), node.get("entrypoint"), name);
            assertEquals(List.of("--node", Integer.toString(id)), node.get("command"), name);
            assertEquals(List.of(name + "-data:/var/lib/fixmatch"), node.get("volumes"), name);
            assertEquals(name, cluster.cluster().members().get(id).host(), "member " + id + " is service " + name);
            assertTrue(node.containsKey("shm_size"), name + ": Aeron's buffers need room in /dev/shm");
            assertEquals("http://127.0.0.1:" + cluster.cluster().members().get(id).adminPort() + "/health",
                healthUrl(name));
            assertEquals(ClusterConfig.DEFAULT_GATEWAY_TIMEOUT_MS, cluster.cluster().gatewayTimeoutMs(), name);
        }
        assertTrue(Files.isExecutable(BIN.resolve("fixmatch-node")) && Files.isExecutable(BIN.resolve("fixmatch-gateway")));
        assertEquals(service("server").get("ports"), service("gateway").get("ports"),
            "gateway 0: FIX and admin where the server has them");
        assertEquals(List.of("127.0.0.1:9879:9879", "127.0.0.1:9884:9884"), service("gateway-1").get("ports"),
            "gateway 1: FIX and admin where scripts/cluster.sh --gateways 2 puts them");

        List<String> gateways = List.of("gateway", "gateway-1");
        ServerConfig node0 = ServerConfig.read(ConfigKeys.embedded(containerEnvironment("node-0"), List.of()));
        for (int k = 0; k < gateways.size(); k++) {
            String name = gateways.get(k);
            Map<String, Object> gateway = service(name);
            ServerConfig config = gatewayConfig(name);
            assertEquals(List.of("cluster"), gateway.get("profiles"), name);
            assertEquals(List.of("bin/fixmatch-gateway"), gateway.get("entrypoint"), name);
            assertEquals(k, gatewayNumber(name), name + ": its --gateway-id");
            assertEquals(1 + k, config.cluster().gatewayId(), name + ": cluster.gatewayId, one of its own");
            assertEquals(Set.of("node-0", "node-1", "node-2"), ((Map<String, Object>) gateway.get("depends_on"))
                .keySet(), name);
            assertEquals(node0.cluster().members(), config.cluster().members(), name + ": the nodes' members");
            assertEquals(name, config.cluster().gatewayHost(), name + ": where the nodes send its reports");
            assertEquals(ClusterConfig.DEFAULT_GATEWAY_TIMEOUT_MS, config.cluster().gatewayTimeoutMs(), name);
            assertEquals(ServerMode.STANDALONE, config.mode(), "fixmatch-gateway sets cluster mode itself");
            assertEquals(List.of("127.0.0.1:" + config.gateway().port() + ":" + config.gateway().port(),
                "127.0.0.1:" + config.admin().port() + ":" + config.admin().port()), gateway.get("ports"),
                name + ": publishes the ports it listens on");
            assertEquals("http://127.0.0.1:" + config.admin().port() + "/health", healthUrl(name), name);
            assertEquals(List.of(name + "-data:" + config.dataDirectory()), gateway.get("volumes"),
                name + ": its data on a volume of its own");
            assertTrue(((Map<String, Object>) compose.get("volumes")).containsKey(name + "-data"), name);
            assertTrue(gateway.containsKey("shm_size"), name + ": Aeron's buffers need room in /dev/shm");
        }
    }

    /**
     * A gateway service's configuration as its container's {@code bin/fixmatch-gateway} reads it: the image's and the
     * service's environment, and the service's command ({@code --gateway-id K}, {@code --data DIR}: ServerMain's
     * flags), through {@link NumberedGateway}.
     */
    @SuppressWarnings("unchecked")
    private static ServerConfig gatewayConfig(String name) {
        List<String> command = (List<String>) service(name).getOrDefault("command", List.of());
        List<ConfigKeys.Flag> flags = new ArrayList<>();
        for (int i = 0; i < command.size(); i += 2) {
            switch (command.get(i)) {
                case NumberedGateway.FLAG -> { } // below
                case "--data" -> flags.add(new ConfigKeys.Flag("--data", "data.dir", command.get(i + 1)));
                default -> throw new AssertionError(name + ": a flag this test does not know: " + command.get(i));
            }
        }
        Map<String, String> environment = containerEnvironment(name);
        return ServerConfig.read(NumberedGateway.keys(gatewayNumber(name),
            given -> ConfigKeys.embedded(environment, given), flags));
    }

    /** A gateway service's {@code --gateway-id} (0 when its command gives none). */
    @SuppressWarnings("unchecked")
    private static int gatewayNumber(String name) {
        List<String> command = (List<String>) service(name).getOrDefault("command", List.of());
        int at = command.indexOf(NumberedGateway.FLAG);
        return at < 0 ? 0 : Integer.parseInt(command.get(at + 1));
    }

    @SuppressWarnings("unchecked")
    private static String healthUrl(String name) {
        return ((List<String>) ((Map<String, Object>) service(name).get("healthcheck")).get("test")).get(3);
    }

    @Test
    void theDockerfileBuildsTheDistributionWithMavenAndRunsItsServerOnAJdk() throws IOException {
        List<String> from = arguments("FROM");
        assertEquals(2, from.size(), "a build stage and a run stage");
        assertTrue(from.get(0).matches("maven:3\\.9-eclipse-temurin-17 AS build"), from.get(0));
        assertTrue(from.get(1).matches("eclipse-temurin:17-jdk"), from.get(1));
        for (String copy : arguments("COPY")) {
            if (!copy.startsWith("--from=")) {
                assertTrue(Files.exists(REPOSITORY.resolve(copy.split(" ")[0])), copy);
            }
        }
        String build = arguments("RUN").get(0);
        assertTrue(build.contains("scripts/dist.sh"), build);
        assertTrue(Files.isExecutable(REPOSITORY.resolve("scripts/dist.sh")));
        assertTrue(build.contains("dist/target/fixmatch-*.tar.gz"), build);
        assertTrue(Files.readString(REPOSITORY.resolve("dist/pom.xml"))
            .contains("<finalName>fixmatch-${project.version}</finalName>"), "the archive dist.sh makes");
        assertTrue(Files.readString(REPOSITORY.resolve("dist/src/assembly/distribution.xml"))
            .contains("<format>tar.gz</format>"));

        assertTrue(arguments("COPY").contains("--from=build /opt/fixmatch /opt/fixmatch"));
        assertEquals(List.of("/src", "/opt/fixmatch"), arguments("WORKDIR"));
        assertEquals(List.of("[\"bin/fixmatch-server\"]"), arguments("ENTRYPOINT"));
        assertTrue(Files.isExecutable(BIN.resolve("fixmatch-server")));
        assertEquals(List.of(defaults.gateway().port() + " " + defaults.admin().port()), arguments("EXPOSE"));
    }

    @Test
    void theContainerListensOnEveryInterfaceOnTheDefaultPortsWithTheDataOnANamedVolume() {
        Map<String, String> environment = containerEnvironment("server");
        assertEquals("0.0.0.0", environment.get(ConfigKeys.environmentName("fix.host")));
        assertEquals("0.0.0.0", environment.get(ConfigKeys.environmentName("admin.host")));

        List<String> ports = (List<String>) service("server").get("ports");
        assertEquals(List.of("127.0.0.1:" + defaults.gateway().port() + ":" + defaults.gateway().port(),
            "127.0.0.1:" + defaults.admin().port() + ":" + defaults.admin().port()), ports);

        String dataDirectory = environment.get(ConfigKeys.environmentName("data.dir"));
        assertNotNull(dataDirectory, "the Dockerfile sets the data folder");
        assertEquals(List.of("fixmatch-data:" + dataDirectory), service("server").get("volumes"));
        assertEquals(List.of(dataDirectory), arguments("VOLUME"));
        Map<String, Object> volumes = (Map<String, Object>) compose.get("volumes");
        assertTrue(volumes.containsKey("fixmatch-data") && volumes.containsKey("loadgen-reports"), volumes.toString());
        for (String service : services.keySet()) {
            for (String volume : (List<String>) service(service).getOrDefault("volumes", List.of())) {
                String path = volume.substring(volume.indexOf(':') + 1);
                assertTrue(arguments("RUN").get(1).contains("chown fixmatch " + dataDirectory)
                    && arguments("RUN").get(1).contains(path), path + " must belong to the user that runs");
            }
        }
    }

    @Test
    void everyVariableNamesAConfigurationKeyAndTheServerAcceptsTheirValues() {
        Set<String> known = new TreeSet<>(ConfigKeys.SCRIPT_VARIABLES);
        ConfigKeys keys = ConfigKeys.embedded(Map.of(), List.of());
        ServerConfig.read(keys);
        keys.reads().forEach(read -> known.add(read.environmentName()));
        for (String service : services.keySet()) {
            for (String variable : containerEnvironment(service).keySet()) {
                assertTrue(known.contains(variable), service + ": " + variable + " names no configuration key");
            }
        }
        // The server's configuration in the container, as the server reads it: strict, so a bad value fails here.
        ServerConfig container = ServerConfig.read(ConfigKeys.embedded(containerEnvironment("server"), List.of()));
        assertEquals("0.0.0.0", container.gateway().host());
        assertEquals(defaults.admin().port(), container.admin().port());
    }

    @Test
    void theHealthCheckAsksTheAdminEndpointWithAToolTheImageHas() {
        String url = "http://127.0.0.1:" + defaults.admin().port() + "/health";
        assertEquals(Map.of("test", List.of("CMD", "curl", "-fsS", url), "interval", "10s", "timeout", "3s",
            "retries", 3, "start_period", "60s"), service("server").get("healthcheck"));
        assertTrue(arguments("HEALTHCHECK").get(0).endsWith("CMD curl -fsS " + url + " || exit 1"),
            arguments("HEALTHCHECK").toString());
        assertTrue(arguments("RUN").get(1).contains("apt-get install -y --no-install-recommends curl"));
        assertEquals(Map.of("disable", true), service("loadgen").get("healthcheck"));
    }

    @Test
    void theLoadGeneratorRunsItsCommandAgainstTheServerServiceWithFlagsItKnows() throws Exception {
        Map<String, Object> loadgen = service("loadgen");
        assertEquals(List.of("bin/fixmatch-loadgen"), loadgen.get("entrypoint"));
        assertTrue(Files.isExecutable(BIN.resolve("fixmatch-loadgen")));
        List<String> command = (List<String>) loadgen.get("command");
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < command.size(); i += 2) {
            assertTrue(FLAG.matcher(command.get(i)).matches(), command.get(i));
            flags.put(command.get(i), command.get(i + 1));
        }
        assertEquals("server", flags.get("--host"), "the server service's name");
        assertEquals(Integer.toString(defaults.gateway().port()), flags.get("--port"));
        assertEquals(List.of("loadgen-reports:" + flags.get("--out")), loadgen.get("volumes"));
        String help = run(LoadgenMain.class.getName(), "--help");
        for (String flag : flags.keySet()) {
            assertTrue(help.contains(flag + " ") || help.contains(flag + "="), flag + " is not a load generator option: " + help);
        }
    }

    @Test
    void theJvmOptionsAreOnesTheJvmAccepts() throws Exception {
        for (String service : services.keySet()) {
            List<String> options = new ArrayList<>();
            for (String option : containerEnvironment(service).get("FIXMATCH_JAVA_OPTS").split(" ")) {
                if (!option.startsWith("-Xm")) { // the heap sizes are for the container, not this test
                    options.add(option.replaceAll("file=[^:]+", "file=" + dir.resolve("gc.log")));
                }
            }
            options.add("-version");
            run(null, options.toArray(String[]::new));
        }
    }

    private static Map<String, Object> service(String name) {
        return (Map<String, Object>) services.get(name);
    }

    /** What a service's container sees: the Dockerfile's ENV, then the compose file's environment. */
    private static Map<String, String> containerEnvironment(String service) {
        Map<String, String> environment = new LinkedHashMap<>();
        for (String env : arguments("ENV")) {
            Matcher pair = Pattern.compile("(\\w+)=(\\S+)").matcher(env);
            while (pair.find()) {
                environment.put(pair.group(1), pair.group(2));
            }
        }
        ((Map<String, Object>) service(service).getOrDefault("environment", Map.of()))
            .forEach((name, value) -> environment.put(name, String.valueOf(value)));
        return environment;
    }

    /** The arguments of every instruction of this kind, in order. */
    private static List<String> arguments(String instruction) {
        return dockerfile.stream().filter(i -> i[0].equals(instruction)).map(i -> i[1]).toList();
    }

    /** The Dockerfile's instructions: {keyword, arguments}, continuation lines joined, comments left out. */
    private static List<String[]> instructions(Path file) throws IOException {
        List<String[]> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.trim().startsWith("#")) {
                continue;
            }
            current.append(line.trim());
            if (line.endsWith("\\")) {
                current.setLength(current.length() - 1);
                current.append(' ');
                continue;
            }
            String text = current.toString().replaceAll("\\s+", " ");
            int space = text.indexOf(' ');
            instructions.add(new String[] {text.substring(0, space), text.substring(space + 1)});
            current.setLength(0);
        }
        return instructions;
    }

    /** Runs java (a main of this classpath, or none) with arguments; its output, which must end with status 0. */
    private static String run(String mainClass, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString()));
        if (mainClass != null) {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        }
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(WaitBounds.PROCESS.toMillis(), TimeUnit.MILLISECONDS), command.toString());
        assertEquals(0, process.exitValue(), command + ": " + output);
        return output;
    }
}
