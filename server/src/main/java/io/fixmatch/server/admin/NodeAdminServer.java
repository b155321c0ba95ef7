package io.fixmatch.server.admin;

import io.aeron.cluster.service.Cluster;
import io.fixmatch.cluster.node.ClusterNode;
import io.fixmatch.cluster.service.ServiceStatus;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.BookQueryAnswer;
import io.fixmatch.engine.matching.EngineView;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static io.fixmatch.server.admin.CallbackMetrics.counter;
import static io.fixmatch.server.admin.CallbackMetrics.gauge;

/**
 * A cluster node's admin endpoint (docs/OPERATIONS.md, "Run it replicated"): {@code /health} (200 once the node's
 * service has started and a leader is known), {@code /metrics} ({@code fixmatch_cluster_*}), {@code /cluster} (this
 * node: role, pid, leader, term, positions), {@code POST /snapshot} (on the leader: a snapshot of every node now),
 * {@code /book/SYMBOL} (this node's books, read between two log messages).
 */
public final class NodeAdminServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeAdminServer.class);
    private static final long BOOK_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final AdminHttp http;

    private NodeAdminServer(AdminHttp http) {
        this.http = http;
    }

    public static NodeAdminServer start(String host, int port, String token, ClusterNode node,
                                        List<SymbolSpec> symbols) {
        PrometheusRegistry registry = new PrometheusRegistry();
        registerMetrics(registry, node);
        AtomicLong bookRequests = new AtomicLong();
        List<Route> routes = List.of(
            Route.open("GET", "/health", request -> health(node)),
            Route.of("GET", "/metrics", new MetricsEndpoint(registry)),
            Route.of("GET", "/cluster", request -> AdminResponse.json(200, describe(node))),
            Route.of("POST", "/snapshot", request -> snapshot(node)),
            Route.of("POST", "/shutdown", request -> shutdown(node)),
            Route.of("GET", "/book/([^/]+)", request -> book(node, symbols, request.segment(1),
                bookRequests.incrementAndGet())));
        AdminHttp http = AdminHttp.start(host, port, token, routes, "node-admin-http");
        LOG.info("node admin endpoint on http://{}:{} (/health, /metrics, /cluster, POST /snapshot, /book/SYMBOL)",
            host, http.port());
        return new NodeAdminServer(http);
    }

    /** Ready: the service restored its state and the log has named a leader, or this node's election is over. */
    public static boolean ready(ClusterNode node) {
        return node.status().started() && (node.status().leaderMemberId() >= 0 || node.electionClosed());
    }

    private static AdminResponse health(ClusterNode node) {
        if (node.status().startFailure() != null) {
            return AdminResponse.json(503, Map.of("status", "failed", "reason", node.status().startFailure()));
        }
        return ready(node) ? AdminResponse.json(200, Map.of("status", "ready", "role", node.role().name()))
            : AdminResponse.json(503, Map.of("status", "starting", "role", node.role().name()));
    }

    /** This node as {@code /cluster} describes it (a gateway's {@code /cluster} gathers every node's). */
    static Map<String, Object> describe(ClusterNode node) {
        ServiceStatus status = node.status();
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("id", node.settings().memberId());
        member.put("role", node.role().name());
        member.put("pid", ProcessHandle.current().pid());
        member.put("adminPort", node.settings().self().adminPort());
        member.put("leader", status.leaderMemberId());
        member.put("term", node.leadershipTermId());
        member.put("logPosition", status.logPosition());
        member.put("commitPosition", node.commitPosition());
        member.put("appendPosition", node.appendPosition());
        member.put("commands", status.commandSequence());
        member.put("journalHeldThrough", status.journalHeldThrough());
        member.put("elections", node.elections());
        member.put("snapshots", status.snapshots());
        member.put("protocolVersion", status.protocolVersion());
        member.put("termProtocolVersion", status.termProtocolVersion());
        return member;
    }

    private static AdminResponse snapshot(ClusterNode node) {
        if (node.role() != Cluster.Role.LEADER) {
            return AdminResponse.error(409, "node " + node.settings().memberId() + " is not the leader; ask node "
                + node.status().leaderMemberId());
        }
        if (!node.requestSnapshot()) {
            return AdminResponse.error(409, "another cluster action is under way; ask again");
        }
        LOG.info("snapshot requested by the admin endpoint");
        return AdminResponse.json(202, Map.of("snapshot", "requested", "node", node.settings().memberId()));
    }

    /** The whole cluster's clean stop: every node snapshots at the same log position, then stops. */
    private static AdminResponse shutdown(ClusterNode node) {
        if (node.role() != Cluster.Role.LEADER) {
            return AdminResponse.error(409, "node " + node.settings().memberId() + " is not the leader; ask node "
                + node.status().leaderMemberId());
        }
        if (!node.requestClusterShutdown()) {
            return AdminResponse.error(409, "another cluster action is under way; ask again");
        }
        LOG.info("cluster shutdown requested by the admin endpoint: every node snapshots, then stops");
        return AdminResponse.json(202, Map.of("shutdown", "requested", "node", node.settings().memberId()));
    }

    private static AdminResponse book(ClusterNode node, List<SymbolSpec> symbols, String name, long requestId) {
        int symbolId = -1;
        for (int i = 0; i < symbols.size(); i++) {
            if (symbols.get(i).name().equals(name)) {
                symbolId = i;
            }
        }
        if (symbolId < 0) {
            return AdminResponse.error(404, "unknown symbol " + name);
        }
        EngineView view = node.service().view();
        if (view == null) {
            return AdminResponse.error(503, "the node's service has not started");
        }
        node.service().askBookQuery(symbolId, requestId);
        long deadline = System.nanoTime() + BOOK_TIMEOUT_NANOS;
        BookQueryAnswer answer;
        while ((answer = view.answer(requestId)) == null) {
            if (System.nanoTime() > deadline) {
                return AdminResponse.error(503, "the node's service did not answer within 5 s");
            }
            LockSupport.parkNanos(200_000);
        }
        return AdminResponse.json(200, SymbolEndpoints.book(symbols.get(symbolId), view.isHalted(symbolId), answer,
            SymbolEndpoints.DEFAULT_DEPTH));
    }

    private static void registerMetrics(PrometheusRegistry registry, ClusterNode node) {
        ServiceStatus status = node.status();
        gauge(registry, "fixmatch_cluster_role", "This node's role: 0 follower, 1 candidate, 2 leader",
            () -> node.role().code());
        counter(registry, "fixmatch_cluster_elections_total", "Elections this node took part in since it started",
            node::elections);
        gauge(registry, "fixmatch_cluster_leadership_term", "The current leadership term", node::leadershipTermId);
        gauge(registry, "fixmatch_cluster_commit_position", "The log position a majority of the nodes holds",
            node::commitPosition);
        gauge(registry, "fixmatch_cluster_append_position", "How far this node's copy of the log is written (committed"
            + " or not)", node::appendPosition);
        gauge(registry, "fixmatch_cluster_applied_position", "The log position of the last message this node's"
            + " service applied", status::logPosition);
        counter(registry, "fixmatch_cluster_commands_total", "Commands this node's service applied",
            status::commandSequence);
        gauge(registry, "fixmatch_cluster_journal_held_through", "The last command this node's own journal holds",
            status::journalHeldThrough);
        counter(registry, "fixmatch_cluster_ignored_commands_total", "Gateway commands not applied: repeats of"
            + " applied ones (re-offered after a leader change), out of order, or malformed", status::ignoredCommands);
        counter(registry, "fixmatch_cluster_egress_dropped_total", "Egress batches this node, leading, could not hand"
            + " to a gateway (it asks for them again)", status::droppedEgress);
        counter(registry, "fixmatch_cluster_egress_resent_total", "Egress batches sent again to a resuming or"
            + " restarted gateway", status::resentBatches);
        gauge(registry, "fixmatch_cluster_egress_window_bytes", "Unacknowledged egress held for all gateways",
            status::windowBytes);
        counter(registry, "fixmatch_cluster_egress_lost_batches_total", "Egress batches dropped unacknowledged"
            + " because a gateway stayed away longer than its window holds", status::lostBatches);
        counter(registry, "fixmatch_cluster_snapshots_total", "Snapshots this node's service wrote",
            status::snapshots);
    }

    public int port() {
        return http.port();
    }

    @Override
    public void close() {
        http.close();
    }
}
