package io.fixmatch.server;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.fix.app.EventRouter;
import io.fixmatch.fix.app.OrderEntry;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.fix.session.SessionRegistry;
import io.fixmatch.fix.session.SessionStore;
import io.fixmatch.fix.transport.FixAcceptor;
import io.fixmatch.journal.ChronicleCommandJournal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The whole server: journal recovery, the pinned matching loop, the event router, the FIX sessions and the
 * acceptor, started in that order (no port is open before the books are rebuilt) and stopped in reverse, so that
 * every accepted command is processed, journaled and its reports stored before the process exits.
 */
public final class FixmatchServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FixmatchServer.class);
    private static final long CANCEL_ON_DISCONNECT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final ServerConfig config;
    private final MatchingRuntime runtime;
    private final List<FixSession> sessions = new ArrayList<>();
    private final SessionRegistry registry;
    private final EventRouter router;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private FixAcceptor acceptor;
    private boolean closed;

    private FixmatchServer(ServerConfig config) {
        this.config = config;
        this.runtime = new MatchingRuntime(config.engine(), config.loop(),
            ChronicleCommandJournal.open(config.journal(), config.engine().symbols()));
        SymbolTable symbols = new SymbolTable(config.engine().symbols());
        int owner = 1;
        for (SessionConfig sessionConfig : config.sessions()) {
            int ownerId = owner++;
            Runnable onDisconnect = sessionConfig.cancelOnDisconnect() ? () -> cancelAllOrdersOf(ownerId) : null;
            sessions.add(new FixSession(sessionConfig, ownerId, config.compId(),
                new SessionStore(config.sessionDirectory(sessionConfig)), config.gateway().timings(),
                new OrderEntry(runtime.inbound(), symbols, onDisconnect), config.gateway().maxMessageSize()));
        }
        this.registry = new SessionRegistry(config.compId(), sessions);
        this.router = new EventRouter(runtime.outbound(), registry, symbols);
    }

    /** Recovers the books from the journal, starts the threads, then opens the port. */
    public static FixmatchServer start(ServerConfig config) throws InterruptedException {
        FixmatchServer server = new FixmatchServer(config);
        try {
            server.runtime.recover();
            server.runtime.start();
            server.acceptor = FixAcceptor.start(config.gateway(), server.registry);
            server.router.consumeOn(server.acceptor.eventLoop());
        } catch (RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
        LOG.info("fixmatch ready: FIX 4.4 on {}:{}, CompID {}, sessions {}, {} symbols, data in {}",
            config.gateway().host(), server.port(), config.compId(),
            config.sessions().stream().map(SessionConfig::clientCompId).toList(), config.engine().symbols().size(),
            config.dataDirectory().toAbsolutePath());
        return server;
    }

    /** The port actually bound (differs from the config's when it asked for 0). */
    public int port() {
        return acceptor.port();
    }

    public void awaitStop() throws InterruptedException {
        stopped.await();
    }

    /**
     * Clean shutdown: stop accepting, log every session out (waiting briefly for their replies), close the
     * connections, let the matching thread finish what it accepted and close the journal, route the last events
     * into the sessions' stores, close the stores.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        LOG.info("shutting down");
        if (acceptor != null) {
            acceptor.stopAccepting();
            long now = System.currentTimeMillis();
            sessions.forEach(session -> session.logout("server shutting down", now));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (sessions.stream().anyMatch(FixSession::isLoggedOn) && System.nanoTime() < deadline) {
                sleepBriefly();
            }
            router.stopConsuming();
            acceptor.close();
        }
        runtime.close();
        router.drainRemaining();
        sessions.forEach(FixSession::close);
        LOG.info("stopped: {} execution reports routed", router.eventsRouted());
        stopped.countDown();
    }

    /** Cancel-on-disconnect: the engine cancels every live order of the owner (a journaled command). */
    private void cancelAllOrdersOf(int ownerId) {
        Command command = new Command().cancelAllForOwner(ownerId).timestampNanos(System.currentTimeMillis()
            * 1_000_000L);
        long deadline = System.nanoTime() + CANCEL_ON_DISCONNECT_WAIT_NANOS;
        while (!runtime.inbound().offer(command)) {
            if (System.nanoTime() > deadline) {
                LOG.error("cancel-on-disconnect for owner {} could not be queued: the engine is overloaded",
                    ownerId);
                return;
            }
            Thread.onSpinWait();
        }
        LOG.info("cancel-on-disconnect: canceling all orders of owner {}", ownerId);
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
