package io.fixmatch.server;

import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.journal.JournalException;
import io.fixmatch.server.logging.ServerLogging;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code fixmatch-server}: runs the server in the foreground until SIGTERM or Ctrl-C, then shuts down cleanly and
 * exits 0, at any moment from the start of {@code main} on (during the start: at its next step, see
 * {@link StopSignals}). Exits 2 on bad arguments or configuration, 1 when it cannot start (port taken, unreadable
 * journal).
 */
@Command(name = "fixmatch-server", mixinStandardHelpOptions = true, versionProvider = ServerMain.Version.class,
    sortOptions = false,
    description = "Runs the fixmatch FIX 4.4 matching server in the foreground; SIGTERM or Ctrl-C stops it cleanly.",
    footerHeading = "%n",
    footer = {
        "Defaults: FIX 4.4 on 127.0.0.1:9878, CompID FIXMATCH, sessions CLIENT1, CLIENT2, LOADGEN; admin endpoint on "
            + "127.0.0.1:9880; journal, session state and logs under ./data.",
        "Every configuration key is in docs/CONFIG.md. A key's value comes from the first of: a flag, an environment "
            + "variable (FIXMATCH_FIX_PORT sets fix.port), the file, the default."},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
        "0:stopped cleanly (SIGTERM, Ctrl-C); --help, --version",
        "1:cannot start (port taken, unreadable journal, no log folder)",
        "2:bad arguments or configuration"})
public final class ServerMain implements Callable<Integer> {
    static final int EXIT_CANNOT_START = 1;
    static final int EXIT_BAD_CONFIGURATION = 2;

    @Option(names = "--config", paramLabel = "FILE",
        description = "the configuration file (default: the embedded defaults, config/fixmatch.properties)")
    private Path configFile;

    @Option(names = "--port", paramLabel = "PORT", description = "the FIX port (fix.port; 0: any free port)")
    private Integer port;

    @Option(names = "--data", paramLabel = "DIR",
        description = "the data folder: journal, session state, logs (data.dir)")
    private Path data;

    @Option(names = "--admin-port", paramLabel = "PORT", description = "the admin HTTP port (admin.port; 0: off)")
    private Integer adminPort;

    @Option(names = "--mode", paramLabel = "MODE",
        description = "standalone, or cluster: a gateway of the replicated venue (server.mode)")
    private String mode;

    @Option(names = NumberedGateway.FLAG, paramLabel = "K", description = "cluster mode: gateway K of the cluster: FIX "
        + "port + K, admin port + 3 + K, data folder + \"-K\", cluster.gatewayId + K from the configuration's (gateway "
        + "0's); --port, --admin-port, --data still set this gateway's own (default: 0)")
    private int gatewayNumber;

    /** SIGTERM and Ctrl-C, taken over before anything else happens. */
    private final StopSignals stopSignals;

    ServerMain(StopSignals stopSignals) {
        this.stopSignals = stopSignals;
    }

    public static void main(String[] args) {
        StopSignals stopSignals = StopSignals.install();
        System.exit(Cli.of(new ServerMain(stopSignals)).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        ConfigKeys keys;
        ServerConfig config;
        try {
            keys = NumberedGateway.keys(gatewayNumber, this::keys, flags());
            config = ServerConfig.read(keys);
            if (gatewayNumber != 0 && config.mode() != ServerMode.CLUSTER) {
                throw new ConfigException(NumberedGateway.FLAG + " numbers the gateways of a cluster: it needs "
                    + "server.mode=cluster (fixmatch-gateway, or --mode cluster)");
            }
        } catch (ConfigException e) {
            System.err.println("fixmatch-server: bad configuration: " + e.getMessage());
            return EXIT_BAD_CONFIGURATION;
        }
        try {
            ServerLogging.start(config.logs(), config.logDirectory());
        } catch (IllegalStateException e) {
            System.err.println("fixmatch-server: cannot start: " + e.getMessage());
            return EXIT_CANNOT_START;
        }
        Logger log = LoggerFactory.getLogger(ServerMain.class);
        keys.warnings().forEach(log::warn);
        log.info(startSummary(config, keys));
        if (stopSignals.requested()) {
            return stoppedBeforeStart(log);
        }
        FixmatchServer server;
        try {
            server = FixmatchServer.create(config); // the folder locked, the port listening
            // Other ways out of the JVM (SIGHUP, System.exit elsewhere) still stop the server cleanly.
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "shutdown"));
            if (!stopSignals.requested()) {
                server.open(stopSignals::requested); // gives up before the threads start once a stop is asked for
            }
        } catch (JournalException e) {
            return cannotStart(log, "unreadable journal: " + e.getMessage());
        } catch (RuntimeException e) {
            return cannotStart(log, e.getMessage() != null ? e.getMessage() : e.toString());
        }
        stopSignals.await();
        log.info("{}: stopping", stopSignals.signal());
        server.close();
        ServerLogging.stop();
        return 0;
    }

    private int stoppedBeforeStart(Logger log) {
        log.info("{} before the start: nothing was started", stopSignals.signal());
        ServerLogging.stop();
        return 0;
    }

    private static int cannotStart(Logger log, String reason) {
        log.error("cannot start: {}", reason);
        ServerLogging.stop();
        return EXIT_CANNOT_START;
    }

    /** The configuration file (or the embedded defaults), the environment, and these flags. */
    private ConfigKeys keys(List<ConfigKeys.Flag> flags) {
        return ConfigKeys.fileOrEmbedded(configFile, System.getenv(), flags);
    }

    private List<ConfigKeys.Flag> flags() {
        List<ConfigKeys.Flag> flags = new ArrayList<>();
        if (port != null) {
            flags.add(new ConfigKeys.Flag("--port", "fix.port", port.toString()));
        }
        if (data != null) {
            flags.add(new ConfigKeys.Flag("--data", "data.dir", data.toString()));
        }
        if (adminPort != null) {
            flags.add(new ConfigKeys.Flag("--admin-port", "admin.port", adminPort.toString()));
        }
        if (mode != null) {
            flags.add(new ConfigKeys.Flag("--mode", "server.mode", mode));
        }
        return flags;
    }

    /** One line: what runs, where, and which settings differ from the defaults (and who set them). */
    private static String startSummary(ServerConfig config, ConfigKeys keys) {
        String admin = config.admin().enabled() ? config.admin().host() + ":" + config.admin().port() : "off";
        List<String> overrides = keys.overrides();
        return "fixmatch " + Version.text() + " starting: FIX " + config.gateway().host() + ":"
            + config.gateway().port() + " as " + config.compId() + ", admin " + admin + ", sessions "
            + String.join(",", config.sessions().stream().map(SessionConfig::clientCompId).toList()) + ", "
            + config.engine().symbols().size() + " symbols "
            + String.join(",", config.engine().symbols().stream().map(SymbolSpec::name).toList())
            + ", data " + config.dataDirectory().toAbsolutePath() + ", logs "
            + config.logDirectory().toAbsolutePath() + ", config " + keys.sourceName()
            + (overrides.isEmpty() ? "" : "; set: " + String.join(", ", overrides));
    }

    /** The release, from the jar's manifest. */
    static final class Version implements IVersionProvider {
        static String text() {
            String version = ServerMain.class.getPackage().getImplementationVersion();
            return version != null ? version : "(development build)";
        }

        @Override
        public String[] getVersion() {
            return new String[] {"fixmatch-server " + text()};
        }
    }
}
