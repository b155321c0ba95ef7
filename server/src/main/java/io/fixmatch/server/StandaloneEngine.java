package io.fixmatch.server;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.loop.DropCopyRoutes;
import io.fixmatch.engine.loop.EngineLink;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.feed.publisher.FeedPublisher;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.gateway.PendingCommands;
import io.fixmatch.fix.gateway.RecoveredReports;
import io.fixmatch.fix.marketdata.MarketDataFeed;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.fix.session.SessionRegistry;
import io.fixmatch.journal.ChroniclePersistence;
import io.fixmatch.server.rules.EndOfDayTimer;
import io.fixmatch.server.rules.EngineTimer;
import io.fixmatch.server.rules.MissedDayEnd;
import io.fixmatch.server.rules.SessionControlSync;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;

/**
 * The standalone server's engine: the matching step ({@link MatchingRuntime}) in this process, inline in gateway 0's
 * duty cycle (one-thread layout) or on its own thread (two-threads), every command journaled to Chronicle Queue
 * before it is matched; at start the books are rebuilt from the newest usable snapshot and the journal.
 */
final class StandaloneEngine implements EngineSide {
    private static final Logger LOG = LoggerFactory.getLogger(StandaloneEngine.class);

    private final ServerConfig config;
    private final Clock clock;
    private final ChroniclePersistence journal;
    private final MatchingRuntime runtime;
    private final SymbolTable symbols;
    private final DropCopyRoutes dropCopies;
    private SessionRegistry registry;
    /** The binary market data feed's publisher (its own thread), or null. */
    private final FeedPublisher feed;

    StandaloneEngine(ServerConfig config, Clock clock, SymbolTable symbols, DropCopyRoutes dropCopies) {
        this.config = config;
        this.clock = clock;
        this.symbols = symbols;
        this.dropCopies = dropCopies;
        int gatewayCount = config.gateway().threads();
        this.journal = ChroniclePersistence.open(config.journal(), config.engine().symbols(),
            config.sessions().stream().map(SessionConfig::clientCompId).toList());
        this.runtime = new MatchingRuntime(config.engine(), config.loop(), journal, gatewayCount,
            owner -> Gateways.indexOfOwner(owner, gatewayCount), journalClock(clock));
        runtime.publishMarketData(config.marketData().enabled() || config.feed() != null);
        runtime.dropCopyRoutes(dropCopies);
        this.feed = config.feed() == null ? null
            : new FeedPublisher(config.feed(), runtime.addMarketDataRing(), config.engine().symbols());
    }

    @Override
    public FeedPublisher feed() {
        return feed;
    }

    /** The system's clock at nanosecond resolution, allocation-free; any other (a test's) read in milliseconds. */
    private static EpochNanoClock journalClock(Clock clock) {
        if (clock.equals(Clock.systemUTC())) {
            return new OffsetEpochNanoClock();
        }
        return () -> clock.millis() * 1_000_000L;
    }

    @Override
    public EngineLink link() {
        return runtime;
    }

    /** The journal (the admin endpoint's metrics). */
    ChroniclePersistence journal() {
        return journal;
    }

    @Override
    public void attach(List<Gateway> gateways, List<PendingCommands> pending) {
        if (config.layout() == ThreadLayout.ONE_THREAD) {
            gateways.get(0).runMatchingInline(runtime);
        }
        if (config.rules().endOfDay() != null) {
            gateways.get(0).addTimer(new EndOfDayTimer(config.rules().endOfDay(), config.rules().timeZone(),
                pending.get(0), clock.millis()));
        }
        gateways.get(0).addTimer(new EngineTimer(runtime.view(), pending.get(0)));
    }

    /**
     * Rebuilds the books from the journal; stores the reports of replayed events that the session stores lack (a crash
     * after the journal append, before the report was stored); tells each session which of its client's requests the
     * journal holds, so those are not asked for again and all others are.
     */
    @Override
    public void recover(List<FixSession> sessions, List<Gateway> gateways) {
        registry = new SessionRegistry(config.compId(), sessions);
        RecoveredReports recovered = new RecoveredReports(registry, symbols, dropCopies);
        runtime.recover(recovered, latestUsableSnapshot(sessions));
        recovered.logSummary();
        long nowMs = clock.millis();
        expireMissedDayEnd(nowMs);
        applyTradingRules(nowMs);
        for (FixSession session : sessions) {
            session.journalPositions().recoverInbound(runtime.engine().lastInboundPosition(session.ownerId()));
        }
        seedMarketData(gateways);
        if (feed != null) {
            feed.seedFrom(runtime.engine()); // the stream goes on from the number the recovered engine holds
        }
    }

