package io.fixmatch.server;

import io.fixmatch.engine.loop.EngineLink;
import io.fixmatch.feed.publisher.FeedPublisher;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.PendingCommands;
import io.fixmatch.fix.session.FixSession;

import java.util.List;
import java.util.function.Consumer;

/**
 * The engine as one server process sees it: the {@link EngineLink} its gateways reach it through, how it comes up
 * before they serve and how it stops after them. {@link StandaloneEngine}: the matching step and its journal in this
 * process; {@link ClusterEngine}: this process a gateway of the replicated engine.
 */
interface EngineSide {
    EngineLink link();

    /** Before the threads start: what runs on the gateway threads for the engine (inline matching, timers). */
    void attach(List<Gateway> gateways, List<PendingCommands> pending);

    /**
     * On the starting thread, which owns the sessions: brings the engine's state up, tells each session which of its
     * client's requests the engine holds (the rest are asked for again), seeds each gateway's market data from the
     * books, and queues the start-up commands (the configuration's trading settings) before any client's.
     */
    void recover(List<FixSession> sessions, List<Gateway> gateways);

    /** Starts the engine's own thread, if it has one; the gateway threads run. */
    void start();

    /** Whether the engine side can serve: what it held for the sessions has reached their stores. */
    boolean ready();

    /**
     * After the gateways' last commands were taken: stops the engine side; {@code onGateway0} runs an action on the
     * first gateway's thread and waits for it (the inline matching step closes there). Returns the journal position
     * the sessions' stores may be marked complete through (0: none).
     */
    long stop(boolean gatewaysRan, Consumer<Consumer<Gateway>> onGateway0);

    /** A description for the ready line: the layout, or the cluster's leader. */
    String describe();

    /** The binary market data feed this process publishes (docs/FEED.md), or null. */
    default FeedPublisher feed() {
        return null;
    }
}
