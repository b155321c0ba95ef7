package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.MarketDataSink;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.matching.EngineView;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.engine.metrics.EngineCounters;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;

/**
 * The engine at run time: one thread that owns all books, fed by the inbound ring, publishing to the outbound
 * rings (one per consumer: each gateway thread has its own), journaling every command first.
 *
 * <p>Life cycle: construct, {@link #recover()} (replays the journal into the books; no events are published), then
 * either {@link #start()} (the matching thread of its own, pinned to {@code LoopConfig.cpu}) or
 * {@link #startInline()} (no thread: the caller's thread runs {@link #doWork()} in its own duty cycle); producers
 * {@link InboundCommandRing#offer} and consumers poll {@link #outbound(int)}. {@link #close()} processes every
 * command already accepted into the ring, snapshots and closes the journal (inline: on the calling thread, which
 * must be the one that ran {@link #doWork()}).
 */
public final class MatchingRuntime implements EngineLink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MatchingRuntime.class);

    private enum State { NEW, RECOVERED, THREAD, INLINE, CLOSED }

    private final MatchingEngine engine;
    private final InboundCommandRing inbound;
    private final OutboundEventRing[] outbound;
    private final OutboundRouting routing;
    private final MarketDataPublisher marketData;
    private final EnginePersistence journal;
    private final MatchingLoop loop;
    private final LoopConfig loopConfig;
    private final EngineCounters counters;
    private AgentRunner runner;
    private State state = State.NEW;
    private volatile long recoveredCommands;
    private volatile long recoveryNanos;

    /** One outbound ring, for one consumer. */
    public MatchingRuntime(EngineConfig engineConfig, LoopConfig loopConfig, EnginePersistence journal) {
        this(engineConfig, loopConfig, journal, 1, owner -> 0);
    }

    /**
     * @param outboundRings how many consumers (gateway threads) the events are split between, each with its ring
     * @param ringOfOwner   the ring (0 .. outboundRings - 1) that receives the events of an owner id
     */
    public MatchingRuntime(EngineConfig engineConfig, LoopConfig loopConfig, EnginePersistence journal,
                           int outboundRings, IntUnaryOperator ringOfOwner) {
        this(engineConfig, loopConfig, journal, outboundRings, ringOfOwner, new OffsetEpochNanoClock());
    }

    /**
     * As above, commands stamped (for the journal) by {@code clock}: the wall clock in production; a test's clock
     * to play a trading day without waiting.
     */
    public MatchingRuntime(EngineConfig engineConfig, LoopConfig loopConfig, EnginePersistence journal,
                           int outboundRings, IntUnaryOperator ringOfOwner, EpochNanoClock clock) {
        this.loopConfig = loopConfig;
        this.journal = journal;
        this.inbound = new InboundCommandRing(loopConfig.inboundRingBytes());
        this.outbound = new OutboundEventRing[outboundRings];
        for (int i = 0; i < outboundRings; i++) {
            outbound[i] = new OutboundEventRing(loopConfig.outboundRingBytes(),
                IdleStrategies.byName(loopConfig.idleStrategy()));
        }
        this.counters = new EngineCounters(engineConfig.symbols().size());
        this.routing = new OutboundRouting(outbound, ringOfOwner, counters);
        this.engine = new MatchingEngine(engineConfig, routing);
        this.marketData = new MarketDataPublisher(routing, engine);
        this.loop = new MatchingLoop(inbound, journal, engine, routing, clock,
            loopConfig.batchLimit(), counters);
    }

    /** The matching thread's back-off is woken by producers, so a parked thread does not delay the next command. */
    private IdleStrategy matchingIdleStrategy() {
        String name = loopConfig.idleStrategy();
        if (!name.equals(IdleStrategies.DEFAULT)) {
            return IdleStrategies.byName(name);
        }
        WakeableBackoffIdleStrategy strategy = new WakeableBackoffIdleStrategy(() -> inbound.size() > 0,
            TimeUnit.MILLISECONDS.toNanos(1));
        inbound.consumerWaker(strategy::wake);
        return strategy;
    }

    /**
     * Before {@link #start()}: whether the matching step publishes market data (every change of a price level's total
     * and every trade, one record per command, into every outbound ring, where the gateways turn it into FIX market
     * data). Off by default.
     */
    public void publishMarketData(boolean enabled) {
        if (state == State.THREAD || state == State.INLINE) {
            throw new IllegalStateException("market data is switched before start");
        }
        engine.marketData(enabled ? marketData : MarketDataSink.NONE);
    }

    /**
     * Before {@link #start()}: a ring of its own for one more consumer, which gets every market data record (each
     * command's, in order, numbered: {@code MarketDataCodec}) and nothing else: the binary feed's publisher
     * (docs/FEED.md) reads it on a thread of its own. Market data must be on ({@link #publishMarketData}).
     */
    public OutboundEventRing addMarketDataRing() {
        if (state == State.THREAD || state == State.INLINE) {
            throw new IllegalStateException("the market data ring is added before start");
        }
        OutboundEventRing ring = new OutboundEventRing(loopConfig.outboundRingBytes(),
            IdleStrategies.byName(loopConfig.idleStrategy()));
        routing.feed(ring);
        return ring;
    }

    /**
     * Before {@link #recover}: the matching step publishes a copy of each event of a covered owner to the ring of
     * each drop-copy session covering it.
     */
    public void dropCopyRoutes(DropCopyRoutes routes) {
        if (state != State.NEW) {
            throw new IllegalStateException("drop-copy routes are set before recovery");
        }
        routing.dropCopies(routes);
    }

    /** Rebuilds the books from the journal, dropping the replayed events. Once, before {@link #start()}. */
    public long recover() {
        return recover(null);
    }

    /**
     * Rebuilds the books from the journal; the replayed commands' events go to {@code replayedEvents} (on the calling
     * thread; null: dropped), which re-delivers those that never reached their session's store. Must be called once,
     * before {@link #start()}.
     */
    public long recover(EventSink replayedEvents) {
        return recover(replayedEvents, Long.MAX_VALUE);
    }

    /**
     * As {@link #recover(EventSink)}, from a snapshot no later than journal position {@code latestSnapshot} (the
     * replay must re-derive every event the caller's stores may lack).
     */
    public long recover(EventSink replayedEvents, long latestSnapshot) {
        if (state != State.NEW) {
            throw new IllegalStateException("already recovered");
        }
        long startNanos = System.nanoTime();
        routing.replaying(true, replayedEvents);
        marketData.replaying(true);
        long commands;
        try {
            commands = journal.recoverInto(engine, latestSnapshot);
        } finally {
            routing.replaying(false, null);
            marketData.replaying(false);
        }
        state = State.RECOVERED;
        recoveryNanos = System.nanoTime() - startNanos;
        recoveredCommands = commands;
        double seconds = recoveryNanos / 1e9;
        LOG.info("recovered: {} resting orders in {} books, {} commands replayed from the journal, in {} s ({}"
                + " commands/s); last order id {}, last exec id {}", engine.liveOrderCount(),
            engine.nonEmptyBookCount(), commands, String.format("%.3f", seconds),
            commands == 0 ? 0 : Math.round(commands / seconds), engine.lastOrderId(), engine.lastExecId());
        return commands;
    }

    /** Starts the matching thread (the two-thread layout). */
    public void start() {
        requireRecovered();
        state = State.THREAD;
        runner = new AgentRunner(matchingIdleStrategy(), error -> LOG.error("matching thread error", error), null,
            loop);
        AgentRunner.startOnThread(runner, new CpuPinning("matching", loopConfig.cpu()));
    }

    /**
     * Starts without a thread (the one-thread layout): the caller's thread, which also consumes every outbound ring,
     * runs {@link #doWork()} in its duty cycle. Nobody needs waking, so producers never signal.
     */
    public void startInline() {
        requireRecovered();
        state = State.INLINE;
    }

    /** The one-thread layout: one matching step (up to a batch of commands); returns the commands taken. */
    public int doWork() {
        if (state != State.INLINE) {
            throw new IllegalStateException("doWork() is for the one-thread layout, after startInline()");
        }
        return loop.doWork();
    }

    private void requireRecovered() {
        if (state == State.NEW) {
            throw new IllegalStateException("recover() must run before start()");
        }
        if (state != State.RECOVERED) {
            throw new IllegalStateException("already started");
        }
    }

    @Override
    public InboundCommandRing inbound() {
        return inbound;
    }

    /** The engine is in this process: requests are always taken (a full ring refuses them as busy). */
    @Override
    public boolean available() {
        return true;
    }

    /** The outbound ring of consumer 0 (the only one unless several were asked for). */
    public OutboundEventRing outbound() {
        return outbound[0];
    }

    @Override
    public OutboundEventRing outbound(int consumer) {
        return outbound[consumer];
    }

    public int outboundRings() {
        return outbound.length;
    }

    /**
     * The engine, for inspection only while the matching thread is not running (before {@link #start()}, after
     * {@link #close()}): it is not thread-safe.
     */
    public MatchingEngine engine() {
        return engine;
    }

    /**
     * After {@link #close()}: the journal position the books covered when the engine stopped (every command up to it
     * was processed and its events published; 0 if the journal is empty).
     */
    public long closedAt() {
        return loop.closedAt();
    }

    /** Any thread: commands processed since start (not counting recovery). */
    public long commandsProcessed() {
        return counters.commandsProcessed();
    }

    /** Any thread: what the matching thread counts (commands, events by kind, reason and symbol). */
    @Override
    public EngineCounters counters() {
        return counters;
    }

    /** Any thread: what the matching thread publishes (halted symbols, book query answers). */
    @Override
    public EngineView view() {
        return engine.view();
    }

    /** Any thread: how long {@link #recover()} took (0 before it ran). */
    @Override
    public long recoveryNanos() {
        return recoveryNanos;
    }

    /** Any thread: commands {@link #recover()} replayed from the journal. */
    @Override
    public long recoveredCommands() {
        return recoveredCommands;
    }

    /**
     * Stops after every command already queued is processed, then snapshots and closes the journal. In the
     * one-thread layout this runs on the caller's thread, which must be the thread that ran {@link #doWork()}.
     */
    @Override
    public void close() {
        State was = state;
        state = State.CLOSED;
        switch (was) {
            case THREAD -> runner.close();
            case INLINE -> loop.onClose();
            case NEW, RECOVERED -> journal.close();
            case CLOSED -> { }
        }
    }
}
