package io.fixmatch.cluster.node;

import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveMarkFile;
import io.aeron.archive.client.AeronArchive;
import io.aeron.archive.status.RecordingPos;
import io.aeron.cluster.ClusterControl;
import io.aeron.cluster.ClusteredMediaDriver;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.ElectionState;
import io.aeron.cluster.NanosecondClusterClock;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusterMarkFile;
import io.aeron.cluster.service.ClusteredServiceContainer;
import io.aeron.driver.MediaDriver;
import io.aeron.exceptions.AeronEvent;
import io.aeron.exceptions.AeronException;
import io.fixmatch.cluster.protocol.ProtocolVersion;
import io.fixmatch.cluster.service.MatchingService;
import io.fixmatch.cluster.service.ServiceStatus;
import org.agrona.ErrorHandler;
import org.agrona.SemanticVersion;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One node of the replicated venue, in this process: Aeron's media driver, archive (the node's copy of the log) and
 * consensus module ({@link ClusteredMediaDriver}), and the service container running the {@link MatchingService}.
 *
 * <p>Small machines first: the driver and the archive each run their agents on one shared thread, and every Aeron
 * thread backs off when idle (spins a little, yields, then parks up to a millisecond: {@link ClusterIdle}) unless set
 * for dedicated cores. The timeouts are fixmatch's ({@link ClusterTimings}), not Aeron's 10-second defaults.
 */
