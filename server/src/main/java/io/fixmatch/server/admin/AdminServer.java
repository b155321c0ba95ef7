package io.fixmatch.server.admin;

import io.fixmatch.server.AdminSettings;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The admin HTTP endpoint (docs/OPERATIONS.md): the JDK's HTTP server on one thread of its own ({@code admin-http},
 * a daemon), never a gateway's or the matching thread. Everything it asks of the server goes through the same
 * doors as a client's requests: tasks on the owning gateway thread, commands through the inbound ring; the
 * counters it reads are written by their one thread and only read here.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    /** How long an admin request waits for a gateway task or the engine. */
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final AdminHttp http;
    private final GcPauseMetrics gcPauses;

    private AdminServer(AdminHttp http, GcPauseMetrics gcPauses) {
        this.http = http;
        this.gcPauses = gcPauses;
    }

    /**
     * Binds {@code settings}' address and serves the routes. The gateways may not run yet (the endpoint starts
     * before recovery, so that {@code /health} says 503 meanwhile): what needs them answers 503 until ready.
     *
     * @throws UncheckedIOException if the address cannot be bound (the port is taken, say)
     */
    public static AdminServer start(AdminSettings settings, AdminContext context) {
        PrometheusRegistry registry = new PrometheusRegistry();
        EngineOperations engine = new EngineOperations(context.gateways().all().get(0), context.engine().view(),
            TIMEOUT);
        SessionOperations sessions = new SessionOperations(context.sessions(), context.gateways(), TIMEOUT,
            context.cluster() == null ? owner -> null : context.cluster()::holderOf);
        SymbolEndpoints symbolEndpoints = new SymbolEndpoints(context.symbols(), engine, context.readiness());
        SessionEndpoints sessionEndpoints = new SessionEndpoints(sessions, engine, context.readiness());
        EngineEndpoints engineEndpoints = new EngineEndpoints(engine, context.engine().view(), context.readiness());

        List<String> compIds = context.sessions().stream().map(s -> s.config().clientCompId()).toList();
        SessionMetrics.register(registry, context.sessions());
        ConnectionMetrics.register(registry, context.unauthenticated());
        TradingMetrics.register(registry, context.engine().counters(), context.symbols(), compIds,
            context.orderEntries(), engine);
        RiskMetrics.register(registry, context.engine().counters(), compIds, engine);
        PipelineMetrics.register(registry, context.readiness(), context.engine(), context.gateways(),
            context.journal());
        MarketDataMetrics.register(registry, context.gateways());
        registry.register(new BookMetrics(context.symbols(), engine, context.readiness()));
        registry.register(new StageLatencyMetrics(context.gateways()));
        GcPauseMetrics gcPauses = new GcPauseMetrics(registry);

        List<Route> routes = new ArrayList<>(List.of(
            Route.open("GET", "/health", new HealthEndpoint(context.readiness(), context.engine()::available)),
            Route.of("GET", "/metrics", new MetricsEndpoint(registry)),
            Route.of("GET", "/sessions", sessionEndpoints::list),
            Route.of("POST", "/sessions/([^/]+)/logout", sessionEndpoints::logout),
            Route.of("POST", "/sessions/([^/]+)/cancel-all", sessionEndpoints::cancelAll),
            Route.of("GET", "/book/([^/]+)", symbolEndpoints::book),
            Route.of("POST", "/symbols/([^/]+)/halt", symbolEndpoints::halt),
            Route.of("POST", "/symbols/([^/]+)/resume", symbolEndpoints::resume),
            Route.of("POST", "/sessions/([^/]+)/kill-switch", sessionEndpoints::killSwitch),
            Route.of("POST", "/sessions/([^/]+)/kill-switch/release", sessionEndpoints::releaseKillSwitch),
            Route.of("POST", "/engine/expire-day-orders", engineEndpoints::expireDayOrders)));
        routes.add(Route.of("GET", "/feed", new FeedEndpoint(context.feed())));
        if (context.feed() != null) {
            FeedEndpoint.registerMetrics(registry, context.feed());
        }
        if (context.cluster() != null) {
            routes.add(Route.of("GET", "/cluster", new ClusterEndpoint(context.cluster())));
            ClusterEndpoint.registerMetrics(registry, context.cluster());
        }

        AdminHttp http;
        try {
            http = AdminHttp.start(settings.host(), settings.bindPort(), settings.token(), routes, "admin-http");
        } catch (RuntimeException e) {
            gcPauses.close();
            throw e;
        }
        AdminServer server = new AdminServer(http, gcPauses);
        LOG.info("admin endpoint on http://{}:{} (/health, /metrics, /sessions, /book/SYMBOL, /feed; {})", settings.host(),
            server.port(), settings.token() == null ? "no token" : "bearer token required but for /health");
        return server;
    }

    /** The port bound (differs from the settings' for any free port). */
    public int port() {
        return http.port();
    }

    @Override
    public void close() {
        http.close();
        gcPauses.close();
    }
}
