package io.fixmatch.server.admin;

import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.EngineLink;
import io.fixmatch.feed.publisher.FeedPublisher;
import io.fixmatch.fix.app.OrderEntry;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.security.UnauthenticatedConnections;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.journal.ChroniclePersistence;

import java.util.List;

/**
 * The parts of a running server the admin endpoint reads and acts through.
 *
 * @param engine       how the gateways reach the engine (the matching step here, or the cluster's link)
 * @param sessions     every session this process serves, in configuration order
 * @param orderEntries each session's order entry, in the same order
 * @param journal      the journal (standalone), or null (a cluster gateway has none: the nodes keep it)
 * @param cluster      what a cluster gateway knows of its cluster (null: standalone)
 * @param unauthenticated the connections not logged on yet, and those closed to make room
 * @param feed         the binary market data feed this process publishes, or null
 */
public record AdminContext(Readiness readiness, EngineLink engine, Gateways gateways, List<FixSession> sessions,
                           List<OrderEntry> orderEntries, List<SymbolSpec> symbols, ChroniclePersistence journal,
                           ClusterGateway cluster, UnauthenticatedConnections unauthenticated,
                           FeedPublisher feed) {
}
