package io.fixmatch.server;

import io.fixmatch.engine.loop.DropCopyRoutes;
import io.fixmatch.engine.loop.EngineLink;
import io.fixmatch.feed.publisher.FeedPublisher;
import io.fixmatch.fix.app.ExpireDates;
import io.fixmatch.fix.app.OrderEntry;
import io.fixmatch.fix.gateway.RefusalCopies;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.app.VenueDictionary;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.gateway.LatencyStages;
import io.fixmatch.fix.gateway.PendingCommands;
import io.fixmatch.fix.marketdata.MarketDataFeed;
import io.fixmatch.fix.security.UnauthenticatedConnections;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.fix.session.SessionRegistry;
import io.fixmatch.fix.session.SessionStore;
import io.fixmatch.fix.transport.FixAcceptor;
import io.fixmatch.fix.transport.ListeningSocket;
import io.fixmatch.server.admin.AdminContext;
import io.fixmatch.server.admin.AdminServer;
import io.fixmatch.server.admin.ClusterGateway;
import io.fixmatch.server.admin.Readiness;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The whole server: the admin endpoint, journal recovery, the matching step (on its own thread, or inline in the
 * gateway's duty cycle: {@link ThreadLayout}), the gateway threads that own the FIX sessions, and the acceptor,
 * started in that order (the FIX port listens from the start, but no connection is accepted before the books are
 * rebuilt: they wait in its backlog; the admin endpoint answers {@code /health} with 503 meanwhile) and stopped in reverse, so that every accepted command is processed, journaled
 * and its reports stored before the process exits.
 */
public final class FixmatchServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FixmatchServer.class);
    private static final long TASK_TIMEOUT_SECONDS = 30;

    private final ServerConfig config;
    /** The wall clock: sessions' schedules, the end of day, the journal's stamps (tests move it). */
    private final Clock clock;
    /** The engine: in this process (standalone) or the replicated one this process is a gateway of (cluster). */
    private final EngineSide engine;
    /** The sessions this process serves (all configured ones, but in a cluster gateway serving some). */
    private final List<FixSession> sessions = new ArrayList<>();
    private final List<OrderEntry> orderEntries = new ArrayList<>();
    private final SessionRegistry registry;
    private final Readiness readiness = new Readiness();
    /** The connections not logged on yet and their caps (the acceptor's; the admin endpoint's metrics read them). */
    private final UnauthenticatedConnections unauthenticated;
    private final Gateways gateways;
    private final SymbolTable symbols;
    private final DropCopyRoutes dropCopies;
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** What stops with the server, after it (a cluster embedded with it: tests). */
    private final List<AutoCloseable> closedAfterwards = new ArrayList<>();
    private FixAcceptor acceptor;
    private AdminServer admin;
    private DataFolderLock lock;
    /**
     * The FIX port, listening from {@link #create} on (connections queue in its backlog during recovery) until
     * {@link #open} hands it to the acceptor, which accepts them once the server is ready.
     */
    private ListeningSocket listening;
    private boolean closed;

    private FixmatchServer(ServerConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
        int gatewayCount = config.gateway().threads();
        this.symbols = new SymbolTable(config.engine().symbols());
        this.unauthenticated = new UnauthenticatedConnections(config.gateway().limits().maxUnauthenticated(),
            config.gateway().limits().maxUnauthenticatedPerAddress());
        this.dropCopies = dropCopyRoutes(config.sessions());
        this.engine = config.mode() == ServerMode.CLUSTER ? new ClusterEngine(config)
            : new StandaloneEngine(config, clock, symbols, dropCopies);
        EngineLink link = engine.link();
        List<PendingCommands> pending = new ArrayList<>();
        List<MarketDataFeed> feeds = new ArrayList<>();
        for (int i = 0; i < gatewayCount; i++) {
            pending.add(new PendingCommands(link.inbound()));
            feeds.add(config.marketData().enabled() ? new MarketDataFeed(symbols, config.engine().symbols().size(),
                config.marketData(), config.gateway().maxMessageSize()) : null);
        }
        boolean clusterOwned = config.mode() == ServerMode.CLUSTER;
        // A cluster that owns the sessions copies refusals itself (numbered in the drop-copy sessions).
        RefusalCopies[] refusalCopies = dropCopies.isEmpty() || clusterOwned ? new RefusalCopies[gatewayCount]
            : RefusalCopies.forGateways(gatewayCount, dropCopies, symbols);
        FixSession[] byOwner = new FixSession[config.sessions().size()];
        for (int i = 0; i < config.sessions().size(); i++) {
            SessionConfig sessionConfig = config.sessions().get(i);
            if (config.mode() == ServerMode.CLUSTER && !config.cluster().serves(sessionConfig.clientCompId())) {
                continue; // another gateway of the cluster serves it
            }
            int ownerId = i + 1;
            int gateway = Gateways.indexOfOwner(ownerId, gatewayCount);
            PendingCommands owed = pending.get(gateway);
            OrderEntry orderEntry = new OrderEntry(link.inbound(), symbols,
                sessionConfig.cancelOnDisconnect() ? owed : null,
                config.rules().ofSession(i).killSwitchOnDisconnect() ? owed : null, feeds.get(gateway),
                refusalCopies[gateway]);
            orderEntry.engineAvailability(link::available);
            orderEntry.expireDates(new ExpireDates(config.rules().endOfDay(), config.rules().timeZone()));
            orderEntries.add(orderEntry);
            FixSession session = new FixSession(sessionConfig, ownerId, config.compId(),
                new SessionStore(config.sessionDirectory(sessionConfig)), config.gateway().timings(), orderEntry,
                config.gateway().maxMessageSize(), VenueDictionary.get(), clusterOwned ? owed : null);
            session.scheduleClock(clock);
            sessions.add(session);
            byOwner[i] = session;
        }
        this.registry = new SessionRegistry(config.compId(), Arrays.asList(byOwner),
            config.sessions().stream().map(SessionConfig::clientCompId).toList());
        for (RefusalCopies copies : refusalCopies) {
            if (copies != null) {
                copies.sessions(registry);
            }
        }
        List<Gateway> gatewayList = new ArrayList<>();
        for (int i = 0; i < gatewayCount; i++) {
            Gateway gateway = new Gateway(i, config.gateway().cpuOf(i), registry, symbols, link.inbound(),
                link.outbound(i), pending.get(i), feeds.get(i), refusalCopies[i]);
            if (clusterOwned) {
                gateway.sessionsOwnedByCluster(config.gateway().maxMessageSize());
            }
            gatewayList.add(gateway);
        }
        this.gateways = new Gateways(gatewayList);
        for (FixSession session : sessions) {
            gateways.ofSession(session).own(session);
        }
        engine.attach(gatewayList, pending);
    }

    /** Owner ids of the drop-copy sessions covering each owner id (owner k is the k-th configured session). */
    static DropCopyRoutes dropCopyRoutes(List<SessionConfig> sessions) {
        Map<Integer, List<Integer>> recipients = new HashMap<>();
        for (int i = 0; i < sessions.size(); i++) {
            for (String covered : sessions.get(i).dropCopyFor()) {
                int coveredOwner = 1 + sessions.stream().map(SessionConfig::clientCompId).toList().indexOf(covered);
                recipients.computeIfAbsent(coveredOwner, owner -> new ArrayList<>()).add(i + 1);
            }
        }
        return new DropCopyRoutes(recipients);
    }

    /**
     * Starts in the order that touches the data folder last: its lock (one server per folder), the port listening (a
     * taken port stops the start before anything is read or written; clients that connect wait in its backlog), the
     * admin endpoint, recovery of the books and of what the sessions' stores lack, the threads, then the acceptor,
     * which takes the listening port over and accepts.
     */
    public static FixmatchServer start(ServerConfig config) throws InterruptedException {
        return start(config, Clock.systemUTC());
    }

    /**
     * As {@link #start(ServerConfig)}, with {@code clock} as the wall clock (tests move it): the sessions' schedules,
     * the end of day (the timer, and the one missed while the server was down) and the journal's stamps read it.
     */
    public static FixmatchServer start(ServerConfig config, Clock clock) throws InterruptedException {
        FixmatchServer server = create(config, clock);
        server.open();
        return server;
    }

    /**
     * The first half of {@link #start}: the data folder locked, the FIX port listening, the stores open and the admin
     * endpoint listening (its {@code /health} says 503 until {@link #open}); nothing recovered, no FIX acceptor.
     */
    public static FixmatchServer create(ServerConfig config) {
        return create(config, Clock.systemUTC());
    }

    /** As {@link #create(ServerConfig)}, with {@code clock} as the wall clock (see {@link #start(ServerConfig, Clock)}). */
    public static FixmatchServer create(ServerConfig config, Clock clock) {
        DataFolderLock lock = DataFolderLock.acquire(config.dataDirectory());
        ListeningSocket port;
        FixmatchServer server;
        try {
            port = ListeningSocket.listen(config.gateway().host(), config.gateway().port(),
                config.gateway().transport());
            try {
                server = new FixmatchServer(config, clock);
            } catch (RuntimeException e) {
                port.close();
                throw e;
            }
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
        server.lock = lock;
        server.listening = port;
        try {
            if (config.admin().enabled()) {
                server.admin = AdminServer.start(config.admin(), new AdminContext(server.readiness,
                    server.engine.link(), server.gateways, server.sessions, server.orderEntries,
                    config.engine().symbols(), server.engine instanceof StandaloneEngine standalone
                        ? standalone.journal() : null, server.clusterGateway(), server.unauthenticated,
                    server.engine.feed()));
            }
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The second half of {@link #start}: recovers the books, starts the threads, accepts on the FIX port. */
    public void open() throws InterruptedException {
        open(() -> false);
    }

    /**
     * As {@link #open()}, unless {@code stopRequested} says so once the books are recovered: then the start stops
     * there, before any thread runs or any connection is accepted (as a failed start does: nothing to snapshot, the
     * journal and the stores closed as they are, the next start recovers the same), and it returns false.
     */
    public boolean open(BooleanSupplier stopRequested) throws InterruptedException {
        try {
            readiness.set(Readiness.State.RECOVERING);
            for (FixSession session : sessions) {
                session.claimOwnership();
            }
            engine.recover(sessions, gateways.all());
            if (stopRequested.getAsBoolean()) {
                LOG.info("stop requested during the start: stopping after recovery, before accepting");
                close();
                return false;
            }
            // The engine first: a gateway's duty cycle runs the one-thread layout's matching step from its first
            // cycle, which must find it started. The acceptor then takes the listening socket over.
            engine.start();
            acceptor = FixAcceptor.start(config.gateway(), listening, registry, gateways, unauthenticated);
            listening = null;
            awaitEngineReady(stopRequested);
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
        readiness.set(Readiness.State.READY);
        LOG.info("fixmatch ready: FIX 4.4 on {}:{}, CompID {}, sessions {}, {} symbols, {}, data in {}",
            config.gateway().host(), port(), config.compId(),
            sessions.stream().map(FixSession::name).toList(), config.engine().symbols().size(),
            engine.describe(), config.dataDirectory().toAbsolutePath());
        return true;
    }

    /** What the admin endpoint of a cluster gateway shows of the cluster (null: standalone). */
    private ClusterGateway clusterGateway() {
        if (!(engine instanceof ClusterEngine cluster)) {
            return null;
        }
        return new ClusterGateway(config.cluster().gatewayId(), config.cluster().members(),
            cluster.clusterLink().status(), config.admin().token(), cluster.clusterLink()::directory,
            config.sessions().stream().map(SessionConfig::clientCompId).toList());
    }

    /** A cluster gateway serves once what the cluster held for its sessions is in their stores. */
    private void awaitEngineReady(BooleanSupplier stopRequested) throws InterruptedException {
        while (!engine.ready() && !stopRequested.getAsBoolean()) {
            Thread.sleep(1);
        }
    }

    /** The port actually bound (differs from the config's when it asked for 0); listening from {@link #create} on. */
    public int port() {
        return acceptor != null ? acceptor.port() : listening.port();
    }

    /** The admin endpoint's port, or -1 when it is off. */
    /** The binary market data feed this process publishes (docs/FEED.md), or null (off). */
    public FeedPublisher feed() {
        return engine.feed();
    }

    public int adminPort() {
        return admin == null ? -1 : admin.port();
    }

    public void awaitStop() throws InterruptedException {
        stopped.await();
    }

    /**
     * Any thread: where the time of traced round trips went, stage by stage, since start (ns): the server's own
     * histograms, for the operations endpoint.
     */
    public Map<LatencyStages.Stage, Histogram> latencyStages() {
        return gateways.latencyStages();
    }

    /** Closes {@code resource} when the server has stopped (a cluster embedded with its gateway, in tests). */
    public synchronized void closeAfterwards(AutoCloseable resource) {
        closedAfterwards.add(resource);
    }

    /** The gateway threads (tests, operations). */
    public Gateways gateways() {
        return gateways;
    }

    /**
     * Clean shutdown: stop accepting, log every session out on its gateway thread (waiting briefly for the replies),
     * close the connections, wait until the commands the gateways still owe the engine (cancel-on-disconnect) are
     * queued, let the engine finish every queued command and close the journal, then let each gateway route the last
     * events into its sessions' stores and close them, and stop the threads.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        readiness.set(Readiness.State.STOPPING);
        if (listening != null) { // the start failed before the acceptor took it over
            listening.close();
            listening = null;
        }
        LOG.info("shutting down");
        if (acceptor != null) {
            acceptor.stopAccepting();
            onEachGateway(gateway -> gateway.logoutAll("server shutting down"));
            awaitCondition(() -> sessions.stream().noneMatch(FixSession::isLoggedOn), 2, "sessions to log out");
            onEachGateway(Gateway::closeConnections);
            awaitCondition(() -> gateways.all().stream().allMatch(g -> g.openConnections() == 0), 5,
                "connections to close");
            awaitCondition(() -> gateways.all().stream().allMatch(g -> g.pendingCommands().size() == 0), 5,
                "cancel-on-disconnect commands to reach the engine");
        }
        long journaledThrough = engine.stop(acceptor != null, action -> onGateway(gateways.all().get(0), action));
        if (acceptor != null) {
            onEachGateway(gateway -> gateway.finish(journaledThrough));
            acceptor.close();
        } else {
            finishWithoutGateways();
        }
        long reports = gateways.all().stream().mapToLong(Gateway::reportsRouted).sum();
        logLatencyStages();
        if (admin != null) {
            admin.close();
        }
        LOG.info("stopped: {} execution reports routed", reports);
        if (lock != null) {
            lock.close(); // last: every file of the folder is closed
        }
        for (AutoCloseable resource : closedAfterwards) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warn("closing {} after the server failed", resource, e);
            }
        }
        stopped.countDown();
    }

    /** The traced round trips' stages since start, if any session was traced: one line per stage. */
    private void logLatencyStages() {
        Map<LatencyStages.Stage, Histogram> stages = latencyStages();
        if (stages.get(LatencyStages.Stage.TOTAL).getTotalCount() == 0) {
            return;
        }
        LOG.info("traced round trips, server stages (us): stage count p50 p90 p99 p99.9 max");
        stages.forEach((stage, h) -> LOG.info(String.format(java.util.Locale.ROOT,
            "  %-14s %,9d %9.1f %9.1f %9.1f %9.1f %9.1f", stage, h.getTotalCount(), h.getValueAtPercentile(50) / 1e3,
            h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
            h.getMaxValue() / 1e3)));
    }

    /** The start failed before the gateway threads ran: the stores are closed here, on the only thread left. */
    private void finishWithoutGateways() {
        for (FixSession session : sessions) {
            session.claimOwnership();
            session.close();
        }
    }

    private void onEachGateway(Consumer<Gateway> action) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (Gateway gateway : gateways.all()) {
            done.add(gateway.submit(() -> action.accept(gateway)));
        }
        for (int i = 0; i < done.size(); i++) {
            await(done.get(i), gateways.all().get(i));
        }
    }

    private void onGateway(Gateway gateway, Consumer<Gateway> action) {
        await(gateway.submit(() -> action.accept(gateway)), gateway);
    }

    private static void await(CompletableFuture<Void> task, Gateway gateway) {
        try {
            task.get(TASK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.error("shutdown step on {} failed", gateway.name(), e);
        }
    }

    private static void awaitCondition(java.util.function.BooleanSupplier condition, int seconds, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                LOG.warn("shutdown: gave up waiting for {} after {} s", what, seconds);
                return;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