public final class ClusterNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);
    static final String CLUSTER_NAME_FILE = "cluster-name";

    private final NodeSettings settings;
    private final MatchingService service;
    private final ClusteredMediaDriver driver;
    private final ClusteredServiceContainer container;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile boolean closed;

    private ClusterNode(NodeSettings settings, MatchingService service, ClusteredMediaDriver driver,
                        ClusteredServiceContainer container) {
        this.settings = settings;
        this.service = service;
        this.driver = driver;
        this.container = container;
    }

    /**
     * Starts the node; it takes part in elections at once. Throws if the data folder is another cluster's. The caller
     * holds the data folder's lock (no other process uses it), so the mark files a killed node left are stale and
     * deleted: Aeron would otherwise refuse to start for ten seconds after a kill, taking them for a live process's.
     */
    public static ClusterNode launch(NodeSettings settings) {
        return launch(settings, new MatchingService(settings.service()));
    }

    /** As {@link #launch(NodeSettings)}, running {@code service} (made for {@code settings.service()}). */
    public static ClusterNode launch(NodeSettings settings, MatchingService service) {
        return launch(settings, service, ProtocolVersion.APP_VERSION);
    }

    /** As {@link #launch(NodeSettings, MatchingService)}, with this Aeron appVersion (tests: another release's). */
    static ClusterNode launch(NodeSettings settings, MatchingService service, int appVersion) {
        checkClusterName(settings);
        deleteStaleMarkFiles(settings.dataDirectory());
        CountDownLatch[] terminatedHolder = new CountDownLatch[1];
        Runnable onTerminated = () -> {
            if (terminatedHolder[0] != null) {
                terminatedHolder[0].countDown();
            }
        };
        ClusterMember self = settings.self();
        String aeronDir = settings.aeronDirectory().toString();
        Path data = settings.dataDirectory();
        ErrorHandler errors = error -> logError(settings.memberId(), error);
        Supplier<IdleStrategy> idle = settings.idle()::newStrategy;

        MediaDriver.Context driverContext = NodeMedia.driver(settings, errors);
        Archive.Context archiveContext = NodeMedia.archive(settings, errors);
        AeronArchive.Context archiveClient = NodeMedia.archiveClient(settings, archiveContext);
        ClusterTimings timings = settings.timings();
        ConsensusModule.Context consensus = new ConsensusModule.Context()
            .clusterMemberId(settings.memberId())
            .clusterMembers(settings.members().aeronMembers())
            .clusterDir(data.resolve("consensus").toFile())
            .aeronDirectoryName(aeronDir)
            .archiveContext(archiveClient.clone())
            .ingressChannel("aeron:udp?term-length=4m")
            .logChannel("aeron:udp?term-length=16m")
            .replicationChannel("aeron:udp?endpoint=" + self.host() + ":0")
            .clusterClock(new NanosecondClusterClock())
            .leaderHeartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(timings.heartbeatIntervalMs()))
            .leaderHeartbeatTimeoutNs(TimeUnit.MILLISECONDS.toNanos(timings.heartbeatTimeoutMs()))
            .electionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(timings.electionTimeoutMs()))
            .sessionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(timings.sessionTimeoutMs()))
            .startupCanvassTimeoutNs(TimeUnit.MILLISECONDS.toNanos(timings.startupCanvassMs()))
            .idleStrategySupplier(idle)
            .terminationHook(onTerminated)
            .appVersion(appVersion) // a node of another major stops at once (ProtocolVersion)
            .errorHandler(errors);
        ClusteredServiceContainer.Context serviceContext = new ClusteredServiceContainer.Context()
            .aeronDirectoryName(aeronDir)
            .archiveContext(archiveClient.clone())
            .clusterDir(data.resolve("consensus").toFile())
            .clusteredService(service)
            .serviceId(0)
            .idleStrategySupplier(idle)
            .terminationHook(onTerminated)
            .appVersion(appVersion)
            .errorHandler(errors);

        ClusteredMediaDriver driver = ClusteredMediaDriver.launch(driverContext, archiveContext, consensus);
        ClusteredServiceContainer container;
        try {
            container = ClusteredServiceContainer.launch(serviceContext);
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
        ClusterNode node = new ClusterNode(settings, service, driver, container);
        terminatedHolder[0] = node.terminated;
        LOG.info("cluster node {} of {} started: ingress {}, data in {}, Aeron in {}; protocol version {} (Aeron"
            + " appVersion {})", settings.memberId(), settings.members().size(), self.ingressEndpoint(),
            data.toAbsolutePath(), aeronDir, ProtocolVersion.CURRENT, SemanticVersion.toString(ProtocolVersion.APP_VERSION));
        return node;
    }

    /** Aeron reports events (a leader heartbeat timeout, an election) through the error handler too: logged as such. */
    static void logError(int memberId, Throwable error) {
        if (error instanceof AeronEvent event) {
            LOG.warn("cluster node {}: {}", memberId, event.getMessage());
        } else if (error instanceof AeronException aeron && aeron.category() == AeronException.Category.WARN) {
            LOG.warn("cluster node {}: {}", memberId, aeron.getMessage());
        } else {
            LOG.error("cluster node {}: {}", memberId, error.toString(), error);
        }
    }

    private static void deleteStaleMarkFiles(Path data) {
        try {
            Files.deleteIfExists(data.resolve("archive").resolve(ArchiveMarkFile.FILENAME));
            Files.deleteIfExists(data.resolve("consensus").resolve(ClusterMarkFile.FILENAME));
            Files.deleteIfExists(data.resolve("consensus").resolve(ClusterMarkFile.markFilenameForService(0)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the stale mark files in " + data, e);
        }
    }

    /** A data folder remembers the cluster it belongs to; a node is never started on another cluster's data. */
    static void checkClusterName(NodeSettings settings) {
        Path file = settings.dataDirectory().resolve(CLUSTER_NAME_FILE);
        try {
            Files.createDirectories(settings.dataDirectory());
            if (Files.exists(file)) {
                String recorded = Files.readString(file, StandardCharsets.UTF_8).trim();
                if (!recorded.equals(settings.clusterName())) {
                    throw new IllegalStateException("cluster.name: the data folder " + settings.dataDirectory()
                        + " belongs to cluster '" + recorded + "', this node is configured for '"
                        + settings.clusterName() + "'");
                }
            } else {
                Files.writeString(file, settings.clusterName() + "\n", StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + file, e);
        }
    }

    public NodeSettings settings() {
        return settings;
    }

    public MatchingService service() {
        return service;
    }

    public ServiceStatus status() {
        return service.status();
    }

    /** Any thread: this node's role as its consensus module holds it. */
    public Cluster.Role role() {
        AtomicCounter counter = driver.consensusModule().context().clusterNodeRoleCounter();
        return counter == null || counter.isClosed() ? Cluster.Role.FOLLOWER : Cluster.Role.get(counter);
    }

    /** Any thread: the log position the cluster has committed (a majority holds it). */
    public long commitPosition() {
        AtomicCounter counter = driver.consensusModule().context().commitPositionCounter();
        return counter == null || counter.isClosed() ? -1 : counter.get();
    }

    /**
     * Any thread: how far this node's copy of the log is written (its archive's recording position; the highest of
     * the recordings it makes, which is the log's), whether committed yet or not; -1 before it records.
     */
    public long appendPosition() {
        CountersReader counters = driver.consensusModule().context().aeron().countersReader();
        long[] highest = {-1};
        counters.forEach((counterId, typeId, keyBuffer, label) -> {
            if (typeId == RecordingPos.RECORDING_POSITION_TYPE_ID) {
                highest[0] = Math.max(highest[0], counters.getCounterValue(counterId));
            }
        });
        return highest[0];
    }

    /**
     * Any thread: whether this node's last election is over (it leads or follows). A node that started from a snapshot
     * taken in the current term learns the term's leader only at the next election (the term's event is in the log
     * before the snapshot), but it serves from the moment its election closes.
     */
    public boolean electionClosed() {
        return electionState() == ElectionState.CLOSED;
    }

    /** Any thread: the step this node's election is at ({@code CLOSED} when over); null before the module counts it. */
    public ElectionState electionState() {
        AtomicCounter counter = driver.consensusModule().context().electionStateCounter();
        return counter == null || counter.isClosed() ? null : ElectionState.get(counter);
    }

    /** Any thread: elections this node has taken part in since it started. */
    public long elections() {
        AtomicCounter counter = driver.consensusModule().context().electionCounter();
        return counter == null || counter.isClosed() ? 0 : counter.get();
    }

    /** Any thread: the current leadership term. */
    public long leadershipTermId() {
        AtomicCounter counter = driver.consensusModule().context().leadershipTermIdCounter();
        return counter == null || counter.isClosed() ? -1 : counter.get();
    }

    /**
     * Asks the cluster for a snapshot now. Only the leader can: returns false on a follower, or while another
     * control action is under way.
     */
    public boolean requestSnapshot() {
        if (role() != Cluster.Role.LEADER) {
            return false;
        }
        return ClusterControl.ToggleState.SNAPSHOT.toggle(driver.consensusModule().context().controlToggleCounter());
    }

    /**
     * Asks the whole cluster to stop cleanly: every node snapshots at the same position, then terminates. Only the
     * leader can; returns false on a follower.
     */
    public boolean requestClusterShutdown() {
        if (role() != Cluster.Role.LEADER) {
            return false;
        }
        return ClusterControl.ToggleState.SHUTDOWN.toggle(driver.consensusModule().context().controlToggleCounter());
    }

    /** Waits until the cluster terminated this node (a cluster shutdown); false if the time ran out. */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        container.close();
        driver.close();
        LOG.info("cluster node {} stopped", settings.memberId());
    }
}
