package io.fixmatch.engine.loop;

import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * The engine at run time: one thread that owns all books, fed by the inbound ring, publishing to the outbound
 * ring, journaling every command first.
 *
 * <p>Life cycle: construct, {@link #recover()} (replays the journal into the books; no events are published),
 * {@link #start()} (starts the matching thread), then producers {@link InboundCommandRing#offer} and a consumer
 * polls {@link #outbound()}; {@link #close()} stops the thread after it has processed every command already
 * accepted into the ring, and closes the journal.
 */
public final class MatchingRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MatchingRuntime.class);

    private final MatchingEngine engine;
    private final InboundCommandRing inbound;
    private final OutboundEventRing outbound;
    private final CommandJournal journal;
    private final MatchingLoop loop;
    private final AgentRunner runner;
    private final LoopConfig loopConfig;
    /** True while recovering: the events of replayed commands were already published before the restart. */
    private boolean replaying;
    private boolean recovered;
    private boolean started;

    public MatchingRuntime(EngineConfig engineConfig, LoopConfig loopConfig, CommandJournal journal) {
        this.loopConfig = loopConfig;
        this.journal = journal;
        this.inbound = new InboundCommandRing(loopConfig.inboundRingBytes());
        this.outbound = new OutboundEventRing(loopConfig.outboundRingBytes(),
            IdleStrategies.byName(loopConfig.idleStrategy()));
        this.engine = new MatchingEngine(engineConfig, event -> {
            if (!replaying) {
                outbound.onEvent(event);
            }
        });
        this.loop = new MatchingLoop(inbound, journal, engine, new OffsetEpochNanoClock(), loopConfig.batchLimit(),
            outbound::wakeConsumer);
        this.runner = new AgentRunner(matchingIdleStrategy(loopConfig.idleStrategy(), inbound),
            error -> LOG.error("matching thread error", error), null, loop);
    }

    /** The matching thread's back-off is woken by producers, so a parked thread does not delay the next command. */
    private static IdleStrategy matchingIdleStrategy(String name, InboundCommandRing inbound) {
        if (!name.equals(IdleStrategies.DEFAULT)) {
            return IdleStrategies.byName(name);
        }
        WakeableBackoffIdleStrategy strategy = new WakeableBackoffIdleStrategy(() -> inbound.size() > 0,
            TimeUnit.MILLISECONDS.toNanos(1));
        inbound.consumerWaker(strategy::wake);
        return strategy;
    }

    /** Rebuilds the books from the journal. Must be called once, before {@link #start()}. */
    public long recover() {
        if (recovered) {
            throw new IllegalStateException("already recovered");
        }
        long startNanos = System.nanoTime();
        replaying = true;
        long commands;
        try {
            commands = journal.recoverInto(engine);
        } finally {
            replaying = false;
        }
        recovered = true;
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        LOG.info("recovered: {} resting orders in {} books, {} commands replayed from the journal, in {} s ({}"
                + " commands/s); last order id {}, last exec id {}", engine.liveOrderCount(),
            engine.nonEmptyBookCount(), commands, String.format("%.3f", seconds),
            commands == 0 ? 0 : Math.round(commands / seconds), engine.lastOrderId(), engine.lastExecId());
        return commands;
    }

    public void start() {
        if (!recovered) {
            throw new IllegalStateException("recover() must run before start()");
        }
        if (started) {
            throw new IllegalStateException("already started");
        }
        started = true;
        AgentRunner.startOnThread(runner, new CpuPinning("matching", loopConfig.cpu()));
    }

    public InboundCommandRing inbound() {
        return inbound;
    }

    public OutboundEventRing outbound() {
        return outbound;
    }

    /**
     * The engine, for inspection only while the matching thread is not running (before {@link #start()}, after
     * {@link #close()}): it is not thread-safe.
     */
    public MatchingEngine engine() {
        return engine;
    }

    /** Commands processed since start (not counting recovery); read by the matching thread's owner after close. */
    public long commandsProcessed() {
        return loop.commandsProcessed();
    }

    /** Stops the matching thread once it has processed what is queued, then closes the journal. */
    @Override
    public void close() {
        if (started) {
            runner.close();
        } else {
            journal.close();
        }
    }
}