    /**
     * Recovery may start from a snapshot only if every session's store holds the reports of the events of the commands
     * the snapshot covers (its replay re-derives only those after it): the least position through which the stores
     * hold everything. Stores that know no event (new ones) do not constrain it.
     */
    private static long latestUsableSnapshot(List<FixSession> sessions) {
        long latest = Long.MAX_VALUE;
        for (FixSession session : sessions) {
            long storedThrough = session.journalPositions().eventsStoredThrough();
            if (storedThrough != 0) {
                latest = Math.min(latest, storedThrough);
            }
        }
        return latest;
    }

    /**
     * A server that was down when the trading day ended ends it now ({@link MissedDayEnd}): one journaled
     * EXPIRE_DAY_ORDERS queued before any client's command, so yesterday's DAY orders never trade today.
     */
    private void expireMissedDayEnd(long nowMs) {
        if (config.rules().endOfDay() == null) {
            return;
        }
        MissedDayEnd.since(runtime.engine(), config.rules().endOfDay(), config.rules().timeZone(), nowMs)
            .ifPresent(dayEndMs -> {
                MissedDayEnd.log(runtime.engine(), dayEndMs, config.rules().timeZone());
                StartUpCommands.queue(runtime.inbound(), List.of(MissedDayEnd.command(nowMs)));
            });
    }

    /**
     * The configuration's risk limits, self-trade prevention and reference prices reach the engine as journaled
     * commands, queued before any client's: only those the recovered engine holds differently.
     */
    private void applyTradingRules(long nowMs) {
        List<Command> changes = SessionControlSync.differences(config.rules(), runtime.engine(),
            nowMs * 1_000_000L, owner -> true);
        StartUpCommands.queue(runtime.inbound(), changes);
        if (!changes.isEmpty()) {
            LOG.info("trading rules: {} session settings and reference prices changed since the journal's, set by"
                + " journaled commands", changes.size());
        }
    }

    /** Each gateway's market data starts from the recovered books and calls' indicative uncrosses (the engine publishes only changes from now on). */
    private void seedMarketData(List<Gateway> gateways) {
        for (Gateway gateway : gateways) {
            MarketDataFeed feed = gateway.marketData();
            if (feed == null) {
                continue;
            }
            for (int symbolId = 0; symbolId < runtime.engine().symbolCount(); symbolId++) {
                for (Side side : Side.values()) {
                    int symbol = symbolId;
                    runtime.engine().forEachRestingOrder(symbolId, side,
                        order -> feed.seed(symbol, order.side(), order.price(), order.displayedQuantity()));
                }
                long[] indicative = runtime.engine().indicative(symbolId);
                feed.seedIndicative(symbolId, indicative[0], indicative[1]);
            }
        }
    }

    @Override
    public void start() {
        if (config.layout() == ThreadLayout.ONE_THREAD) {
            runtime.startInline();
        } else {
            runtime.start();
        }
        if (feed != null) {
            feed.start(-1);
        }
    }

    @Override
    public boolean ready() {
        return true;
    }

    /**
     * Lets the engine finish every queued command, snapshot and close the journal: on gateway 0's thread in the
     * one-thread layout (which runs the matching step), else here.
     */
    @Override
    public long stop(boolean gatewaysRan, Consumer<Consumer<Gateway>> onGateway0) {
        if (config.layout() == ThreadLayout.ONE_THREAD && gatewaysRan) {
            onGateway0.accept(Gateway::closeInlineMatching);
        } else {
            runtime.close();
        }
        if (feed != null) {
            feed.close(); // after the matching step: what it wrote is published first
        }
        return runtime.closedAt();
    }

    @Override
    public String describe() {
        return "layout " + config.layout().configName();
    }
}
