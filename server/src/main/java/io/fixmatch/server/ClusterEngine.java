package io.fixmatch.server;

import io.fixmatch.cluster.client.ClusterEngineLink;
import io.fixmatch.cluster.client.LinkSettings;
import io.fixmatch.cluster.client.StoredOrigins;
import io.fixmatch.cluster.client.Welcome;
import io.fixmatch.cluster.protocol.VenueFingerprint;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.loop.EngineLink;
import io.fixmatch.engine.loop.IdleStrategies;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.matching.EngineView;
import io.fixmatch.feed.publisher.FeedPublisher;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.PendingCommands;
import io.fixmatch.fix.marketdata.MarketDataFeed;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.server.rules.SessionControlSync;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A gateway of the replicated venue: the engine runs on the cluster's nodes, reached through the
 * {@link ClusterEngineLink} on a thread of its own. At start the link joins the cluster (the welcome says what the
 * engine holds of each session's requests and the trading settings, and the books and calls for market data) and the
 * configuration's trading settings (this gateway's sessions', the symbols') are sent where the cluster holds them
 * differently; the end of day is the cluster's timer. Ready once the reports the cluster held for the sessions are in their stores.
 */
final class ClusterEngine implements EngineSide {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterEngine.class);
    private static final long STOP_WAIT_MS = 5_000;

    private final ServerConfig config;
    private final ClusterEngineLink link;
    private final int[] owners;
    /**
     * The binary market data feed's publisher (docs/FEED.md), or null: fed the market data records of the cluster's
     * batches, numbered by the service, so every gateway that publishes gives each number the same message and the feed
     * goes on without a gap or a repeat through a leader change (the batches do).
     */
    private final FeedPublisher feed;

    ClusterEngine(ServerConfig config) {
        this.config = config;
        ClusterConfig cluster = config.cluster();
        this.owners = servedOwners(config);
        LinkSettings settings = new LinkSettings(cluster.gatewayId(), owners,
            VenueFingerprint.of(config.engine().symbols(), config.sessions().stream()
                .map(io.fixmatch.fix.session.SessionConfig::clientCompId).toList()), cluster.members(),
            cluster.gatewayHost(), cluster.aeronDirectoryFor("gateway-" + cluster.gatewayId(), config.dataDirectory()),
            cluster.connectTimeoutMs(), cluster.resendAfterMs(), cluster.unavailableAfterMs(),
            config.loop().inboundRingBytes(), cluster.idle(), cluster.gatewayTimeoutMs(), config.gateway().port(),
            config.admin().port(), config.gateway().maxMessageSize());
        this.link = new ClusterEngineLink(settings, new InboundCommandRing(config.loop().inboundRingBytes()),
            new OutboundEventRing(config.loop().outboundRingBytes(), IdleStrategies.byName(config.loop().idleStrategy())),
            config.engine().symbols().size());
        if (config.feed() == null) {
            this.feed = null;
        } else {
            OutboundEventRing ring = new OutboundEventRing(config.loop().outboundRingBytes(),
                IdleStrategies.byName(config.loop().idleStrategy()));
            link.marketDataRing(ring);
            this.feed = new FeedPublisher(config.feed(), ring, config.engine().symbols());
        }
    }

    @Override
    public FeedPublisher feed() {
        return feed;
    }

    /** Owner k + 1 is the k-th configured session; this gateway serves those {@code cluster.gatewaySessions} lists. */
    private static int[] servedOwners(ServerConfig config) {
        return java.util.stream.IntStream.range(0, config.sessions().size())
            .filter(i -> config.cluster().serves(config.sessions().get(i).clientCompId()))
            .map(i -> i + 1).toArray();
    }

    @Override
    public EngineLink link() {
        return link;
    }

    /** The link itself (the admin endpoint's cluster view). */
    ClusterEngineLink clusterLink() {
        return link;
    }

    @Override
    public void attach(List<Gateway> gateways, List<PendingCommands> pending) {
        // Nothing runs on the gateway thread for the engine (the link has its own thread, the end of day is the
        // cluster's timer); traced round trips count the way to the engine as replication.
        gateways.forEach(Gateway::engineReplicated);
    }

    @Override
    public void recover(List<FixSession> sessions, List<Gateway> gateways) {
        Welcome welcome = link.connect(storedOrigins(sessions));
        for (FixSession session : sessions) {
            session.journalPositions().recoverInbound(welcome.inboundPosition(session.ownerId()));
        }
        for (Gateway gateway : gateways) {
            MarketDataFeed marketData = gateway.marketData();
            if (marketData != null) {
                welcome.forEachRestingOrder(marketData::seed);
                welcome.forEachIndicative(marketData::seedIndicative);
            }
        }
        if (feed != null) {
            seedFeed(welcome);
        }
        List<Command> changes = SessionControlSync.differences(config.rules(), welcome,
            System.currentTimeMillis() * 1_000_000L, this::serves);
        StartUpCommands.queue(link.inbound(), changes);
        if (!changes.isEmpty()) {
            LOG.info("trading rules: {} session settings and reference prices differ from the cluster's, set by"
                + " commands through the cluster", changes.size());
        }
    }

    /** The feed starts from the welcome's books, as of the market data sequence number it gives. */
    private void seedFeed(Welcome welcome) {
        welcome.forEachRestingOrder(feed::seedOrder);
        long[] indicative = new long[2 * config.engine().symbols().size()];
        welcome.forEachIndicative((symbolId, price, volume) -> {
            indicative[2 * symbolId] = price;
            indicative[2 * symbolId + 1] = volume;
        });
        EngineView view = link.view();
        for (int symbolId = 0; symbolId < config.engine().symbols().size(); symbolId++) {
            feed.seedStatus(symbolId, view.phase(symbolId), view.isHalted(symbolId), indicative[2 * symbolId],
                indicative[2 * symbolId + 1], welcome.lastTradePrice(symbolId));
        }
        if (welcome.marketDataSequence() == Welcome.UNKNOWN_SEQUENCE) {
            LOG.warn("the cluster's nodes do not say the market data sequence number (an earlier release): the binary"
                + " feed starts at its first message received");
        }
        feed.startAfter(Math.max(0, welcome.marketDataSequence()));
    }

    private boolean serves(int owner) {
        for (int served : owners) {
            if (served == owner) {
                return true;
            }
        }
        return false;
    }

    /** What each session's store held at start, for the link's thread to ask about (the stores are this thread's). */
    private static StoredOrigins storedOrigins(List<FixSession> sessions) {
        Map<Integer, long[]> last = new HashMap<>();
        for (FixSession session : sessions) {
            last.put(session.ownerId(), new long[] {session.journalPositions().lastStoredEventPosition(),
                session.journalPositions().lastStoredEventOrdinal()});
        }
        return (owner, position, ordinal) -> {
            long[] origin = last.get(owner);
            return origin != null && (position < origin[0] || (position == origin[0] && ordinal <= origin[1]));
        };
    }

    @Override
    public void start() {
        link.start(config.loop().cpu());
        if (feed != null) {
            feed.start(-1);
        }
    }

    @Override
    public boolean ready() {
        return link.historyDelivered();
    }

    /** Waits (briefly) for every command taken to be answered, then leaves the cluster. */
    @Override
    public long stop(boolean gatewaysRan, Consumer<Consumer<Gateway>> onGateway0) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MS);
        while (!link.quiet() && System.nanoTime() < deadline && link.available()) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (!link.quiet()) {
            LOG.warn("stopping with {} commands unanswered by the cluster (the clients' resend will bring them again)",
                link.status().unanswered());
        }
        link.close();
        if (feed != null) {
            feed.close();
        }
        return 0;
    }

    @Override
    public String describe() {
        return "cluster gateway " + config.cluster().gatewayId() + " (leader node " + link.status().leaderMemberId()
            + ")";
    }
}
