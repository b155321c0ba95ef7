package io.fixmatch.server;

import io.fixmatch.cluster.node.ClusterNode;
import io.fixmatch.cluster.node.ElectionWatch;
import io.fixmatch.cluster.node.NodeSeed;
import io.fixmatch.cluster.node.NodeSettings;
import io.fixmatch.cluster.service.ServiceSettings;
import io.fixmatch.engine.config.EndOfDay;
import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.server.admin.NodeAdminServer;
import io.fixmatch.server.logging.ServerLogging;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code fixmatch-node}: one node of the replicated venue (Aeron's media driver, archive and consensus module, and the
 * matching service), in the foreground until SIGTERM or Ctrl-C, then stops cleanly and exits 0. The node's own admin
 * endpoint listens on its member's admin port. Exits 2 on bad arguments or configuration (a wrong
 * {@code cluster.members}, another cluster's data, a state built with other symbols or sessions), 1 when it cannot
 * start (its data folder held by another process), 3 when its own journal cannot be written (a full disk: the others
 * go on; restarted once the disk has room, it catches up and its journal fills in).
 */
@Command(name = "fixmatch-node", mixinStandardHelpOptions = true, versionProvider = ServerMain.Version.class,
    sortOptions = false,
    description = "Runs one node of the replicated fixmatch venue in the foreground; SIGTERM or Ctrl-C stops it cleanly.",
    footerHeading = "%n",
    footer = {"The members, timeouts and the rest are in docs/CONFIG.md (Cluster); every node of a cluster reads the"
        + " same symbols, sessions and cluster.members."},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
        "0:stopped cleanly (SIGTERM, Ctrl-C, a cluster shutdown); --help, --version",
        "1:cannot start (data folder held by another process, no log folder)",
        "2:bad arguments or configuration",
        "3:its journal cannot be written (a full disk): the other nodes go on; restart it once the disk has room"})
public final class NodeMain implements Callable<Integer> {
    private static final long READY_CHECK_MS = 20;
    static final int EXIT_JOURNAL_FAILED = 3;
    private static final Duration SEED_TIMEOUT = Duration.ofSeconds(60);

    @Option(names = "--config", paramLabel = "FILE",
        description = "the configuration file (default: the embedded defaults, config/fixmatch.properties)")
    private Path configFile;

    @Option(names = "--node", paramLabel = "ID", description = "this node's id among cluster.members (cluster.nodeId)")
    private Integer node;

    @Option(names = "--data", paramLabel = "DIR",
        description = "the node's data folder: the cluster's log and snapshots, its own journal, logs (data.dir)")
    private Path data;

    @Option(names = "--from-snapshot", description = "on an empty data folder: first copy the running cluster's newest"
        + " snapshot and the log after it, so the node replays only what follows the snapshot (docs/OPERATIONS.md)")
    private boolean fromSnapshot;

    private final StopSignals stopSignals;

    NodeMain(StopSignals stopSignals) {
        this.stopSignals = stopSignals;
    }

