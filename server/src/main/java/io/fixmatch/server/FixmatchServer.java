package io.fixmatch.server;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.loop.DropCopyRoutes;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.fix.app.OrderEntry;
import io.fixmatch.fix.gateway.RefusalCopies;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.app.VenueDictionary;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.gateway.LatencyStages;
import io.fixmatch.fix.gateway.PendingCommands;
import io.fixmatch.fix.gateway.RecoveredReports;
import io.fixmatch.fix.marketdata.MarketDataFeed;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.fix.session.SessionRegistry;
import io.fixmatch.fix.session.SessionStore;
import io.fixmatch.fix.transport.FixAcceptor;
import io.fixmatch.journal.ChroniclePersistence;
import io.fixmatch.server.admin.AdminContext;
import io.fixmatch.server.admin.AdminServer;
import io.fixmatch.server.admin.Readiness;
import io.fixmatch.server.rules.EndOfDayTimer;
import io.fixmatch.server.rules.MissedDayEnd;
import io.fixmatch.server.rules.SessionControlSync;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The whole server: the admin endpoint, journal recovery, the matching step (on its own thread, or inline in the
 * gateway's duty cycle: {@link ThreadLayout}), the gateway threads that own the FIX sessions, and the acceptor,
 * started in that order (no FIX port is open before the books are rebuilt; the admin endpoint answers
 * {@code /health} with 503 meanwhile) and stopped in reverse, so that every accepted command is processed, journaled
 * and its reports stored before the process exits.
 */
public final class FixmatchServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FixmatchServer.class);
    private static final long TASK_TIMEOUT_SECONDS = 30;

    private final ServerConfig config;
    /** The wall clock: sessions' schedules, the end of day, the journal's stamps (tests move it). */
    private final Clock clock;
    private final MatchingRuntime runtime;
    private final ChroniclePersistence journal;
    private final List<FixSession> sessions = new ArrayList<>();
    private final List<OrderEntry> orderEntries = new ArrayList<>();
    private final SessionRegistry registry;
    private final Readiness readiness = new Readiness();
    private final Gateways gateways;
    private final SymbolTable symbols;
    private final DropCopyRoutes dropCopies;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private FixAcceptor acceptor;
    private AdminServer admin;
    private DataFolderLock lock;
    /** The FIX port, bound from {@link #create} until {@link #open} hands it to the acceptor. */
    private PortReservation reservedPort;
    private boolean closed;

    private FixmatchServer(ServerConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
        int gatewayCount = config.gateway().threads();
        this.journal = ChroniclePersistence.open(config.journal(), config.engine().symbols(),
            config.sessions().stream().map(SessionConfig::clientCompId).toList());
        this.runtime = new MatchingRuntime(config.engine(), config.loop(), journal, gatewayCount,
            owner -> Gateways.indexOfOwner(owner, gatewayCount), journalClock(clock));
        this.symbols = new SymbolTable(config.engine().symbols());
        List<PendingCommands> pending = new ArrayList<>();
        List<MarketDataFeed> feeds = new ArrayList<>();
        for (int i = 0; i < gatewayCount; i++) {
            pending.add(new PendingCommands(runtime.inbound()));
            feeds.add(config.marketData().enabled() ? new MarketDataFeed(symbols, config.engine().symbols().size(),
                config.marketData(), config.gateway().maxMessageSize()) : null);
        }
        runtime.publishMarketData(config.marketData().enabled());
        this.dropCopies = dropCopyRoutes(config.sessions());
        RefusalCopies[] refusalCopies = dropCopies.isEmpty() ? new RefusalCopies[gatewayCount]
            : RefusalCopies.forGateways(gatewayCount, dropCopies, symbols);
        for (int i = 0; i < config.sessions().size(); i++) {
            SessionConfig sessionConfig = config.sessions().get(i);
            int ownerId = i + 1;
            int gateway = Gateways.indexOfOwner(ownerId, gatewayCount);
            PendingCommands owed = pending.get(gateway);
            OrderEntry orderEntry = new OrderEntry(runtime.inbound(), symbols,
                sessionConfig.cancelOnDisconnect() ? owed : null,
                config.rules().ofSession(i).killSwitchOnDisconnect() ? owed : null, feeds.get(gateway),
                refusalCopies[gateway]);
            orderEntries.add(orderEntry);
            sessions.add(new FixSession(sessionConfig, ownerId, config.compId(),
                new SessionStore(config.sessionDirectory(sessionConfig)), config.gateway().timings(), orderEntry,
                config.gateway().maxMessageSize(), VenueDictionary.get()));
            sessions.get(i).scheduleClock(clock);
        }
        this.registry = new SessionRegistry(config.compId(), sessions);
        for (RefusalCopies copies : refusalCopies) {
            if (copies != null) {
                copies.sessions(registry);
            }
        }
        runtime.dropCopyRoutes(dropCopies);
        List<Gateway> gatewayList = new ArrayList<>();
        for (int i = 0; i < gatewayCount; i++) {
            gatewayList.add(new Gateway(i, config.gateway().cpuOf(i), registry, symbols, runtime.inbound(),
                runtime.outbound(i), pending.get(i), feeds.get(i), refusalCopies[i]));
        }
        this.gateways = new Gateways(gatewayList);
        for (FixSession session : sessions) {
            gateways.ofSession(session).own(session);
        }
        if (config.layout() == ThreadLayout.ONE_THREAD) {
            gatewayList.get(0).runMatchingInline(runtime);
        }
        if (config.rules().endOfDay() != null) {
            gatewayList.get(0).addTimer(new EndOfDayTimer(config.rules().endOfDay(), config.rules().timeZone(),
                pending.get(0), clock.millis()));
        }
    }

    /** The system's clock at nanosecond resolution, allocation-free; any other (a test's) read in milliseconds. */
    private static EpochNanoClock journalClock(Clock clock) {
        if (clock.equals(Clock.systemUTC())) {
            return new OffsetEpochNanoClock();
        }
        return () -> clock.millis() * 1_000_000L;
    }

    /** Owner ids of the drop-copy sessions covering each owner id (owner k is the k-th configured session). */
    private static DropCopyRoutes dropCopyRoutes(List<SessionConfig> sessions) {
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
     * Starts in the order that touches the data folder last: its lock (one server per folder), the port (a taken
     * port stops the start before anything is read or written), the admin endpoint, recovery of the books and of what
     * the sessions' stores lack, the threads, then the acceptor on the port.
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
     * The first half of {@link #start}: the data folder locked, the FIX port reserved, the stores open and the admin
     * endpoint listening (its {@code /health} says 503 until {@link #open}); nothing recovered, no FIX acceptor.
     */
    public static FixmatchServer create(ServerConfig config) {
        return create(config, Clock.systemUTC());
    }

    /** As {@link #create(ServerConfig)}, with {@code clock} as the wall clock (see {@link #start(ServerConfig, Clock)}). */
    public static FixmatchServer create(ServerConfig config, Clock clock) {
        DataFolderLock lock = DataFolderLock.acquire(config.dataDirectory());
        PortReservation port;
        FixmatchServer server;
        try {
            port = PortReservation.bind(config.gateway().host(), config.gateway().port());
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
        server.reservedPort = port;
        try {
            if (config.admin().enabled()) {
                server.admin = AdminServer.start(config.admin(), new AdminContext(server.readiness, server.runtime,
                    server.gateways, server.sessions, server.orderEntries, config.engine().symbols(),
                    server.journal));
            }
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The second half of {@link #start}: recovers the books, starts the threads, opens the FIX port. */
    public void open() throws InterruptedException {
        try {
            readiness.set(Readiness.State.RECOVERING);
            recover();
            seedMarketData();
            if (config.layout() == ThreadLayout.ONE_THREAD) {
                runtime.startInline();
            } else {
                runtime.start();
            }
            int port = reservedPort.port();
            reservedPort.close(); // handed over to the acceptor, which binds it again at once
            reservedPort = null;
            acceptor = FixAcceptor.start(config.gateway().withPort(port), registry, gateways);
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
        readiness.set(Readiness.State.READY);
        LOG.info("fixmatch ready: FIX 4.4 on {}:{}, CompID {}, sessions {}, {} symbols, layout {}, data in {}",
            config.gateway().host(), port(), config.compId(),
            config.sessions().stream().map(SessionConfig::clientCompId).toList(), config.engine().symbols().size(),
            config.layout().configName(), config.dataDirectory().toAbsolutePath());
    }

    /**
     * Rebuilds the books from the journal; stores the reports of replayed events that the session stores lack (a crash
     * after the journal append, before the report was stored); tells each session which of its client's requests the
     * journal holds, so those are not asked for again and all others are. On this thread, before the gateways run.
     */
    private void recover() {
        for (FixSession session : sessions) {
            session.claimOwnership();
        }
        RecoveredReports recovered = new RecoveredReports(registry, symbols, dropCopies);
        runtime.recover(recovered, latestUsableSnapshot());
        recovered.logSummary();
        long nowMs = clock.millis();
        expireMissedDayEnd(nowMs);
        applyTradingRules(nowMs);
        for (FixSession session : sessions) {
            session.journalPositions().recoverInbound(runtime.engine().lastInboundPosition(session.ownerId()));
        }
    }

    /**
     * A server that was down when the trading day ended ends it now ({@link MissedDayEnd}): one journaled
     * EXPIRE_DAY_ORDERS queued before any client's command, so yesterday's DAY orders never trade today.
     */
    private void expireMissedDayEnd(long nowMs) {
        if (config.rules().endOfDay() == null) {
            return;
        }
        MissedDayEnd.since(runtime.engine(), config.rules().endOfDay(), config.rules().timeZone(), nowMs)
            .ifPresent(dayEndMs -> {
                MissedDayEnd.log(runtime.engine(), dayEndMs, config.rules().timeZone());
                queueBeforeClients(List.of(MissedDayEnd.command(nowMs)));
            });
    }

    /**
     * The configuration's risk limits, self-trade prevention and reference prices reach the engine as journaled
     * commands, queued before any client's: only those the recovered engine holds differently.
     */
    private void applyTradingRules(long nowMs) {
        List<Command> changes = SessionControlSync.differences(config.rules(), runtime.engine(),
            nowMs * 1_000_000L);
        queueBeforeClients(changes);
        if (!changes.isEmpty()) {
            LOG.info("trading rules: {} session settings and reference prices changed since the journal's, set by"
                + " journaled commands", changes.size());
        }
    }

    /** The server's own commands at start, in the inbound ring before the matching thread and the gateways run. */
    private void queueBeforeClients(List<Command> commands) {
        for (Command command : commands) {
            if (!runtime.inbound().offer(command)) {
                throw new IllegalStateException("the inbound ring cannot hold the server's " + commands.size()
                    + " start-up commands; enlarge engine.inboundRingBytes");
            }
        }
    }

    /**
     * Each gateway's market data starts from the recovered books (the engine publishes only changes from now on). On
     * this thread, before the matching and gateway threads start.
     */
    private void seedMarketData() {
        for (Gateway gateway : gateways.all()) {
            MarketDataFeed feed = gateway.marketData();
            if (feed == null) {
                continue;
            }
            for (int symbolId = 0; symbolId < runtime.engine().symbolCount(); symbolId++) {
                for (Side side : Side.values()) {
                    int symbol = symbolId;
                    runtime.engine().forEachRestingOrder(symbolId, side,
                        order -> feed.seed(symbol, order.side(), order.price(), order.leavesQuantity()));
                }
            }
        }
    }

    /**
     * Recovery may start from a snapshot only if every session's store holds the reports of the events of the commands
     * the snapshot covers (its replay re-derives only those after it): the least position through which the stores
     * hold everything. Stores that know no event (new ones) do not constrain it.
     */
    private long latestUsableSnapshot() {
        long latest = Long.MAX_VALUE;
        for (FixSession session : sessions) {
            long storedThrough = session.journalPositions().eventsStoredThrough();
            if (storedThrough != 0) {
                latest = Math.min(latest, storedThrough);
            }
        }
        return latest;
    }

    /** The port actually bound (differs from the config's when it asked for 0). */
    public int port() {
        return acceptor.port();
    }

    /** The admin endpoint's port, or -1 when it is off. */
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
        if (reservedPort != null) {
            reservedPort.close();
            reservedPort = null;
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
        if (config.layout() == ThreadLayout.ONE_THREAD && acceptor != null) {
            onGateway(gateways.all().get(0), Gateway::closeInlineMatching);
        } else {
            runtime.close();
        }
        long journaledThrough = runtime.closedAt();
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
