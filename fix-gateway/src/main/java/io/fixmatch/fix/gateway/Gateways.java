package io.fixmatch.fix.gateway;

import io.fixmatch.fix.session.FixSession;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Every gateway thread, and which one owns which session: session with owner id {@code k} belongs to gateway
 * {@code (k - 1) % count}, in the order the sessions are configured, so each session has one fixed gateway.
 */
public final class Gateways {
    private final List<Gateway> gateways;

    public Gateways(List<Gateway> gateways) {
        this.gateways = List.copyOf(gateways);
        for (int i = 0; i < this.gateways.size(); i++) {
            if (this.gateways.get(i).index() != i) {
                throw new IllegalArgumentException("gateway " + i + " has index " + this.gateways.get(i).index());
            }
        }
    }

    /** The gateway index that owns the sessions of this owner id among {@code count} gateways. */
    public static int indexOfOwner(int ownerId, int count) {
        return Math.floorMod(ownerId - 1, count);
    }

    public Gateway ofSession(FixSession session) {
        return gateways.get(indexOfOwner(session.ownerId(), gateways.size()));
    }

    /** The gateway running on this event loop, or null. */
    public Gateway onLoop(Executor eventLoop) {
        for (Gateway gateway : gateways) {
            if (gateway.eventLoop() == eventLoop) {
                return gateway;
            }
        }
        return null;
    }

    public List<Gateway> all() {
        return gateways;
    }

    public int count() {
        return gateways.size();
    }

    /** Any thread: the latency stages of traced round trips, all gateways together (ns). */
    public Map<LatencyStages.Stage, Histogram> latencyStages() {
        return LatencyStages.merged(gateways.stream().map(Gateway::latencyStages).toList());
    }
}
