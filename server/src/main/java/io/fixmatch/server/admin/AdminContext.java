package io.fixmatch.server.admin;

import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.fix.app.OrderEntry;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.security.UnauthenticatedConnections;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.journal.ChroniclePersistence;

import java.util.List;

/**
 * The parts of a running server the admin endpoint reads and acts through.
 *
 * @param sessions     every configured session, in configuration order
 * @param orderEntries each session's order entry, in the same order
 * @param unauthenticated the connections not logged on yet, and those closed to make room
 */
public record AdminContext(Readiness readiness, MatchingRuntime runtime, Gateways gateways, List<FixSession> sessions,
                           List<OrderEntry> orderEntries, List<SymbolSpec> symbols, ChroniclePersistence journal,
                           UnauthenticatedConnections unauthenticated) {
}