    public static void main(String[] args) {
        StopSignals stopSignals = StopSignals.install();
        System.exit(Cli.of(new NodeMain(stopSignals)).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        ServerConfig config;
        try {
            ConfigKeys keys = ConfigKeys.fileOrEmbedded(configFile, System.getenv(), flags());
            config = ServerConfig.read(keys);
        } catch (ConfigException e) {
            System.err.println("fixmatch-node: bad configuration: " + e.getMessage());
            return ServerMain.EXIT_BAD_CONFIGURATION;
        }
        try {
            ServerLogging.start(config.logs(), config.logDirectory());
        } catch (IllegalStateException e) {
            System.err.println("fixmatch-node: cannot start: " + e.getMessage());
            return ServerMain.EXIT_CANNOT_START;
        }
        Logger log = LoggerFactory.getLogger(NodeMain.class);
        try {
            return run(config, log);
        } finally {
            ServerLogging.stop();
        }
    }

    private int run(ServerConfig config, Logger log) throws InterruptedException {
        NodeSettings settings = nodeSettings(config);
        log.info("fixmatch node {} of cluster '{}' starting: members {}, data {}", settings.memberId(),
            settings.clusterName(), settings.members(), settings.dataDirectory().toAbsolutePath());
        DataFolderLock lock;
        try {
            lock = DataFolderLock.acquire(config.dataDirectory());
        } catch (RuntimeException e) {
            log.error("cannot start: {}", e.getMessage());
            return ServerMain.EXIT_CANNOT_START;
        }
        try (lock) {
            ClusterNode clusterNode;
            try {
                if (fromSnapshot && !seeded(settings, log)) {
                    return ServerMain.EXIT_CANNOT_START;
                }
                clusterNode = ClusterNode.launch(settings);
            } catch (IllegalArgumentException e) {
                log.error("cannot start: {}", e.getMessage());
                return ServerMain.EXIT_BAD_CONFIGURATION;
            } catch (IllegalStateException e) {
                log.error("cannot start: {}", e.getMessage());
                return ServerMain.EXIT_BAD_CONFIGURATION;
            } finally {
                stopSignals.takeBack(); // Aeron's shutdown barriers took SIGTERM and SIGINT
            }
            try (clusterNode; NodeAdminServer admin = startAdmin(config, clusterNode);
                 SnapshotSchedule snapshots = SnapshotSchedule.start(clusterNode, settings.snapshotEveryCommands())) {
                return serve(clusterNode, log);
            }
        }
    }

    /** Copies the cluster's snapshot into the empty data folder; false (logged) if no member answered in time. */
    private static boolean seeded(NodeSettings settings, Logger log) throws InterruptedException {
        try {
            NodeSeed.seed(settings, SEED_TIMEOUT);
            return true;
        } catch (IllegalStateException e) {
            log.error("cannot start: {}", e.getMessage());
            return false;
        }
    }

    private NodeAdminServer startAdmin(ServerConfig config, ClusterNode clusterNode) {
        return NodeAdminServer.start(config.admin().host(), clusterNode.settings().self().adminPort(),
            config.admin().token(), clusterNode, config.engine().symbols());
    }

    /**
     * Until a stop signal or the cluster's shutdown: says when it is ready, and when an election stays open for long,
     * refuses a state it cannot take, stops when its journal cannot be written.
     */
    private int serve(ClusterNode clusterNode, Logger log) throws InterruptedException {
        boolean announced = false;
        ElectionWatch election = new ElectionWatch(clusterNode,
            ElectionWatch.patienceFor(clusterNode.settings().timings()));
        while (!stopSignals.await(READY_CHECK_MS, TimeUnit.MILLISECONDS)) {
            election.check(System.nanoTime());
            if (clusterNode.status().startFailure() != null) {
                log.error("cannot start: {}", clusterNode.status().startFailure());
                return ServerMain.EXIT_BAD_CONFIGURATION;
            }
            if (clusterNode.status().journalFailure() != null) {
                log.error("node {} stops: {}; the other nodes go on. Restart it once its disk has room: it catches up"
                    + " from them", clusterNode.settings().memberId(), clusterNode.status().journalFailure());
                return EXIT_JOURNAL_FAILED;
            }
            if (!announced && NodeAdminServer.ready(clusterNode)) {
                announced = true;
                log.info("fixmatch node {} ready: {}, leader node {}, term {}, {} commands applied",
                    clusterNode.settings().memberId(), clusterNode.role(), clusterNode.status().leaderMemberId(),
                    clusterNode.leadershipTermId(), clusterNode.status().commandSequence());
            }
            if (clusterNode.awaitTermination(0, TimeUnit.MILLISECONDS)) {
                log.info("the cluster shut down: node {} stops", clusterNode.settings().memberId());
                return 0;
            }
        }
        log.info("{}: node {} stops", stopSignals.signal(), clusterNode.settings().memberId());
        return 0;
    }

    /** The node's settings from the venue's configuration (every node of a cluster must read the same). */
    public static NodeSettings nodeSettings(ServerConfig config) {
        ClusterConfig cluster = config.cluster();
        List<String> owners = config.sessions().stream().map(SessionConfig::clientCompId).toList();
        EndOfDay endOfDay = config.rules().endOfDay() == null ? null
            : new EndOfDay(config.rules().endOfDay(), config.rules().timeZone());
        ServiceSettings service = new ServiceSettings(config.engine(), config.journal(), owners,
            FixmatchServer.dropCopyRoutes(config.sessions()), config.marketData().enabled() || config.feed() != null,
            endOfDay, cluster.maxGateways(), cluster.egressWindowBytes(), config.dataDirectory().resolve("cluster-snapshots"),
            cluster.gatewayTimeoutMs());
        return new NodeSettings(cluster.nodeId(), cluster.members(), cluster.name(), config.dataDirectory(),
            cluster.aeronDirectoryFor("node-" + cluster.nodeId(), config.dataDirectory()), cluster.timings(), cluster.idle(),
            cluster.snapshotEveryCommands(), service);
    }

    private List<ConfigKeys.Flag> flags() {
        List<ConfigKeys.Flag> flags = new ArrayList<>();
        flags.add(new ConfigKeys.Flag("(node)", "server.mode", ServerMode.CLUSTER.configName()));
        if (node != null) {
            flags.add(new ConfigKeys.Flag("--node", "cluster.nodeId", node.toString()));
        }
        if (data != null) {
            flags.add(new ConfigKeys.Flag("--data", "data.dir", data.toString()));
        }
        return flags;
    }
}
