package io.fixmatch.server;

import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.IdleStrategies;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.feed.codec.Channel;
import io.fixmatch.feed.publisher.FeedSettings;
import io.fixmatch.fix.gateway.GatewayIdle;
import io.fixmatch.fix.marketdata.MarketDataSettings;
import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.fix.session.SessionTimings;
import io.fixmatch.fix.security.AllowedAddresses;
import io.fixmatch.fix.transport.ConnectionLimits;
import io.fixmatch.fix.transport.GatewaySettings;
import io.fixmatch.fix.transport.TlsSettings;
import io.fixmatch.fix.transport.Transport;
import io.fixmatch.journal.JournalConfig;
import io.fixmatch.server.logging.LogSettings;
import io.fixmatch.server.rules.TradingRules;
import io.fixmatch.server.rules.TradingRulesKeys;

import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The server's configuration, read from a properties file ({@code config/fixmatch.properties} is the embedded
 * default; {@code docs/CONFIG.md} documents every key), environment variables and flags (see {@link ConfigKeys}).
 * Anything invalid or unknown is refused at start with a {@link ConfigException} naming the key and its source.
 */
public record ServerConfig(ServerMode mode, ThreadLayout layout, GatewaySettings gateway, String compId,
                           List<SessionConfig> sessions, EngineConfig engine, LoopConfig loop, Path dataDirectory,
                           String journalRollCycle, int journalRetainCycles, long journalSnapshotEvery,
                           long journalMinFreeBytes, AdminSettings admin, LogSettings logs, TradingRules rules,
                           MarketDataSettings marketData, ClusterConfig cluster, FeedSettings feed) {

    public static final String EMBEDDED = "fixmatch.properties";
    private static final Pattern FILE_SIZE = Pattern.compile("\\d+\\s*(KB|MB|GB)", Pattern.CASE_INSENSITIVE);

    /** The embedded defaults. */
    public static ServerConfig embedded() {
        return read(ConfigKeys.embedded(Map.of(), List.of()));
    }

    /** A file alone (no environment variables, no flags). */
    public static ServerConfig load(Path file) {
        return read(ConfigKeys.load(file, Map.of(), List.of()));
    }

    public static ServerConfig from(Properties properties) {
        return read(ConfigKeys.of(properties, "the given properties"));
    }

    /** Reads every key, then refuses any key or {@code FIXMATCH_...} variable that names none of them. */
    public static ServerConfig read(ConfigKeys keys) {
        ServerConfig config;
        try {
            config = readKeys(keys);
        } catch (ConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage() + " (" + keys.sourceName() + ")", e);
        }
        keys.refuseUnknown();
        return config;
    }

    private static ServerConfig readKeys(ConfigKeys keys) {
        String compId = keys.text("fix.compId", "FIXMATCH");
        SessionTimings timings = new SessionTimings(keys.positiveLong("fix.logonTimeoutMs", 10_000),
            keys.positiveLong("fix.logoutTimeoutMs", 5_000), keys.positiveLong("fix.sendingTimeToleranceMs", 120_000));
        ThreadLayout layout = layout(keys);
        // gateway.threads was fix.ioThreads (Netty I/O threads) before each gateway thread owned its sessions.
        int gatewayThreads = keys.integer("gateway.threads", keys.integer("fix.ioThreads", 1, 1, 64), 1, 64);
        if (layout == ThreadLayout.ONE_THREAD && gatewayThreads != 1) {
            throw keys.invalid("gateway.threads", "must be 1 with server.layout=one-thread (the matching step runs"
                + " on the gateway thread), was " + gatewayThreads);
        }
        int maxMessageSize = keys.integer("fix.maxMessageSize", 8192, 256, 1 << 20);
        ConnectionLimits limits = new ConnectionLimits(
            keys.integer("fix.maxUnauthenticatedConnections", 100, 1, 1_000_000),
            keys.integer("fix.maxUnauthenticatedConnectionsPerAddress", 20, 1, 1_000_000),
            keys.integer("fix.maxGarbledBytes", 65_536, 256, Integer.MAX_VALUE),
            keys.integer("fix.maxLogonFailures", 5, 0, 1_000_000), keys.positiveLong("fix.logonLockoutMs", 60_000));
        GatewaySettings gateway = new GatewaySettings(keys.text("fix.host", "127.0.0.1"),
            keys.integer("fix.port", 9878, 0, 65_535), gatewayThreads, gatewayIdle(keys), transport(keys),
            cpus(keys, "gateway.cpus"),
            maxMessageSize, keys.positiveLong("fix.maxPendingBytes", 64L << 20), timings, limits, tls(keys));
        int defaultRate = keys.integer("fix.maxMessagesPerSecond", (int) SessionConfig.DEFAULT_MAX_MESSAGES_PER_SECOND,
            0, 100_000_000);

        int clOrdIdMemory = keys.integer("fix.clOrdIdMemory", SessionConfig.DEFAULT_CL_ORD_ID_MEMORY, 0, 10_000_000);
        List<SessionConfig> sessions = new ArrayList<>();
        for (String id : keys.list("sessions", "CLIENT1,CLIENT2,LOADGEN")) {
            if (id.equals(compId)) {
                throw keys.invalid("sessions", "lists " + id + ", the server's own CompID (fix.compId)");
            }
            if (sessions.stream().anyMatch(session -> session.clientCompId().equals(id))) {
                throw keys.invalid("sessions", "lists " + id + " twice");
            }
            sessions.add(new SessionConfig(id, keys.optional(keys.each("session.<ID>.username", id)),
                keys.optional(keys.each("session.<ID>.password", id)),
                keys.bool(keys.each("session.<ID>.cancelOnDisconnect", id), false),
                keys.bool(keys.each("session.<ID>.latencyTrace", id), false),
                keys.integer(keys.each("session.<ID>.maxMessagesPerSecond", id), defaultRate, 0, 100_000_000),
                allowedAddresses(keys, keys.each("session.<ID>.allowedAddresses", id)), List.of(),
                SessionRoles.schedule(keys, id), clOrdIdMemory));
        }
        sessions = SessionRoles.withDropCopies(keys, sessions);

        List<SymbolSpec> symbols = new ArrayList<>();
        for (String name : keys.list("symbols", "AAPL,MSFT,GOOG,AMZN,NVDA,META,TSLA,JPM,V,XOM")) {
            if (symbols.stream().anyMatch(symbol -> symbol.name().equals(name))) {
                throw keys.invalid("symbols", "lists " + name + " twice");
            }
            symbols.add(symbol(keys, name));
        }
        EngineConfig engine = new EngineConfig(symbols, keys.integer("engine.maxOrders", 1_000_000, 1,
            EngineConfig.MAX_CAPACITY), keys.integer("engine.maxPriceLevels", 200_000, 1, EngineConfig.MAX_CAPACITY));
        int cpu = keys.integer("engine.cpu", -1, -1, 4096);
        String idleStrategy = keys.text("engine.idleStrategy", "backoff");
        try {
            IdleStrategies.byName(idleStrategy);
        } catch (IllegalArgumentException e) {
            throw keys.invalid("engine.idleStrategy", e.getMessage());
        }
        LoopConfig loop = new LoopConfig(cpu, idleStrategy, ringBytes(keys, "engine.inboundRingBytes", 1 << 22),
            ringBytes(keys, "engine.outboundRingBytes", 1 << 24), 256);
        Path dataDirectory = Path.of(keys.text("data.dir", "data"));
        String rollCycle = keys.text("journal.rollCycle", JournalConfig.DEFAULT_ROLL_CYCLE);
        int retainCycles = keys.integer("journal.retainCycles", JournalConfig.KEEP_ALL, JournalConfig.KEEP_ALL,
            Integer.MAX_VALUE);
        long snapshotEvery = keys.integer("journal.snapshotEveryCommands", (int) JournalConfig.DEFAULT_SNAPSHOT_EVERY,
            0, Integer.MAX_VALUE);
        long minFreeBytes = (long) keys.integer("journal.minFreeMegabytes",
            (int) (JournalConfig.DEFAULT_MIN_FREE_BYTES >> 20), 0, 1_000_000) << 20;
        try {
            new JournalConfig(dataDirectory, rollCycle, retainCycles);
        } catch (IllegalArgumentException e) {
            throw keys.invalid("journal.rollCycle", e.getMessage());
        }
        AdminSettings admin = new AdminSettings(keys.text("admin.host", "127.0.0.1"),
            keys.integer("admin.port", 9880, 0, 65_535), keys.optional("admin.token"));
        String logDirectory = keys.optional("log.dir");
        String logConfig = keys.optional("log.config");
        if (logConfig != null && !Files.isReadable(Path.of(logConfig))) {
            throw keys.invalid("log.config", "names no readable file: " + logConfig);
        }
        LogSettings logs = new LogSettings(logDirectory == null ? null : Path.of(logDirectory),
            fileSize(keys, "log.maxFileSize", "100MB"), keys.integer("log.maxHistory", 14, 1, 3650),
            fileSize(keys, "log.totalSizeCap", "5GB"), logConfig == null ? null : Path.of(logConfig));
        TradingRules rules = TradingRulesKeys.read(keys, sessions.stream().map(SessionConfig::clientCompId).toList(),
            symbols);
        ServerMode mode = mode(keys);
        ClusterConfig cluster = ClusterKeys.read(keys, sessions);
        if (mode == ServerMode.CLUSTER && gatewayThreads != 1) {
            throw keys.invalid("gateway.threads", "must be 1 in cluster mode (more gateways are more gateway"
                + " processes), was " + gatewayThreads);
        }
        return new ServerConfig(mode, layout, gateway, compId, sessions, engine, loop, dataDirectory, rollCycle,
            retainCycles, snapshotEvery, minFreeBytes, admin, logs, rules,
            marketData(keys, symbols, maxMessageSize, sessions), cluster, feed(keys));
    }

    private static ServerMode mode(ConfigKeys keys) {
        try {
            return ServerMode.byName(keys.text("server.mode", ServerMode.STANDALONE.configName()));
        } catch (IllegalArgumentException e) {
            throw keys.invalid("server.mode", e.getMessage());
        }
    }

    /** A copy listening on another port (tests use port 0: any free port). */
    public ServerConfig withPort(int port) {
        return new ServerConfig(mode, layout, gateway.withPort(port), compId, sessions, engine, loop, dataDirectory,
            journalRollCycle, journalRetainCycles, journalSnapshotEvery, journalMinFreeBytes, admin, logs, rules,
            marketData, cluster, feed);
    }

    /** A copy with another admin endpoint (tests: {@link AdminSettings#ANY_FREE_PORT}, or off). */
    public ServerConfig withAdmin(AdminSettings settings) {
        return new ServerConfig(mode, layout, gateway, compId, sessions, engine, loop, dataDirectory, journalRollCycle,
            journalRetainCycles, journalSnapshotEvery, journalMinFreeBytes, settings, logs, rules, marketData, cluster,
            feed);
    }

    /** A copy storing its journal and sessions elsewhere. */
    public ServerConfig withDataDirectory(Path directory) {
        return new ServerConfig(mode, layout, gateway, compId, sessions, engine, loop, directory, journalRollCycle,
            journalRetainCycles, journalSnapshotEvery, journalMinFreeBytes, admin, logs, rules, marketData, cluster,
            feed);
    }

    /** Where the log files go. */
    public Path logDirectory() {
        return logs.directoryUnder(dataDirectory);
    }

    public JournalConfig journal() {
        return new JournalConfig(dataDirectory.resolve("journal"), journalRollCycle, journalRetainCycles,
            journalSnapshotEvery, journalMinFreeBytes);
    }

    public Path sessionDirectory(SessionConfig session) {
        return dataDirectory.resolve("sessions").resolve(compId + "-" + session.clientCompId());
    }

    /**
     * Market data over FIX: on by default; the depth a snapshot of both sides must fit in one message of
     * {@code fix.maxMessageSize} with the longest symbol.
     */
    private static MarketDataSettings marketData(ConfigKeys keys, List<SymbolSpec> symbols, int maxMessageSize,
                                                 List<SessionConfig> sessions) {
        boolean enabled = keys.bool("marketData.enabled", true);
        int longestSymbol = symbols.stream().mapToInt(symbol -> symbol.name().length()).max().orElse(0);
        int depthLimit = MarketDataSettings.maxDepthFor(maxMessageSize, longestSymbol);
        int maxDepth = keys.integer("marketData.maxDepth", Math.min(20, depthLimit), 1, Math.max(1, depthLimit));
        long maxPendingBytes = keys.positiveLong("marketData.maxPendingBytes", 256 * 1024);
        // 269=Q is no FIX 4.4 value: only sessions configured for it may ask for it (docs/FIX.md)
        Set<String> indicativeSessions = new LinkedHashSet<>();
        for (SessionConfig session : sessions) {
            if (keys.bool(keys.each("session.<ID>.marketData.indicative", session.clientCompId()), false)) {
                indicativeSessions.add(session.clientCompId());
            }
        }
        return new MarketDataSettings(enabled, maxDepth, maxPendingBytes, indicativeSessions);
    }

    /**
     * The binary market data feed (docs/FEED.md): on by default, to loopback; null when off. Its numbers come from the
     * engine's market data, which it switches on whatever {@code marketData.enabled} says.
     */
    private static FeedSettings feed(ConfigKeys keys) {
        boolean enabled = keys.bool("marketData.feed.enabled", true);
        String channel = keys.text("marketData.feed.channel", "127.0.0.1:40456");
        String snapshotChannel = keys.text("marketData.feed.snapshotChannel", "127.0.0.1:40457");
        String retransmitHost = keys.text("marketData.feed.retransmitHost", "127.0.0.1");
        int retransmitPort = keys.integer("marketData.feed.retransmitPort", 40458, -1, 65_535);
        String session = keys.text("marketData.feed.session", FeedSettings.DEFAULT_SESSION);
        long snapshotMs = keys.positiveLong("marketData.feed.snapshotIntervalMs", 1000);
        long heartbeatMs = keys.positiveLong("marketData.feed.heartbeatIntervalMs", 1000);
        int maxDatagram = keys.integer("marketData.feed.maxDatagramBytes", 1472, 256, 65_507);
        int history = keys.integer("marketData.feed.historyMessages", 1 << 18, 1, 1 << 26);
        int perRequest = keys.integer("marketData.feed.maxMessagesPerRequest", 10_000, 1, 65_535);
        int perClient = keys.integer("marketData.feed.maxMessagesPerClientPerSecond", 200_000, 1, Integer.MAX_VALUE);
        int multicastTtl = keys.integer("marketData.feed.multicastTtl", 1, 0, 255);
        if (!enabled) {
            return null;
        }
        if (session.length() > 10 || !session.chars().allMatch(c -> c >= 0x20 && c < 0x7F)) {
            throw keys.invalid("marketData.feed.session", "at most 10 ASCII characters, was " + session);
        }
        if (Integer.bitCount(history) != 1) {
            throw keys.invalid("marketData.feed.historyMessages", "must be a power of two, was " + history);
        }
        List<InetSocketAddress> stream;
        List<InetSocketAddress> snapshots;
        try {
            stream = Channel.parse(channel);
        } catch (IllegalArgumentException e) {
            throw keys.invalid("marketData.feed.channel", e.getMessage());
        }
        try {
            snapshots = Channel.parse(snapshotChannel);
        } catch (IllegalArgumentException e) {
            throw keys.invalid("marketData.feed.snapshotChannel", e.getMessage());
        }
        if (stream.isEmpty()) {
            throw keys.invalid("marketData.feed.channel", "names no address");
        }
        return new FeedSettings(session, stream, snapshots, retransmitHost, retransmitPort, snapshotMs, heartbeatMs,
            maxDatagram, history, perRequest, perClient, multicastTtl);
    }

    private static SymbolSpec symbol(ConfigKeys keys, String name) {
        String tickKey = keys.each("symbol.<NAME>.tick", name);
        BigDecimal tick = keys.decimal(tickKey, keys.decimal("symbol.default.tick", new BigDecimal("0.01")));
        int scale = keys.integer(keys.each("symbol.<NAME>.priceScale", name),
            Math.max(0, tick.stripTrailingZeros().scale()), 0, 9);
        BigDecimal unitsPerWhole = BigDecimal.TEN.pow(scale);
        long tickUnits = exactUnits(keys, tickKey, tick, unitsPerWhole);
        long lot = keys.positiveLong(keys.each("symbol.<NAME>.lot", name), keys.positiveLong("symbol.default.lot", 1));
        String maxPriceKey = keys.each("symbol.<NAME>.maxPrice", name);
        BigDecimal maxPrice = keys.decimal(maxPriceKey, keys.decimal("symbol.default.maxPrice",
            new BigDecimal("1000000")));
        long maxQuantity = keys.positiveLong(keys.each("symbol.<NAME>.maxQuantity", name),
            keys.positiveLong("symbol.default.maxQuantity", 1_000_000));
        return new SymbolSpec(name, scale, tickUnits, lot, exactUnits(keys, maxPriceKey, maxPrice, unitsPerWhole),
            maxQuantity);
    }

    private static long exactUnits(ConfigKeys keys, String key, BigDecimal value, BigDecimal unitsPerWhole) {
        long units;
        try {
            units = value.multiply(unitsPerWhole).longValueExact();
        } catch (ArithmeticException e) {
            throw keys.invalid(key, "= " + value.toPlainString() + " is finer than the price precision");
        }
        if (units <= 0) {
            throw keys.invalid(key, "must be positive, was " + value.toPlainString());
        }
        return units;
    }

    private static int ringBytes(ConfigKeys keys, String key, int fallback) {
        int bytes = keys.integer(key, fallback, 1024, 1 << 30);
        if (Integer.bitCount(bytes) != 1) {
            throw keys.invalid(key, "must be a power of two, was " + bytes);
        }
        return bytes;
    }

    /** TLS on the acceptor when {@code fix.tls.keyStore} is set; the key store is loaded (and checked) at start. */
    private static TlsSettings tls(ConfigKeys keys) {
        String keyStore = keys.optional("fix.tls.keyStore");
        String password = keys.optional("fix.tls.keyStorePassword");
        String type = keys.text("fix.tls.keyStoreType", "PKCS12");
        List<String> protocols = keys.list("fix.tls.protocols", "TLSv1.3,TLSv1.2");
        if (!type.equals("PKCS12") && !type.equals("JKS")) {
            throw keys.invalid("fix.tls.keyStoreType", "must be PKCS12 or JKS, was " + type);
        }
        for (String protocol : protocols) {
            if (!protocol.equals("TLSv1.3") && !protocol.equals("TLSv1.2")) {
                throw keys.invalid("fix.tls.protocols", "may list TLSv1.3 and TLSv1.2, was " + protocol);
            }
        }
        if (keyStore == null) {
            return null;
        }
        if (!Files.isReadable(Path.of(keyStore))) {
            throw keys.invalid("fix.tls.keyStore", "names no readable file: " + keyStore);
        }
        TlsSettings tls = new TlsSettings(Path.of(keyStore), password, type, protocols);
        try {
            tls.serverContext();
        } catch (IllegalArgumentException e) {
            throw keys.invalid("fix.tls.keyStore", e.getMessage());
        }
        return tls;
    }

    private static AllowedAddresses allowedAddresses(ConfigKeys keys, String key) {
        try {
            return AllowedAddresses.parse(keys.optional(key));
        } catch (IllegalArgumentException e) {
            throw keys.invalid(key, e.getMessage());
        }
    }

    private static ThreadLayout layout(ConfigKeys keys) {
        try {
            return ThreadLayout.byName(keys.text("server.layout", ThreadLayout.ONE_THREAD.configName()));
        } catch (IllegalArgumentException e) {
            throw keys.invalid("server.layout", e.getMessage());
        }
    }

    private static GatewayIdle gatewayIdle(ConfigKeys keys) {
        try {
            return GatewayIdle.byName(keys.text("gateway.idleStrategy", GatewayIdle.BACKOFF.configName()));
        } catch (IllegalArgumentException e) {
            throw keys.invalid("gateway.idleStrategy", e.getMessage());
        }
    }

    /** gateway.transport: auto, or a transport's name (whether this machine can run it is checked at start). */
    private static String transport(ConfigKeys keys) {
        String name = keys.text("gateway.transport", Transport.AUTO);
        try {
            Transport.checkName(name);
        } catch (IllegalArgumentException e) {
            throw keys.invalid("gateway.transport", e.getMessage());
        }
        return name;
    }

    /** A comma-separated list of CPU numbers, -1 for a thread left unpinned. */
    private static List<Integer> cpus(ConfigKeys keys, String key) {
        String value = keys.text(key, "-1");
        List<Integer> cpus = new ArrayList<>();
        for (String item : value.split(",")) {
            int cpu;
            try {
                cpu = Integer.parseInt(item.trim());
            } catch (NumberFormatException e) {
                throw keys.invalid(key, "must list CPU numbers, was " + value);
            }
            if (cpu < -1 || cpu > 4096) {
                throw keys.invalid(key, "CPU " + cpu + " out of range -1..4096");
            }
            cpus.add(cpu);
        }
        return cpus;
    }

    private static String fileSize(ConfigKeys keys, String key, String fallback) {
        String size = keys.text(key, fallback);
        if (!FILE_SIZE.matcher(size).matches()) {
            throw keys.invalid(key, "must be a size such as 100MB (KB, MB or GB), was " + size);
        }
        return size;
    }
}
