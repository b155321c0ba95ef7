package io.fixmatch.server.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fixmatch.cluster.client.LinkStatus;
import io.fixmatch.cluster.node.ClusterMember;
import io.fixmatch.cluster.protocol.GatewayDirectory;
import io.fixmatch.cluster.protocol.ProtocolVersion;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.fixmatch.server.admin.CallbackMetrics.counter;
import static io.fixmatch.server.admin.CallbackMetrics.gauge;

/**
 * A cluster gateway's {@code GET /cluster}: the leader, the term and the commit position, this gateway's link, and
 * each member as its own admin endpoint describes it ({@code id}, {@code role}, {@code pid}, {@code adminPort},
 * {@code logPosition}...), or {@code role: "unreachable"} when it does not answer within half a second.
 */
final class ClusterEndpoint implements Endpoint {
    private static final Duration MEMBER_TIMEOUT = Duration.ofMillis(500);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ClusterGateway cluster;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(MEMBER_TIMEOUT).build();

    ClusterEndpoint(ClusterGateway cluster) {
        this.cluster = cluster;
    }

    @Override
    public AdminResponse handle(AdminRequest request) {
        List<Map<String, Object>> members = new ArrayList<>();
        Map<String, Object> leader = null;
        for (ClusterMember member : cluster.members().members()) {
            Map<String, Object> described = ask(member);
            members.add(described);
            if ("LEADER".equals(described.get("role"))) {
                leader = described;
            }
        }
        LinkStatus link = cluster.link();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("leader", leader != null ? leader.get("id") : link.leaderMemberId());
        body.put("term", leader != null ? leader.get("term") : link.leadershipTermId());
        body.put("commitPosition", leader != null ? leader.get("commitPosition") : -1);
        body.put("gateway", gateway(link));
        body.put("members", members);
        GatewayDirectory directory = cluster.directory().get();
        body.put("gateways", gateways(directory));
        body.put("sessionTakeovers", directory.takeovers());
        return AdminResponse.json(200, body);
    }

    private Map<String, Object> gateway(LinkStatus link) {
        Map<String, Object> gateway = new LinkedHashMap<>();
        gateway.put("id", cluster.gatewayId());
        gateway.put("state", link.state());
        gateway.put("available", link.available());
        gateway.put("leader", link.leaderMemberId());
        gateway.put("leaderChanges", link.leaderChanges());
        gateway.put("unanswered", link.unanswered());
        gateway.put("reofferedCommands", link.reofferedCommands());
        gateway.put("lastEgress", link.lastEgress());
        gateway.put("protocolVersion", ProtocolVersion.CURRENT);
        return gateway;
    }

    /**
     * Every gateway the cluster knows: id, pid, FIX and admin ports, whether it is connected to the cluster, and the
     * sessions it holds (the CompIDs of the clients logged on at it).
     */
    private List<Map<String, Object>> gateways(GatewayDirectory directory) {
        List<Map<String, Object>> gateways = new ArrayList<>();
        for (GatewayDirectory.Gateway known : directory.gateways()) {
            Map<String, Object> gateway = new LinkedHashMap<>();
            gateway.put("id", known.id());
            gateway.put("pid", known.pid());
            gateway.put("fixPort", known.fixPort());
            gateway.put("adminPort", known.adminPort());
            gateway.put("connected", known.connected());
            gateway.put("sessions", directory.ownersHeldBy(known).stream()
                .map(owner -> owner <= cluster.compIds().size() ? cluster.compIds().get(owner - 1) : "owner " + owner)
                .toList());
            gateways.add(gateway);
        }
        return gateways;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> ask(ClusterMember member) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + member.host() + ":"
            + member.adminPort() + "/cluster")).timeout(MEMBER_TIMEOUT).GET();
        if (cluster.token() != null) {
            request.header("Authorization", "Bearer " + cluster.token());
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                return JSON.readValue(response.body(), Map.class);
            }
        } catch (java.io.IOException e) {
            // unreachable: said below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Map<String, Object> unreachable = new LinkedHashMap<>();
        unreachable.put("id", member.id());
        unreachable.put("role", "unreachable");
        unreachable.put("pid", null);
        unreachable.put("adminPort", member.adminPort());
        unreachable.put("logPosition", null);
        return unreachable;
    }

    /** The gateway's side of the {@code fixmatch_cluster_*} series, and the cluster's session takeovers. */
    static void registerMetrics(PrometheusRegistry registry, ClusterGateway cluster) {
        LinkStatus link = cluster.link();
        counter(registry, "fixmatch_session_takeovers_total", "FIX sessions the cluster gave to another gateway because"
            + " the one holding them was gone (silent or disconnected)", () -> cluster.directory().get().takeovers());
        gauge(registry, "fixmatch_cluster_available", "1 while a leader answers and new orders are taken",
            () -> link.available() ? 1 : 0);
        gauge(registry, "fixmatch_cluster_leader", "The leader this gateway sends to (-1: none yet)",
            link::leaderMemberId);
        counter(registry, "fixmatch_cluster_leader_changes_total", "New leaders this gateway was told of",
            link::leaderChanges);
        counter(registry, "fixmatch_cluster_reoffered_commands_total", "Commands offered again after a leader change"
            + " or an overdue answer", link::reofferedCommands);
        counter(registry, "fixmatch_cluster_resumes_total", "Times this gateway asked the cluster to resend its"
            + " egress from where it stood", link::resumes);
        counter(registry, "fixmatch_cluster_egress_gaps_total", "Egress batches that came after a lost one",
            link::gaps);
        counter(registry, "fixmatch_cluster_ingress_backpressure_total", "Offers to the cluster refused for"
            + " back-pressure or no leader (retried)", link::backPressured);
        gauge(registry, "fixmatch_cluster_unanswered_commands", "Commands sent and not answered yet",
            link::unanswered);
        counter(registry, "fixmatch_cluster_reconnects_total", "Times the gateway lost its cluster session and"
            + " connected again", link::reconnects);
    }
}
