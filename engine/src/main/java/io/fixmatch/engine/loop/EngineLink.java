package io.fixmatch.engine.loop;

import io.fixmatch.engine.matching.EngineView;
import io.fixmatch.engine.metrics.EngineCounters;

/**
 * How the gateway tier reaches the matching engine, the same in both modes: it offers commands to {@link #inbound()}
 * and each gateway thread consumes the events of its sessions from its {@link #outbound(int)} ring. Two
 * implementations: {@link MatchingRuntime}, the matching step in this process (inline in the gateway's duty cycle or
 * on its own thread), and the cluster module's client of the replicated engine.
 */
public interface EngineLink {
    InboundCommandRing inbound();

    /** The ring of the events of gateway thread {@code gateway}'s sessions. */
    OutboundEventRing outbound(int gateway);

    /**
     * Any thread: whether new requests are taken now. Always in a standalone server; a cluster gateway with no leader
     * answering refuses them (they would only queue).
     */
    boolean available();

    /** Any thread: halts, kill switches and book query answers as the engine published them. */
    EngineView view();

    /** Any thread: commands and events counted by kind, reason and symbol. */
    EngineCounters counters();

    /** Any thread: how long the start took to bring the engine's state up (recovery, or joining the cluster), ns. */
    long recoveryNanos();

    /** Any thread: commands replayed at start (standalone), or batches received again on joining (cluster). */
    long recoveredCommands();
}
